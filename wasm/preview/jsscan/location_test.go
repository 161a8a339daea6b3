package jsscan

import (
	"strings"
	"testing"
)

// rw marks each span FindLocationRefs finds as «…» (the expectation's notation).
func rw(src string) string { return marked(src, FindLocationRefs(src)) }

// rwTop marks each span FindTopRefs finds as «…».
func rwTop(src string) string { return marked(src, FindTopRefs(src)) }

func marked(src string, spans [][2]int) string {
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(src[last:sp[0]])
		b.WriteString("«" + src[sp[0]:sp[1]] + "»")
		last = sp[1]
	}
	b.WriteString(src[last:])
	return b.String()
}

func TestFindLocationRefs(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`location.href = "about.html"`, `«location».href = "about.html"`},
		{`window.location = "thanks.html?x=1"`, `«window.location» = "thanks.html?x=1"`},
		{`location.assign("a.html"); location.replace('b.html'); location.reload()`, `«location».assign("a.html"); «location».replace('b.html'); «location».reload()`},
		{`document.location.href = u; self.location = u; globalThis.location.hash = "x"`, `«document.location».href = u; «self.location» = u; «globalThis.location».hash = "x"`},
		{`window?.location?.href; location?.search`, `«window?.location»?.href; «location»?.search`},
		{`if (typeof location !== "undefined") x = location.search`, `if (typeof «location» !== "undefined") x = «location».search`},
		{`a ? location : b; switch (x) { case location: }`, `a ? «location» : b; switch (x) { case «location»: }`},
		{"x = `${location.pathname} location ${ {a: location.hash}.a }`", "x = `${«location».pathname} location ${ {a: «location».hash}.a }`"},
		// A member named location on any other object: the member name alone (the runtime answers
		// it by the object: minified wrappers' `w.location`, `root.location`).
		{`obj.location = 1; obj?.location; a.window.location; f(location)`, `obj.«location» = 1; obj?.«location»; a.window.«location»; f(«location»)`},
		{`(function (w) { w.location.href = "b.html" })(window); this.location; x.y.location.hash`, `(function (w) { w.«location».href = "b.html" })(window); this.«location»; x.y.«location».hash`},
		// Another browsing context's location stays (it may be cross-origin).
		{`f.contentWindow.location.href = u; parent.location; window.top.location; opener.location`, `f.contentWindow.location.href = u; parent.location; window.top.location; opener.location`},
		{`x = {location: 1, y: location}; o = {location() {}, get location() { return 1 }}`, `x = {location: 1, y: «location»}; o = {location() {}, get location() { return 1 }}`},
		{`class A { location = 1; location() {} static location; u = location.href }`, `class A { location = 1; location() {} static location; u = «location».href }`},
		{`"location.href = 1"; 'window.location'; // location.href = 2
/* location */ x = /location/g.test(s) + location.hash`, `"location.href = 1"; 'window.location'; // location.href = 2
/* location */ x = /location/g.test(s) + «location».hash`},
		{`window /* c */ .location = u; window
.location = v; window . location = w`, `window /* c */ .«location» = u; window
.«location» = v; «window . location» = w`},
		{`if (a) { location = "a.html" } else location.href = "b.html"`, `if (a) { «location» = "a.html" } else «location».href = "b.html"`},
		{`location: for (;;) { break location; continue location }`, `location: for (;;) { break location; continue location }`},
		{`m[location.hash] = 1; a[location.pathname] == 2`, `m[«location».hash] = 1; a[«location».pathname] == 2`},
		{`onclick = () => { location.href = "p2.html" }`, `onclick = () => { «location».href = "p2.html" }`},
		// A script that declares location keeps every bare use, member expressions still go.
		{`var location = 1; location.href = 2; window.location = 3`, `var location = 1; location.href = 2; «window.location» = 3`},
		{`location.href = 2; function f(a, location) {}`, `location.href = 2; function f(a, location) {}`},
		{`location.href = 2; const { location } = window`, `location.href = 2; const { location } = window`},
		{`location.href = 2; let a = 1, location = 3`, `location.href = 2; let a = 1, location = 3`},
		{`location.href = 2; try {} catch (location) {}`, `location.href = 2; try {} catch (location) {}`},
		{`location.href = 2; xs.map(location => location.x)`, `location.href = 2; xs.map(location => location.x)`},
		{`location.href = 2; xs.map((a, location) => 1)`, `location.href = 2; xs.map((a, location) => 1)`},
		{`location.href = 2; import location from "./l.js"`, `location.href = 2; import location from "./l.js"`},
		{`location.href = 2; import { a as location } from "./l.js"`, `location.href = 2; import { a as location } from "./l.js"`},
		{`location.href = 2; function location() {}`, `location.href = 2; function location() {}`},
		{`location.href = 2; class location {}`, `location.href = 2; class location {}`},
		{`location.href = 2; const [a, location] = xs`, `location.href = 2; const [a, location] = xs`},
		{`location.href = 2; send({location})`, `location.href = 2; send({location})`},
		{`location.href = 2; [a, location] = xs`, `location.href = 2; [a, location] = xs`},
		{`location.href = 2; o = { m(location) { return location } }`, `location.href = 2; o = { m(location) { return location } }`},
		// Declaring the object name keeps its member expressions.
		{`var self = this; self.location = 1; location.href = "a"`, `var self = this; self.«location» = 1; «location».href = "a"`},
		{`(function (window, document) { window.location = u; document.location = v })(window, document)`, `(function (window, document) { window.«location» = u; document.«location» = v })(window, document)`},
		{`x = 1 / location.href.length / 2`, `x = 1 / «location».href.length / 2`},
		{`no match here`, `no match here`},
		{`class B { #window = {}; f() { return this.#window.location } }`, `class B { #window = {}; f() { return this.#window.«location» } }`},
		{`class A { #location = 1; get l() { return this.#location + location.hash } }`, `class A { #location = 1; get l() { return this.#location + «location».hash } }`},
	} {
		if got := rw(tc.src); got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

// TestFindHandlerLocationRefs: in an event-handler attribute a bare `location` may be a form
// control, so only Location uses count.
func TestFindHandlerLocationRefs(t *testing.T) {
	for src, want := range map[string]int{
		`location.href='a.html'`: 1, `location . assign('a')`: 1, `location?.reload()`: 1, `location = "a.html"`: 1,
		`alert(location.value)`: 0, `location.focus()`: 0, `f(location)`: 0, `location == x`: 0,
		`window.location = "a"; document.location.reload()`: 2, `location.href = location.value`: 1,
	} {
		if got := len(FindHandlerLocationRefs(src)); got != want {
			t.Errorf("%s: %d refs, want %d", src, got, want)
		}
	}
	if got, _ := RewriteHandlerLocation(`if (location.value) location.href = 'p.html'`, "L"); got != `if (location.value) L.href = 'p.html'` {
		t.Errorf("got %q", got)
	}
}

func TestRewriteLocation(t *testing.T) {
	got, ok := RewriteLocation(`window.location.href = "a.html"; location.reload()`, "__L")
	if !ok || got != `__L.href = "a.html"; __L.reload()` {
		t.Fatalf("got %q %v", got, ok)
	}
	if got, ok := RewriteLocation(`var location; location.x`, "__L"); ok || got != `var location; location.x` {
		t.Fatalf("got %q %v", got, ok)
	}
}

// locationCorpus is n repetitions of a chunk of script with several Location references,
// a declared local, nested brackets and a template.
func locationCorpus(n int) string {
	return strings.Repeat("function f"+"(a, b) { if (a) { location.href = `p${b}.html`; } return window.location.search + {k: [a, (b)]}.k; }\n", n)
}

// TestFindLocationRefsLinear: 100,000 nested brackets and templates and a megabyte of script
// are scanned without recursion (a quadratic scan would take minutes here, as in
// TestEscapeLargeRegexLinear; the time is BenchmarkRewriteLocation's).
func TestFindLocationRefsLinear(t *testing.T) {
	deep := strings.Repeat("(`${[{", 100000) + "location.href" + strings.Repeat("}]}`)", 100000)
	if got := len(FindLocationRefs(deep)); got != 1 {
		t.Fatalf("deep nesting: %d refs, want 1", got)
	}
	if got := len(FindLocationRefs(locationCorpus(20000))); got != 40000 {
		t.Fatalf("%d refs, want 40000", got)
	}
}

func BenchmarkRewriteLocation(b *testing.B) {
	src := locationCorpus(10000) // ~1 MB
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		RewriteLocation(src, "__webcodingLocation")
	}
}

