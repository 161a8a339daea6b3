package jsscan

import (
	"strings"
	"testing"
)

func TestFindImportMetaURL(t *testing.T) {
	src := "const a = import.meta.url; // import.meta.url\n" +
		"const b = 'import.meta.url' + `${import . meta . url}` + x.import.meta.url + import.meta.urls + import.meta.resolve;\n" +
		"new URL('./w.js', import.meta.url)"
	got := FindImportMetaURL(src)
	var texts []string
	for _, s := range got {
		texts = append(texts, src[s[0]:s[1]])
	}
	want := []string{"import.meta.url", "import . meta . url", "import.meta.url"}
	if len(texts) != len(want) {
		t.Fatalf("got %q, want %q", texts, want)
	}
	for i := range want {
		if texts[i] != want[i] {
			t.Errorf("span %d = %q, want %q", i, texts[i], want[i])
		}
	}
}

// FuzzFindImportMetaURL: spans are in order, inside src, and each spells import.meta.url
// with only whitespace/comments between the parts.
func FuzzFindImportMetaURL(f *testing.F) {
	f.Add("import.meta.url; `${import.meta.url}`; /* import.meta.url */ x.import.meta.url")
	f.Add("import /*a*/ . meta\n.url")
	f.Fuzz(func(t *testing.T, src string) {
		last := 0
		for _, s := range FindImportMetaURL(src) {
			if s[0] < last || s[1] > len(src) || s[0] >= s[1] {
				t.Fatalf("bad span %v", s)
			}
			text := src[s[0]:s[1]]
			if !strings.HasPrefix(text, "import") || !strings.HasSuffix(text, "url") {
				t.Fatalf("span %q", text)
			}
			last = s[1]
		}
	})
}

func TestFindImportMetaResolve(t *testing.T) {
	src := "const r = import.meta.resolve ? import.meta.resolve('/js/a.js') : new URL(o, import.meta.url).href;\n" +
		"// import.meta.resolve\n'import.meta.resolve'; x.import.meta.resolve; import.meta.resolved; import . meta . resolve"
	var texts []string
	for _, s := range FindImportMetaResolve(src) {
		texts = append(texts, src[s[0]:s[1]])
	}
	want := []string{"import.meta.resolve", "import.meta.resolve", "import . meta . resolve"}
	if strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", texts, want)
	}
}
