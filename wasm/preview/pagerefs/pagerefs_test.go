package pagerefs

import (
	"slices"
	"testing"
)

// Srcset splits candidates the HTML way: a URL runs to whitespace (inner commas kept,
// trailing commas end it), descriptors (with
// parentheses) are skipped, empty candidates are dropped.
func TestSrcset(t *testing.T) {
	v := " a.png 1x,b.png, c,d.png 2x (x, y), ,e.png"
	var got []string
	for _, s := range Srcset(v) {
		got = append(got, v[s.Start:s.End])
	}
	if want := []string{"a.png", "b.png", "c,d.png", "e.png"}; !slices.Equal(got, want) {
		t.Fatalf("got %q want %q", got, want)
	}
}

// Scan lists a page's references in source order and ignores look-alikes in comments, in
// textarea text, in classic script strings and in attributes that hold no URL.
func TestScan(t *testing.T) {
	src := `<!-- <img src="no1.png"> --><link rel=stylesheet href="s.css"><style>@import "i.css"; p{background:url(bg.png)}</style>` +
		`<body style="background:url('attr.png')" background="legacy.png"><img alt="x.png" src="a&amp;b.png" src="dup.png" srcset="s1.png 1x, s2.png 2x">` +
		`<video poster="p.png"></video><textarea><img src="no2.png"></textarea><svg><use href="i.svg#a"/></svg>` +
		`<script>const s = "<img src='no3.png'>";</script><script type="module">import "./m.js"; import("./d.js")</script><a href="page.html">`
	want := []string{"s.css", "i.css", "bg.png", "attr.png", "legacy.png", "a&b.png", "s1.png", "s2.png", "p.png", "i.svg#a", "./m.js", "./d.js", "page.html"}
	if got := Scan(src); !slices.Equal(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}