func TestFindTopRefs(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		// React's DevTools hint and frame-busting, the two ways real pages ask.
		{`if (ExecutionEnvironment.canUseDOM && window.top === window.self) {`, `if (ExecutionEnvironment.canUseDOM && «window.top» === window.self) {`},
		{`if (top != self) top.location = self.location;`, `if («top» != self) «top».location = self.location;`},
		{`self.top; globalThis?.top; window .top`, `«self.top»; «globalThis?.top»; «window .top»`},
		// Every other member named top is a coordinate or a record's field.
		{`el.style.top = "5px"; r = rect.top; $(e).offset().top; a.window.top; this.top`, `el.style.top = "5px"; r = rect.top; $(e).offset().top; a.window.top; this.top`},
		{`x = {top: 1, left: 2}; css({ top: y })`, `x = {top: 1, left: 2}; css({ top: y })`},
		{`class B { top = 0; top() {} }`, `class B { top = 0; top() {} }`},
		{`"window.top"; /top/.test(s); // top
x = top`, `"window.top"; /top/.test(s); // top
x = «top»`},
	} {
		if got := rwTop(tc.src); got != tc.want {
			t.Errorf("%s\n got  %s\n want %s", tc.src, got, tc.want)
		}
	}
	// Where the script may declare window or self, only the member name (the runtime answers
	// it by the object: `var self = this; self.top` is a record's field).
	for src, want := range map[string]string{
		`(function (window) { window.top.x() })(window)`: `(function (window) { window.«top».x() })(window)`,
		`var self = this; self.top = 4; f(self.top)`:     `var self = this; self.«top» = 4; f(self.«top»)`,
	} {
		if got := rwTop(src); got != want {
			t.Errorf("%s\n got  %s\n want %s", src, got, want)
		}
	}
	// A script that may declare top keeps every bare top.
	for _, src := range []string{
		`var top = el.offsetTop; if (top > 0) f(top)`,
		`const { top, left } = r.getBoundingClientRect(); g(top)`,
		`function f(top) { return top + 1 }`,
		`x = { top }`,
	} {
		if got := FindTopRefs(src); len(got) != 0 {
			t.Errorf("%s: want no span, got %v", src, got)
		}
	}
}

func TestRewritePage(t *testing.T) {
	for src, want := range map[string]string{
		`if (top != self) top.location = self.location;`:        `if (T != self) T.L = L;`,
		`window.top.location.href; parent.location; w.location`: `T.L.href; parent.location; w.L`,
		`var top = 1; top.location; location.hash`:              `var top = 1; top.L; L.hash`,
		`el.style.top = y; no refs here`:                        `el.style.top = y; no refs here`,
	} {
		got, changed := RewritePage(src, "L", "T")
		if got != want || changed != (src != want) {
			t.Errorf("%s\n got  %s (%v)\n want %s", src, got, changed, want)
		}
	}
}

func TestMayNameTop(t *testing.T) {
	for src, want := range map[string]bool{
		`el.style.top = 1; stop(); scrollTop; $(e).offset().top; topper; a_top`: false,
		`window.top`: true, `x = top`: true, `self .top`: true, `window?.top`: true, `globalThis.top`: true,
		`top`: true, `a.b.top`: false, `{ top: 1 }`: true,
	} {
		if got := mayNameTop(src); got != want {
			t.Errorf("mayNameTop(%q) = %v, want %v", src, got, want)
		}
	}
}
