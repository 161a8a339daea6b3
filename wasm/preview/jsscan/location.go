package jsscan

import "strings"

// Names whose declaration by a script turns off the rewrite of what they name.
const (
	nameLocation = 1 << iota
	nameWindow
	nameSelf
	nameGlobalThis
	nameDocument
	nameMember // a member name on any other object: never cancelled
	nameTop    // only when the scan also looks for `top` (FindTopRefs, RewritePage)
)

// locName returns the bit of a name the scan tracks (0 for any other name); `top` counts only
// when withTop.
func locName(s string, withTop bool) int {
	switch s {
	case "location":
		return nameLocation
	case "top":
		if withTop {
			return nameTop
		}
	case "window":
		return nameWindow
	case "self":
		return nameSelf
	case "globalThis":
		return nameGlobalThis
	case "document":
		return nameDocument
	}
	return 0
}

// Kinds of bracket group the location scan tracks.
const (
	grpBlock     = iota // `{` of a block, a function body, or the whole script
	grpObject           // `{` of an object literal or pattern (anything not known to be a block)
	grpClass            // `{` of a class body
	grpParen            // `(`
	grpParenCtrl        // `(` after if/while/for/switch/with
	grpBracket          // `[`
	grpSubst            // `${` of a template literal
)

type locGroup struct {
	kind      uint8
	names     int  // names (bits) met as identifiers inside the group, nested groups included
	pattern   bool // inside a declaration's destructuring pattern (`const {…} =`, `let […]`)
	access    bool // a `[` of a member access (`a[k]`), never a pattern
	varActive bool // a var/let/const declaration list is open at this level
}

type locSpan struct {
	start, end int
	needs      int  // the name whose declaration cancels this span
	top        bool // a reference to the top-level window, not to the Location
}

// FindLocationRefs returns the spans [start, end) of src that refer to the page's Location
// object, in source order, disjoint:
//
//   - a bare `location` identifier used as a value: not a property name (after `.` or `?.`),
//     not an object-literal key, method or class member name (`#location` included), not a
//     label, not a binding;
//   - the member expressions `window.location`, `self.location`, `globalThis.location` and
//     `document.location` (`?.` too), the whole expression, when only spaces and tabs separate
//     its parts (a comment or line break between them leaves it alone) and the object is not
//     itself a property (`a.window.location`, `this.#window.location`).
//
// Only tokens the lexer attributes to code count (strings, comments, regular expressions and
// template text never match; `${…}` substitutions do). Scope is judged conservatively for the
// whole script: when it may declare `location` anywhere (var/let/const/function/class/import,
// a parameter, a catch binding, a destructuring pattern or object shorthand, an arrow
// parameter), no bare `location` is returned; when it may declare `window`, `self`,
// `globalThis` or `document`, a member expression on that name is returned as its member name
// alone (`window.location` → the span of `location`), so the rewrite gives `window.<name>`
// and the runtime decides by the object. Every other member named `location` (after `.` or
// `?.`: `w.location` of a minified wrapper's parameter, `root.location`, `this.location`,
// `obj.location`) is returned as its member name alone too: libraries reach the page's
// location through their own names for the window (AngularJS, jQuery, UMD bundles, minified
// or not), and the runtime answers the name for every object (the virtual Location for the
// page's window and document, the object's own `location` otherwise). A span never contains
// a comment or a line terminator, so replacing each
// span with one identifier keeps every other token, and the lexer's regex and HTML-comment
// decisions, unchanged.
//
// Time and memory are linear in len(src) (memory: one small record per open bracket). The
// rule's source: HTML's Window and Document `location` attributes (WHATWG HTML §7.2.2) and
// ECMAScript's identifier resolution; the conservative parts are this package's own.
func FindLocationRefs(src string) [][2]int {
	var out [][2]int
	for _, sp := range findNameSpans(src, false) {
		out = append(out, [2]int{sp.start, sp.end})
	}
	return out
}

// FindTopRefs returns the spans of src that refer to the page's top-level window, as
// FindLocationRefs does for its Location, with three differences: the name is `top`; the
// member expressions are `window.top`, `self.top` and `globalThis.top` only (no document);
// and no other member named `top` is returned (`style.top`, `rect.top`, `offset().top` are
// everywhere). A span is a bare `top` used as a value where the script never declares `top`,
// a whole member expression, or — where the script may declare `window`, `self` or
// `globalThis` (`var self = this`, a wrapper's parameter) — the member name alone, which the
// runtime answers by the object (the page's top-level window for the page's window, the
// object's own `top` otherwise). Time and memory are linear in len(src). The rule's source: HTML's
// Window `top` attribute (WHATWG HTML §7.2.2.1); why: docs/design.md §5.47.
func FindTopRefs(src string) [][2]int {
	var out [][2]int
	for _, sp := range findNameSpans(src, true) {
		if sp.top {
			out = append(out, [2]int{sp.start, sp.end})
		}
	}
	return out
}

