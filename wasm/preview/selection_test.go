package preview

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func liveStyles() map[string]string {
	m := map[string]string{}
	for _, p := range ComputedStyleProps {
		m[p] = "x"
	}
	m["font-size"] = "32px"
	return m
}

func validLive() map[string]any {
	return map[string]any{
		"selector": "#hero-title", "tag": "h1", "html": `<h1 id="hero-title" onclick="x()">Hi <script>bad()</script>there</h1>`,
		"htmlTruncated": false, "ancestors": []string{"header.hero", "body", "html"}, "matches": 1,
		"styles": liveStyles(), "box": map[string]any{"x": 10.5, "y": -3, "width": 200, "height": 40},
	}
}

func marshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodeSelection(t *testing.T) {
	w, err := DecodeSelection(marshal(t, validLive()))
	if err != nil {
		t.Fatal(err)
	}
	if w.Selector != "#hero-title" || w.Tag != "h1" || w.Matches != 1 || w.Box.Width != 200 || w.Styles["font-size"] != "32px" || len(w.Styles) != len(ComputedStyleProps) {
		t.Fatalf("decoded %+v", w)
	}
	mut := func(f func(m map[string]any)) []byte {
		m := validLive()
		f(m)
		return marshal(t, m)
	}
	bad := map[string][]byte{
		"not an object":     []byte(`[1]`),
		"trailing data":     append(marshal(t, validLive()), []byte(` {}`)...),
		"duplicate":         []byte(strings.Replace(string(marshal(t, validLive())), `"tag":"h1"`, `"tag":"h1","tag":"p"`, 1)),
		"unknown member":    mut(func(m map[string]any) { m["call"] = "workspace.deleteFile" }),
		"missing member":    mut(func(m map[string]any) { delete(m, "box") }),
		"selector syntax":   mut(func(m map[string]any) { m["selector"] = "h1[" }),
		"selector empty":    mut(func(m map[string]any) { m["selector"] = "" }),
		"tag upper":         mut(func(m map[string]any) { m["tag"] = "H1" }),
		"tag number":        mut(func(m map[string]any) { m["tag"] = 1 }),
		"html too long":     mut(func(m map[string]any) { m["html"] = strings.Repeat("a", MaxLiveHTMLChars+1) }),
		"too many ancestor": mut(func(m map[string]any) { m["ancestors"] = make([]string, MaxInspectAncestors+1) }),
		"ancestors null":    mut(func(m map[string]any) { m["ancestors"] = nil }),
		"matches zero":      mut(func(m map[string]any) { m["matches"] = 0 }),
		"matches float":     mut(func(m map[string]any) { m["matches"] = 1.5 }),
		"style missing":     mut(func(m map[string]any) { s := liveStyles(); delete(s, "color"); m["styles"] = s }),
		"style extra":       mut(func(m map[string]any) { s := liveStyles(); s["cursor"] = "x"; m["styles"] = s }),
		"style long":        mut(func(m map[string]any) { s := liveStyles(); s["color"] = strings.Repeat("r", 201); m["styles"] = s }),
		"box negative":      mut(func(m map[string]any) { m["box"] = map[string]any{"x": 0, "y": 0, "width": -1, "height": 1} }),
		"box huge":          mut(func(m map[string]any) { m["box"] = map[string]any{"x": 1e8, "y": 0, "width": 1, "height": 1} }),
		"box string":        mut(func(m map[string]any) { m["box"] = map[string]any{"x": "1", "y": 0, "width": 1, "height": 1} }),
		"too large":         []byte(`{"selector":"` + strings.Repeat("a", MaxSelectionBytes) + `"}`),
		"invalid utf8":      []byte("{\"selector\":\"\xff\"}"),
	}
	for name, raw := range bad {
		_, err := DecodeSelection(raw)
		var se *SelectionError
		if !errors.As(err, &se) {
			t.Errorf("%s: got %v, want a *SelectionError", name, err)
		}
	}
}

