package views

import (
	"strings"
	"testing"
	"unicode/utf8"
)

const (
	maxPreviewChars     = 120
	maxQuickOpenResults = 50
)

func paths(items []PaletteItem) string {
	var s []string
	for _, it := range items {
		s = append(s, it.Path)
	}
	return strings.Join(s, ",")
}

func TestQuickOpenMatches(t *testing.T) {
	files := []string{"index.html", "styles.css", "app.js", "README.md", "css/site.css", "src/lib/util.js"}
	cases := map[string]string{
		"":      "README.md,app.js,css/site.css,index.html,src/lib/util.js,styles.css",
		"s":     "css/site.css,styles.css,app.js,src/lib/util.js", // name prefix, then name contains (path order)
		"STYL":  "styles.css",
		"css":   "css/site.css,styles.css",
		"util":  "src/lib/util.js",
		"slu":   "src/lib/util.js",
		"zzz":   "",
		" app ": "app.js",
	}
	for q, want := range cases {
		if got := paths(QuickOpenMatches(files, q, 50)); got != want {
			t.Errorf("%q: %q, want %q", q, got, want)
		}
	}
	many := make([]string, 200)
	for i := range many {
		many[i] = "f" + strings.Repeat("x", i%7) + ".md"
	}
	if n := len(QuickOpenMatches(many, "", 50)); n != maxQuickOpenResults {
		t.Errorf("bound: %d", n)
	}
	if !Subsequence("src/lib/util.js", "slu") || Subsequence("abc", "acb") || !Subsequence("é-x", "éx") {
		t.Error("subsequence")
	}
}

func TestPreviewLine(t *testing.T) {
	if got := PreviewLine("   <h1 id=\"hero-title\">x</h1>  ", "hero", maxPreviewChars); got != "<h1 id=\"hero-title\">x</h1>" {
		t.Errorf("short line %q", got)
	}
	long := strings.Repeat("a", 300) + "NEEDLE" + strings.Repeat("b", 300)
	got := PreviewLine(long, "needle", maxPreviewChars)
	if !strings.Contains(got, "NEEDLE") || !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") || utf8.RuneCountInString(got) != maxPreviewChars+2 {
		t.Errorf("long line preview %q (%d)", got, utf8.RuneCountInString(got))
	}
}
