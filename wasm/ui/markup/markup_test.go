package markup

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

func TestEscapes(t *testing.T) {
	var b Builder
	b.Open("div", A("title", `a"b<c>&d`), A("data-x", "'"), Flag("hidden", true), Flag("open", false), Int("data-n", -3))
	b.Text(`<script>alert("x")</script> & "q"`)
	b.Close("div")
	want := `<div title="a&#34;b&lt;c&gt;&amp;d" data-x="'" hidden data-n="-3">&lt;script&gt;alert("x")&lt;/script&gt; &amp; "q"</div>`
	if got := b.String(); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestNormalizes(t *testing.T) {
	var b Builder
	b.Elem("p", "a\x00b\xffc\r\nd")
	if got, want := b.String(), "<p>a\uFFFDb\uFFFDc&#13;\nd</p>"; got != want {
		t.Fatalf("got %q want %q", got, want)
	}
}

func TestSafeURL(t *testing.T) {
	for u, want := range map[string]string{
		"https://example.com/x": "https://example.com/x",
		"HTTP://a":              "HTTP://a",
		"mailto:a@b":            "mailto:a@b",
		"blob:http://x/1":       "blob:http://x/1",
		"./a:b":                 "./a:b",
		"a/b:c":                 "a/b:c",
		"#x":                    "#x",
		"?q=a:b":                "?q=a:b",
		"index.html":            "index.html",
		"javascript:alert(1)":   "about:invalid#blocked",
		"JavaScript:alert(1)":   "about:invalid#blocked",
		" javascript:x":         "about:invalid#blocked",
		"java\tscript:x":        "about:invalid#blocked",
		"\x01javascript:x":      "about:invalid#blocked",
		"data:text/html,x":      "about:invalid#blocked",
		"vbscript:x":            "about:invalid#blocked",
	} {
		if got := SafeURL(u); got != want {
			t.Errorf("SafeURL(%q) = %q, want %q", u, got, want)
		}
	}
	var b Builder
	b.Elem("a", "x", A("href", "javascript:alert(1)"))
	if !strings.Contains(b.String(), `href="about:invalid#blocked"`) {
		t.Fatalf("href not sanitised: %s", b.String())
	}
}

func TestRefusesUnsafeNames(t *testing.T) {
	for name, f := range map[string]func(b *Builder){
		"script tag":      func(b *Builder) { b.Open("script") },
		"style tag":       func(b *Builder) { b.Open("style") },
		"iframe tag":      func(b *Builder) { b.Open("iframe") },
		"upper tag":       func(b *Builder) { b.Open("DIV") },
		"tag with space":  func(b *Builder) { b.Open("div onclick") },
		"empty tag":       func(b *Builder) { b.Open("") },
		"onclick":         func(b *Builder) { b.Open("div", A("onclick", "x")) },
		"style attr":      func(b *Builder) { b.Open("div", A("style", "color:red")) },
		"srcdoc":          func(b *Builder) { b.Open("div", A("srcdoc", "x")) },
		"attr with quote": func(b *Builder) { b.Open("div", A(`a"b`, "x")) },
		"attr with =":     func(b *Builder) { b.Open("div", A("a=b", "x")) },
		"css var name":    func(b *Builder) { CSSVarInt("a:b", 1) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			var b Builder
			f(&b)
		})
	}
}

func TestCSSVarInt(t *testing.T) {
	var b Builder
	b.Open("div", CSSVarInt("level", 3))
	b.Close("div")
	if got, want := b.String(), `<div style="--level: 3"></div>`; got != want {
		t.Fatalf("got %s want %s", got, want)
	}
	// A style attribute that is exactly a CSS integer variable is accepted (what CSSVarInt makes).
	b.Reset()
	b.Open("div", A("style", "--level: -12"))
	if got := b.String(); got != `<div style="--level: -12">` {
		t.Fatalf("got %s", got)
	}
}

// parseFragment parses s as children of <body> with a spec HTML parser.
func parseFragment(t testing.TB, s string) []*html.Node {
	t.Helper()
	ctx := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(strings.NewReader(s), ctx)
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return nodes
}

// FuzzRoundTrip builds <div title=… data-v=… class=…><span>text</span><a href=…>text2</a>
// <textarea>text3</textarea></div> from fuzzed strings, parses the output with
// golang.org/x/net/html and checks that exactly those elements and attributes came back and
// that every text and attribute value reads back as Normalize of the input (href: SafeURL of it).
func FuzzRoundTrip(f *testing.F) {
	for _, s := range []string{"", "plain", `"><script>alert(1)</script>`, "</div><img src=x onerror=alert(1)>",
		"&amp;&lt;", "a\x00b", "\xff\xfe", "\r\n", "<!--", "]]>", "<textarea>", "</textarea><b>", "javascript:alert(1)",
		"'single'", "`tick`", "\u2028", "&#0;", "<svg><style><img src=x onerror=1>"} {
		f.Add(s, s, s)
	}
	f.Fuzz(func(t *testing.T, text, attr, url string) {
		var b Builder
		b.Open("div", A("title", attr), A("data-v", text), A("class", url))
		b.Elem("span", text, A("id", attr))
		b.Elem("a", attr, A("href", url))
		b.Elem("textarea", text)
		b.Close("div")
		out := b.String()
		nodes := parseFragment(t, out)
		if len(nodes) != 1 || nodes[0].Type != html.ElementNode || nodes[0].Data != "div" {
			t.Fatalf("want one <div>, got %d nodes from %q", len(nodes), out)
		}
		div := nodes[0]
		checkAttrs(t, out, div, map[string]string{"title": Normalize(attr), "data-v": Normalize(text), "class": Normalize(url)})
		var kids []*html.Node
		for c := div.FirstChild; c != nil; c = c.NextSibling {
			kids = append(kids, c)
		}
		if len(kids) != 3 || kids[0].Data != "span" || kids[1].Data != "a" || kids[2].Data != "textarea" {
			t.Fatalf("children of <div> are not span, a, textarea in %q", out)
		}
		checkAttrs(t, out, kids[0], map[string]string{"id": Normalize(attr)})
		checkAttrs(t, out, kids[1], map[string]string{"href": Normalize(SafeURL(url))})
		checkText(t, out, kids[0], Normalize(text))
		checkText(t, out, kids[1], Normalize(attr))
		checkText(t, out, kids[2], Normalize(text))
	})
}

func checkAttrs(t *testing.T, out string, n *html.Node, want map[string]string) {
	t.Helper()
	if len(n.Attr) != len(want) {
		t.Fatalf("<%s> has %d attributes, want %d, in %q", n.Data, len(n.Attr), len(want), out)
	}
	for _, a := range n.Attr {
		w, ok := want[a.Key]
		if !ok || a.Namespace != "" {
			t.Fatalf("<%s> has unexpected attribute %q in %q", n.Data, a.Key, out)
		}
		if a.Val != w {
			t.Fatalf("<%s %s> = %q, want %q, in %q", n.Data, a.Key, a.Val, w, out)
		}
	}
}

// checkText requires n to hold exactly one text node equal to want (or no node when want is
// empty). A <textarea>'s text starting with a newline must survive the tree builder's
// dropping of the first newline (the Builder writes one for it).
func checkText(t *testing.T, out string, n *html.Node, want string) {
	t.Helper()
	got := ""
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.TextNode {
			t.Fatalf("<%s> has a non-text child <%s> in %q", n.Data, c.Data, out)
		}
		got += c.Data
	}
	if got != want {
		t.Fatalf("<%s> text = %q, want %q, in %q", n.Data, got, want, out)
	}
}
