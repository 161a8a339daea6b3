package preview

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
)

const inspectPage = `<!doctype html><html lang="en"><head><title>T</title><script>var x = 1;</script></head>
<body class="page">
<header id="top" class="site dark"><nav><a href="/">Home</a><a href="about.html" onclick="go()">About <b>us</b></a></nav></header>
<main>
  <h1 id="hero-title" class="hero big">Hello <em>world</em></h1>
  <p>first</p>
  <p data-kind="lead" onmouseover="steal()">second <script>alert(1)</script>paragraph</p>
  <section><p>deep</p><p class="x">deeper</p></section>
  <img src="a.png" alt="A cat"><img src="b.png" alt="">
  <label for="email">Your email</label><input id="email" type="email">
  <label>Agree <input type="checkbox" id="agree"></label>
  <button aria-label="Close dialog">×</button>
  <div role="alert tooltip" aria-labelledby="hero-title">x</div>
  <span id="dup">1</span><span id="dup">2</span>
</main></body></html>`

func inspectFiles(src string) []File {
	return []File{{Path: "index.html", Language: LangHTML, Kind: "text", Source: src}}
}

func mustInspect(t *testing.T, src, sel string) Element {
	t.Helper()
	el, path, err := Inspect(inspectFiles(src), sel)
	if err != nil {
		t.Fatalf("Inspect(%q): %v", sel, err)
	}
	if path != "index.html" {
		t.Fatalf("path %q", path)
	}
	return el
}

// TestInspectSelectorSubset: the documented subset (tag, #id, .class, [attr], [attr=value],
// descendant and child combinators, :nth-of-type) picks the first match in document order
// and counts every match.
func TestInspectSelectorSubset(t *testing.T) {
	for _, c := range []struct {
		sel, tag, text string
		matches        int
	}{
		{"h1", "h1", "Hello world", 1},
		{"#hero-title", "h1", "Hello world", 1},
		{".hero.big", "h1", "Hello world", 1},
		{"[data-kind]", "p", "second paragraph", 1},
		{`[data-kind="lead"]`, "p", "second paragraph", 1},
		{"main p", "p", "first", 4},
		{"main > p", "p", "first", 2},
		{"section p:nth-of-type(2)", "p", "deeper", 1},
		{"p:nth-of-type(2)", "p", "second paragraph", 2},
		{"nav a, h1", "a", "Home", 3},
	} {
		el := mustInspect(t, inspectPage, c.sel)
		if el.Tag != c.tag || el.Text != c.text || el.Matches != c.matches {
			t.Errorf("%q: tag %q text %q matches %d; want %q %q %d", c.sel, el.Tag, el.Text, el.Matches, c.tag, c.text, c.matches)
		}
	}
}

// TestInspectUniqueSelector: the reported selector matches exactly the inspected element —
// "#id" for a unique id, else an nth-of-type path from the nearest unique id or html.
func TestInspectUniqueSelector(t *testing.T) {
	want := map[string]string{
		"h1":              "#hero-title",
		"main > p":        "html > body > main > p:nth-of-type(1)",
		".x":              "html > body > main > section > p:nth-of-type(2)",
		"nav a + a":       "#top > nav > a:nth-of-type(2)",
		"span:last-child": "html > body > main > span:nth-of-type(2)",
		"#agree":          "#agree",
	}
	doc, _ := html.Parse(strings.NewReader(inspectPage))
	for sel, w := range want {
		el := mustInspect(t, inspectPage, sel)
		if el.Selector != w {
			t.Errorf("%q: selector %q, want %q", sel, el.Selector, w)
		}
		first := cascadia.Query(doc, cascadia.MustCompile(sel))
		if got := cascadia.QueryAll(doc, cascadia.MustCompile(el.Selector)); len(got) != 1 || got[0] != first {
			t.Errorf("%q: %q matches %d elements, not the inspected one", sel, el.Selector, len(got))
		}
	}
	// An id that needs escaping still round-trips.
	src := `<div id="1 a:b"><p>x</p></div><div id="1 a:b">y</div>`
	el := mustInspect(t, src, "p")
	if el.Selector != `html > body > div:nth-of-type(1) > p` {
		t.Errorf("duplicate id: %q", el.Selector)
	}
	el = mustInspect(t, `<div id="1 a:b">z</div>`, "div")
	if el.Selector != `#\31 \ a\:b` {
		t.Errorf("escaped id: %q", el.Selector)
	}
	d, _ := html.Parse(strings.NewReader(`<div id="1 a:b">z</div>`))
	if got := cascadia.QueryAll(d, cascadia.MustCompile(el.Selector)); len(got) != 1 {
		t.Errorf("escaped id selector matches %d", len(got))
	}
}