// RewritePage returns src with the spans of FindTopRefs replaced by top (an identifier naming
// the preview's stand-in for the top-level window) and those of FindLocationRefs by location
// (the virtual Location's), found in one scan, and whether anything was replaced. The one
// difference from running both rewrites: a `location` member of a `top` reference
// (`top.location`, `window.top.location`) is the Location's member name, so it reads the
// virtual Location through the stand-in. Time and memory are linear in len(src); src is
// returned as is when nothing is replaced.
func RewritePage(src, location, top string) (string, bool) {
	spans := findNameSpans(src, true)
	if len(spans) == 0 {
		return src, false
	}
	var b strings.Builder
	b.Grow(len(src) + len(spans)*len(location))
	last := 0
	for _, sp := range spans {
		b.WriteString(src[last:sp.start])
		if sp.top {
			b.WriteString(top)
		} else {
			b.WriteString(location)
		}
		last = sp.end
	}
	b.WriteString(src[last:])
	return b.String(), true
}

// mayNameTop reports whether src has a word `top` that is not a member of another object: not
// after a `.` unless that follows the word window, self or globalThis. It is a filter (a match
// in a string or comment counts), so most scripts — which say `stop`, `scrollTop` and
// `style.top` — skip the scan for top. Linear in len(src).
func mayNameTop(src string) bool {
	for i := 0; ; {
		k := strings.Index(src[i:], "top")
		if k < 0 {
			return false
		}
		k += i
		i = k + 3
		if k > 0 && isIdentPart(src[k-1]) || i < len(src) && isIdentPart(src[i]) {
			continue
		}
		j := k
		for j > 0 && (src[j-1] == ' ' || src[j-1] == '\t') {
			j--
		}
		if j == 0 || src[j-1] != '.' {
			return true
		}
		j-- // the dot; an optional chain's `?` before it
		if j > 0 && src[j-1] == '?' {
			j--
		}
		for j > 0 && (src[j-1] == ' ' || src[j-1] == '\t') {
			j--
		}
		e := j
		for j > 0 && isIdentPart(src[j-1]) {
			j--
		}
		if w := src[j:e]; w == "window" || w == "self" || w == "globalThis" {
			return true
		}
	}
}

