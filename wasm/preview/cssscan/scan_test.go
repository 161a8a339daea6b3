package cssscan

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type ref struct {
	Kind         Kind
	Text         string
	Value, Media string
}

func scanRefs(src string) []ref {
	var out []ref
	for _, r := range Scan(src).Refs {
		out = append(out, ref{r.Kind, src[r.Start:r.End], r.Value, r.Media})
	}
	return out
}

func TestScan(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want []ref
	}{
		{"quoted import", `@import "a.css";`, []ref{{Import, `@import "a.css";`, "a.css", ""}}},
		{"single quoted with media", `@import 'a.css' screen and (min-width: 1px);`, []ref{{Import, `@import 'a.css' screen and (min-width: 1px);`, "a.css", "screen and (min-width: 1px)"}}},
		{"url import", `@import url(b.css) print;`, []ref{{Import, `@import url(b.css) print;`, "b.css", "print"}}},
		{"url quoted import", `@IMPORT url( "c d.css" );`, []ref{{Import, `@IMPORT url( "c d.css" );`, "c d.css", ""}}},
		{"import without semicolon", `@import "e.css"`, []ref{{Import, `@import "e.css"`, "e.css", ""}}},
		{"import stops at block", `@import "f.css" x{}`, []ref{{Import, `@import "f.css" x`, "f.css", "x"}}},
		{"not an import", `@imports "g.css"; @import foo;`, nil},
		{"import in comment", `/* @import "h.css"; */`, nil},
		{"import in string", `a{content:"@import 'i.css';"}`, nil},
		{"url", `a{background:url(img/x.png) no-repeat}`, []ref{{URL, `url(img/x.png)`, "img/x.png", ""}}},
		{"url quoted", `a{b:url('y z.png')}`, []ref{{URL, `url('y z.png')`, "y z.png", ""}}},
		{"url escapes", `a{b:url(a\(b\).png)}`, []ref{{URL, `url(a\(b\).png)`, "a(b).png", ""}}},
		{"url hex escape", `a{b:url("\41 .png")}`, []ref{{URL, `url("\41 .png")`, "A.png", ""}}},
		{"not url", `a{b:myurl(x)} c{d:url(bad"q)}`, nil},
		{"url in comment", `/* url(x.png) */`, nil},
		{"font face", `@font-face{src:url(f.woff2) format("woff2"),url("g.woff")}`, []ref{{URL, "url(f.woff2)", "f.woff2", ""}, {URL, `url("g.woff")`, "g.woff", ""}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.want, scanRefs(c.src)); diff != "" {
				t.Errorf("Scan(%q) (-want +got):\n%s", c.src, diff)
			}
		})
	}
}

func TestScanTail(t *testing.T) {
	cases := map[string]string{
		"a{}":              "",
		"a{b{":             "}}",
		"a{ /* open":       "*/}",
		"a{content:'{'}":   "",
		"}}} a{":           "}",
		"/* { */ a{b:c}\n": "",
	}
	for src, want := range cases {
		if got := Scan(src).Tail; got != want {
			t.Errorf("Scan(%q).Tail = %q, want %q", src, got, want)
		}
	}
}

func TestScanDeepNesting(t *testing.T) {
	src := strings.Repeat("a{", 10_000) + "b{background:url(x.png)}"
	res := Scan(src)
	if len(res.Refs) != 1 || res.Refs[0].Value != "x.png" {
		t.Fatalf("refs = %+v", res.Refs)
	}
	if res.Tail != strings.Repeat("}", 10_000) {
		t.Fatalf("tail has %d bytes", len(res.Tail))
	}
}

func TestUnescape(t *testing.T) {
	cases := map[string]string{
		`plain`:        "plain",
		`\41\42`:       "AB",
		`\000041x`:     "Ax",
		`\0`:           "\uFFFD",
		`\D800`:        "\uFFFD",
		"a\\\nb":       "ab",
		`\"`:           `"`,
		`end\`:         "end",
		`\1F600 smile`: "\U0001F600smile",
	}
	for in, want := range cases {
		if got := Unescape(in); got != want {
			t.Errorf("Unescape(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestImageSetStrings: the strings of image-set() and -webkit-image-set() are image URLs (a
// string stands for url() there, design.md §5.26); an unclosed image-set() ends with its
// declaration, so later strings are not taken for URLs.
func TestImageSetStrings(t *testing.T) {
	src := `a{background:image-set("a.png" 1x, url(b.png) 2x, 'c d.png' type("image/png"))} b{x:-WEBKIT-image-set("e.png" 1x} c{content:"not a url"}`
	var got []string
	for _, r := range Scan(src).Refs {
		got = append(got, r.Value)
	}
	if strings.Join(got, "|") != "a.png|b.png|c d.png|e.png" {
		t.Errorf("refs %q", got)
	}
}