// TestInspectStripsScriptsAndHandlers: outerHTML carries no <script> and no on* attribute;
// text leaves script contents out.
func TestInspectStripsScriptsAndHandlers(t *testing.T) {
	el := mustInspect(t, inspectPage, "[data-kind]")
	if strings.Contains(el.OuterHTML, "script") || strings.Contains(el.OuterHTML, "alert") || strings.Contains(el.OuterHTML, "onmouseover") || strings.Contains(el.OuterHTML, "steal") {
		t.Fatalf("outerHTML not stripped: %s", el.OuterHTML)
	}
	if el.OuterHTML != `<p data-kind="lead">second paragraph</p>` {
		t.Errorf("outerHTML %q", el.OuterHTML)
	}
	el = mustInspect(t, inspectPage, "header")
	if strings.Contains(el.OuterHTML, "onclick") || !strings.Contains(el.OuterHTML, `<a href="about.html">About <b>us</b></a>`) {
		t.Errorf("header outerHTML %s", el.OuterHTML)
	}
	el = mustInspect(t, `<svg><script>bad()</script><circle onload="x()" r="1"></circle></svg>`, "svg")
	if strings.Contains(el.OuterHTML, "bad") || strings.Contains(el.OuterHTML, "onload") {
		t.Errorf("svg outerHTML %s", el.OuterHTML)
	}
}

// TestInspectBounds: text ≤ 200 and outerHTML ≤ 4,096 code points (flagged when cut), at
// most 10 ancestors, nearest first, as tag#id.class.
func TestInspectBounds(t *testing.T) {
	long := strings.Repeat("é", 5000)
	el := mustInspect(t, "<p>"+long+"</p>", "p")
	if n := utf8.RuneCountInString(el.Text); n != MaxInspectTextChars || !el.TextTruncated {
		t.Errorf("text %d code points, truncated %v", n, el.TextTruncated)
	}
	if n := utf8.RuneCountInString(el.OuterHTML); n != MaxInspectHTMLChars || !el.HTMLTruncated {
		t.Errorf("outerHTML %d code points, truncated %v", n, el.HTMLTruncated)
	}
	deep := strings.Repeat("<div>", 15) + `<i id="leaf">x</i>`
	el = mustInspect(t, deep, "#leaf")
	if len(el.Ancestors) != MaxInspectAncestors || el.Ancestors[0] != "div" {
		t.Errorf("ancestors %v", el.Ancestors)
	}
	el = mustInspect(t, inspectPage, "nav")
	if got := strings.Join(el.Ancestors, " < "); got != "header#top.site.dark < body.page < html" {
		t.Errorf("ancestors %q", got)
	}
	el = mustInspect(t, inspectPage, "p")
	if el.TextTruncated || el.HTMLTruncated {
		t.Errorf("short element flagged as truncated: %+v", el)
	}
}

// TestInspectRoleAndName: explicit role, implicit roles, aria-labelledby, aria-label, alt,
// label text and content.
func TestInspectRoleAndName(t *testing.T) {
	for _, c := range []struct{ sel, role, name string }{
		{"h1", "heading", "Hello world"},
		{"nav a + a", "link", "About us"},
		{"img", "img", "A cat"},
		{"img + img", "presentation", ""},
		{"#email", "textbox", "Your email"},
		{"#agree", "checkbox", "Agree"},
		{"button", "button", "Close dialog"},
		{"[role]", "alert", "Hello world"},
		{"main", "main", ""},
		{"p", "paragraph", ""},
		{"section", "", ""},
	} {
		el := mustInspect(t, inspectPage, c.sel)
		if el.Role != c.role || el.Name != c.name {
			t.Errorf("%q: role %q name %q; want %q %q", c.sel, el.Role, el.Name, c.role, c.name)
		}
	}
}