// findNameSpans is FindLocationRefs, with FindTopRefs' spans as well when withTop, with each span's kind: needs is nameLocation for a
// bare `location`, another name bit for a member expression on that name (whole, or its
// member name alone when the name may be declared), nameMember for a member name on any
// other object.
func findNameSpans(src string, withTop bool) []locSpan {
	withTop = withTop && mayNameTop(src)
	if !withTop && !strings.Contains(src, "location") {
		return nil
	}
	var spans []locSpan
	declared := 0
	stack := []locGroup{{kind: grpBlock}}
	classDepth := -1 // stack depth at which a `class` keyword waits for its body's `{`
	lx := NewLexer(src)
	// A window of significant tokens: p2 p1 cur next (p2 and p1 before cur).
	var p3, p2, p1, cur, next Token
	text := func(t Token) string { return src[t.Start:t.End] }
	isP := func(t Token, s string) bool { return t.Kind == Punct && text(t) == s }
	isW := func(t Token, s string) bool { return t.Kind == Ident && text(t) == s }
	isDot := func(t Token) bool { return isP(t, ".") || isP(t, "?.") }
	// single reports whether t is an assignment `=` (not `==`, `===`).
	single := func(t Token) bool {
		return isP(t, "=") && !(t.End < len(src) && src[t.End] == '=')
	}
	spaces := func(a, b int) bool {
		for i := a; i < b; i++ {
			if src[i] != ' ' && src[i] != '\t' {
				return false
			}
		}
		return true
	}
	// read returns the next significant token and whether it opened a `${` substitution.
	read := func() (Token, bool) {
		for {
			n := len(lx.subst)
			t, ok := lx.Next()
			if !ok {
				return Token{}, false
			}
			if t.Kind != Comment {
				return t, len(lx.subst) > n
			}
		}
	}
	var curOpens, nextOpens bool
	next, nextOpens = read()
	for next.Kind != 0 {
		p3, p2, p1, cur, curOpens = p2, p1, cur, next, nextOpens
		next, nextOpens = read()
		top := &stack[len(stack)-1]
		s := text(cur)
		switch cur.Kind {
		case Ident:
			if isDot(p1) {
				obj := 0
				if p2.Kind == Ident && !isDot(p3) && !isP(p3, "#") && spaces(p2.End, p1.Start) && spaces(p1.End, cur.Start) {
					obj = locName(text(p2), withTop) & (nameWindow | nameSelf | nameGlobalThis | nameDocument)
				}
				if s == "top" && withTop {
					if obj &^= nameDocument; obj != 0 {
						spans = append(spans, locSpan{p2.Start, cur.End, obj, true})
					}
				} else if s == "location" && obj != 0 {
					spans = append(spans, locSpan{p2.Start, cur.End, obj, false})
				} else if s == "location" && !(p2.Kind == Ident && otherWindows[text(p2)] && !(withTop && text(p2) == "top")) {
					// Any other member `location` (`w.location` of a minified wrapper's parameter,
					// `root.location`, `this.location`, `obj.location`): the member name alone.
					spans = append(spans, locSpan{cur.Start, cur.End, nameMember, false})
				}
				break
			}
			switch s {
			case "class":
				if !isP(next, ":") {
					classDepth = len(stack)
				}
			case "var", "let", "const":
				top.varActive = true
			}
			n := locName(s, withTop)
			if n == 0 {
				break
			}
			top.names |= n
			if top.kind == grpClass && !isP(p1, "=") {
				break // a member name (or, conservatively, an expression in an initializer)
			}
			switch {
			case top.pattern,
				isW(p1, "var"), isW(p1, "let"), isW(p1, "const"), isW(p1, "function"), isW(p1, "class"),
				isW(p1, "import"), isW(p1, "as"), isP(p1, "..."),
				isP(p1, "*") && isP(next, "("),
				isP(next, "=>"), isW(next, "as"),
				top.varActive && isP(p1, ","),
				top.kind == grpObject && (isP(p1, "{") || isP(p1, ",")) && (isP(next, "}") || isP(next, ",") || single(next)):
				declared |= n
			case n != nameLocation && n != nameTop:
			case isP(next, ":") && !isP(p1, "?") && !isW(p1, "case"),
				isP(next, "("), isW(p1, "break"), isW(p1, "continue"), isP(p1, "#"),
				isW(p1, "get"), isW(p1, "set"), isW(p1, "static"), isW(p1, "async"):
				// a key, label, method name or call: not the Location value
			default:
				spans = append(spans, locSpan{cur.Start, cur.End, n, n == nameTop})
			}
		case Punct:
			switch s {
			case ";":
				top.varActive = false
			case "(", "[", "{":
				g := locGroup{kind: grpBracket, access: valueEnd(src, p1)}
				switch s {
				case "(":
					g.kind = grpParen
					if isW(p1, "if") || isW(p1, "while") || isW(p1, "for") || isW(p1, "switch") || isW(p1, "with") {
						g.kind = grpParenCtrl
					}
				case "{":
					g.kind = grpObject
					switch {
					case classDepth == len(stack):
						g.kind, classDepth = grpClass, -1
					case p1.Kind == 0, isP(p1, ")"), isP(p1, ";"), isP(p1, "{"), isP(p1, "}"), isP(p1, "=>"),
						isW(p1, "else"), isW(p1, "do"), isW(p1, "try"), isW(p1, "finally"), isW(p1, "static"):
						g.kind = grpBlock
					}
				}
				if s != "(" {
					g.pattern = top.pattern || top.varActive && (isW(p1, "var") || isW(p1, "let") || isW(p1, "const") || isP(p1, ","))
				} else {
					g.pattern = top.pattern
				}
				stack = append(stack, g)
			case ")", "]", "}":
				if len(stack) == 1 {
					break
				}
				g := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				stack[len(stack)-1].names |= g.names
				if classDepth > len(stack) {
					classDepth = -1
				}
				switch {
				case g.kind == grpParen && (isP(next, "=>") || isP(next, "{")):
					declared |= g.names // a parameter list (or a catch binding)
				case (s == "]" && !g.access || s == "}") && single(next):
					declared |= g.names // a destructuring assignment's pattern
				}
			}
		case Template:
			if src[cur.Start] == '}' && len(stack) > 1 && stack[len(stack)-1].kind == grpSubst {
				g := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				stack[len(stack)-1].names |= g.names
			}
			if curOpens {
				stack = append(stack, locGroup{kind: grpSubst, pattern: stack[len(stack)-1].pattern})
			}
		}
	}
	var out []locSpan
	for _, sp := range spans {
		switch {
		case declared&sp.needs == 0:
			out = append(out, sp)
		case sp.needs != nameLocation && sp.needs != nameTop:
			// `window.location` where the script may declare `window` (a UMD or IIFE parameter,
			// `(function (window) { … })(window)`): only the member name, so it becomes
			// `window.<name>`, which the preview's runtime answers for any object: the stand-in
			// for the page's window and document, the object's own `location` otherwise.
			name := len("location")
			if sp.top {
				name = len("top")
			}
			out = append(out, locSpan{sp.end - name, sp.end, nameMember, sp.top})
		}
	}
	return out
}