func TestDescribeLiveSelection(t *testing.T) {
	files := []File{htmlFile("index.html", "<!doctype html>\n<body>\n<header class=hero>\n  <h1 id=\"hero-title\">Hi there</h1>\n</header>\n<table><tr><td>cell</td></tr></table>")}
	w, err := DecodeSelection(marshal(t, validLive()))
	if err != nil {
		t.Fatal(err)
	}
	s, path := Describe(files, "", w)
	if path != "index.html" || s.Tag != "h1" || s.Role != "heading" || s.Name != "Hi there" || s.Text != "Hi there" || s.Line != 4 {
		t.Fatalf("described %+v at %q", s, path)
	}
	if strings.Contains(s.OuterHTML, "script") || strings.Contains(s.OuterHTML, "onclick") {
		t.Fatalf("outerHTML not stripped: %s", s.OuterHTML)
	}
	// A cell parses in the context of its row; a selection the source does not have gets no line.
	m := validLive()
	m["selector"], m["tag"], m["html"], m["ancestors"] = "td", "td", "<td>changed by a script</td>", []string{"tr", "tbody", "table"}
	w, err = DecodeSelection(marshal(t, m))
	if err != nil {
		t.Fatal(err)
	}
	s, _ = Describe(files, "", w)
	if s.Role != "cell" || s.Text != "changed by a script" || s.Line != 0 {
		t.Fatalf("cell described %+v", s)
	}
}

func TestSourceLine(t *testing.T) {
	src := "<!doctype html>\n<p>one</p>\n<main>\n<p>two</p>\n<p id=x>three</p>\n</main>"
	for _, c := range []struct {
		sel, tag, id, text string
		want               int
	}{
		{"body > p", "p", "", "one", 2},
		{"main > p:nth-of-type(1)", "p", "", "two", 4},
		{"#x", "p", "x", "three", 5},
		{"#x", "p", "y", "three", 0},                 // another id: not the same element
		{"main > p:nth-of-type(1)", "p", "", "2", 0}, // the text changed: no line rather than a wrong one
		{"p", "p", "", "one", 0},                     // several matches
		{"main", "div", "", "", 0},                   // another tag
	} {
		if got := SourceLine(src, c.sel, c.tag, c.id, c.text); got != c.want {
			t.Errorf("SourceLine(%q) = %d, want %d", c.sel, got, c.want)
		}
	}
	// The parser adds an element the source does not spell: no line.
	if got := SourceLine("<table><tr><td>a</td></tr></table>", "tbody", "tbody", "", "a"); got != 0 {
		t.Errorf("implied tbody got line %d", got)
	}
}

// FuzzSelectionDecode: DecodeSelection never panics, and whatever it accepts is within every
// bound and describes without panicking.
func FuzzSelectionDecode(f *testing.F) {
	f.Add(string(marshal(f, validLive())))
	f.Add(`{"selector":"a","tag":"a","html":"<a href=x>y","htmlTruncated":true,"ancestors":[],"matches":1,"styles":{},"box":{"x":0,"y":0,"width":0,"height":0}}`)
	f.Add(`{"selector":"a","selector":"b"}`)
	f.Add(`{}`)
	f.Fuzz(func(t *testing.T, raw string) {
		w, err := DecodeSelection([]byte(raw))
		if err != nil {
			var se *SelectionError
			if !errors.As(err, &se) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if utf8.RuneCountInString(w.HTML) > MaxLiveHTMLChars || len(w.Ancestors) > MaxInspectAncestors || len(w.Styles) != len(ComputedStyleProps) ||
			w.Matches < 1 || w.Box.Width < 0 || w.Box.Height < 0 || !isTagName(w.Tag) {
			t.Fatalf("accepted out of bounds: %+v", w)
		}
		s, _ := Describe([]File{htmlFile("index.html", "<h1 id=a>t</h1>")}, "index.html", w)
		if utf8.RuneCountInString(s.OuterHTML) > MaxInspectHTMLChars || utf8.RuneCountInString(s.Text) > MaxInspectTextChars {
			t.Fatal("described out of bounds")
		}
	})
}