// TestInspectErrors: no match, no entry, and unusable selectors are typed.
func TestInspectErrors(t *testing.T) {
	for _, sel := range []string{"table.missing", "a:hover", "#nothing"} {
		if _, _, err := Inspect(inspectFiles(inspectPage), sel); !errors.Is(err, ErrNoMatch) {
			t.Errorf("no match %q: %v", sel, err)
		}
	}
	if _, _, err := Inspect([]File{{Path: "a.css", Language: "css", Kind: "text"}}, "p"); !errors.Is(err, ErrNoEntry) {
		t.Errorf("no entry: %v", err)
	}
	for sel, reason := range map[string]string{
		"":                                "empty",
		"   ":                             "empty",
		"p[":                              "syntax",
		"div >":                           "syntax",
		"p::before":                       "pseudo-element",
		"p:unknown":                       "syntax",
		strings.Repeat("a", 1001):         "too-long",
		"h1 " + strings.Repeat("é", 1000): "too-long",
	} {
		_, _, err := Inspect(inspectFiles(inspectPage), sel)
		var se *SelectorError
		if !errors.As(err, &se) || se.Reason != reason {
			t.Errorf("%.20q: %v, want reason %s", sel, err, reason)
		}
	}
	// Exactly at the bound is accepted.
	if _, _, err := Inspect(inspectFiles(inspectPage), strings.Repeat("a", MaxSelectorChars)); !errors.Is(err, ErrNoMatch) {
		t.Errorf("selector at the bound: %v", err)
	}
}

// TestInspectEntry: the entry is picked as Compile picks it (index.html, else the first HTML
// file), and the markup is parsed as the browser does (implicit tbody, head, body).
func TestInspectEntry(t *testing.T) {
	files := []File{
		{Path: "b.html", Language: LangHTML, Kind: "text", Source: "<p>b</p>"},
		{Path: "index.html", Language: LangHTML, Kind: "text", Source: "<table><tr><td>cell</td></tr></table>"},
	}
	el, path, err := Inspect(files, "td")
	if err != nil || path != "index.html" || el.Selector != "html > body > table > tbody > tr > td" || el.Role != "cell" || el.Name != "cell" {
		t.Fatalf("%+v %q %v", el, path, err)
	}
	el, path, err = Inspect(files[:1], "p")
	if err != nil || path != "b.html" || el.Text != "b" {
		t.Fatalf("%+v %q %v", el, path, err)
	}
}

// FuzzInspect: any markup and selector either fail with a typed error or give an element whose
// selector matches it alone and whose output stays within the bounds.
func FuzzInspect(f *testing.F) {
	f.Add(inspectPage, "p")
	f.Add(`<div id="a"><div id="a"><b>x</b></div></div>`, "b")
	f.Add(`<svg><a><script>1</script></a></svg>`, "a")
	f.Add(`<p id="0">x`, ":nth-of-type(1)")
	f.Fuzz(func(t *testing.T, src, sel string) {
		el, _, err := Inspect(inspectFiles(src), sel)
		var se *SelectorError
		if err != nil {
			if !errors.As(err, &se) && !errors.Is(err, ErrNoMatch) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if utf8.RuneCountInString(el.Text) > MaxInspectTextChars || utf8.RuneCountInString(el.OuterHTML) > MaxInspectHTMLChars ||
			len(el.Ancestors) > MaxInspectAncestors || el.Matches < 1 {
			t.Fatalf("bounds: %+v", el)
		}
		if !utf8.ValidString(src) {
			return // the parser replaces invalid bytes; ids then differ from the source text
		}
		doc, _ := html.Parse(strings.NewReader(src))
		first := cascadia.Query(doc, cascadia.MustCompile(sel))
		u, err := cascadia.Compile(el.Selector)
		if err != nil {
			t.Fatalf("unique selector %q does not parse: %v", el.Selector, err)
		}
		if got := cascadia.QueryAll(doc, u); len(got) != 1 || got[0] != first {
			t.Fatalf("unique selector %q matches %d elements", el.Selector, len(got))
		}
	})
}