// otherWindows are names whose `location` member is another browsing context's (a frame's
// `contentWindow.location`, `parent`, `top`, `opener`): kept as written, since such a window
// may be cross-origin, where only `location` itself may be read (WHATWG HTML §7.2.3.1,
// CrossOriginProperties) and the rewritten name would throw a SecurityError.
var otherWindows = map[string]bool{"contentWindow": true, "parent": true, "top": true, "opener": true, "frames": true}

// locationMembers are the members of Location (WHATWG HTML §7.2.4).
var locationMembers = map[string]bool{
	"href": true, "origin": true, "protocol": true, "host": true, "hostname": true, "port": true,
	"pathname": true, "search": true, "hash": true, "assign": true, "replace": true, "reload": true,
	"toString": true, "ancestorOrigins": true, "valueOf": true,
}

// FindHandlerLocationRefs is FindLocationRefs for the body of an inline event-handler attribute
// (`onclick="…"`), whose scope chain puts the element's form before the document: there a bare
// `location` may name a form control (`<input name="location">`). So a bare `location` counts
// only where it is used as a Location: followed by `.`/`?.` and a member of Location (`href`,
// `assign`, `reload`, …), or assigned (`location = …`). Member expressions are as in
// FindLocationRefs. Time and memory are linear in len(src).
func FindHandlerLocationRefs(src string) [][2]int {
	var out [][2]int
	for _, sp := range findNameSpans(src, false) {
		if sp.needs != nameLocation || usedAsLocation(src, sp.end) {
			out = append(out, [2]int{sp.start, sp.end})
		}
	}
	return out
}

// usedAsLocation reports whether the code at i (just after a bare `location`) reads a member
// of Location or assigns to it (whitespace allowed before each part; not `==`, `=>`).
func usedAsLocation(src string, i int) bool {
	skip := func() {
		for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
			i++
		}
	}
	skip()
	switch {
	case hasPrefixAt(src, i, "?."):
		i += 2
	case hasPrefixAt(src, i, "."):
		i++
	case hasPrefixAt(src, i, "="):
		return !hasPrefixAt(src, i, "==") && !hasPrefixAt(src, i, "=>")
	default:
		return false
	}
	skip()
	e := i
	for e < len(src) && isIdentPart(src[e]) {
		e++
	}
	return locationMembers[src[i:e]]
}

// RewriteLocation returns src with every span FindLocationRefs finds replaced by name (an
// identifier naming the preview's Location stand-in), and whether anything was replaced.
// Time and memory are linear in len(src); src is returned as is (no copy) when nothing is.
func RewriteLocation(src, name string) (string, bool) {
	return rewriteSpans(src, name, FindLocationRefs(src))
}

// RewriteHandlerLocation is RewriteLocation for an event-handler attribute's body
// (FindHandlerLocationRefs).
func RewriteHandlerLocation(src, name string) (string, bool) {
	return rewriteSpans(src, name, FindHandlerLocationRefs(src))
}

func rewriteSpans(src, name string, spans [][2]int) (string, bool) {
	if len(spans) == 0 {
		return src, false
	}
	var b strings.Builder
	b.Grow(len(src) + len(spans)*(len(name)))
	last := 0
	for _, sp := range spans {
		b.WriteString(src[last:sp[0]])
		b.WriteString(name)
		last = sp[1]
	}
	b.WriteString(src[last:])
	return b.String(), true
}

// valueEnd reports whether t can end an expression, so that a `[` after it is a member access.
func valueEnd(src string, t Token) bool {
	switch t.Kind {
	case Ident:
		return !regexKeywords[src[t.Start:t.End]]
	case Number, String, Regex:
		return true
	case Template:
		return src[t.End-1] == '`'
	case Punct:
		s := src[t.Start:t.End]
		return s == ")" || s == "]"
	}
	return false
}
