package preview

import (
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// token is one token of the entry's markup: src[start:end] is its raw text (consecutive
// tokens cover the whole input). name is the ASCII lower-case tag name of start and end tags;
// foreign is true for a start tag that the tree builder inserts in the SVG or MathML
// namespace (its content is then markup, not raw text).
type token struct {
	typ        html.TokenType
	start, end int
	name       string
	foreign    bool
}

// maxTokenizePasses bounds the tokenizer/tree-builder agreement loop of tokenize.
const maxTokenizePasses = 8

// tokenize splits src into tokens exactly as a browser's HTML parser does.
//
// Tokenizing HTML depends on tree construction in one way only: a start tag of a raw-text
// element (script, style, title, textarea, …) in SVG or MathML content is an ordinary
// element whose content is markup (and CDATA sections are allowed there). The tokenizer is
// golang.org/x/net/html's; that decision is first guessed by a small model of foreign
// content (foreignModel) and then checked against x/net/html's spec-conformant tree builder:
// the input is re-parsed with a marker attribute on every start tag, and the first tag whose
// guess disagrees with the namespace the tree builder gave it is corrected and the input
// re-tokenized. Inputs without "<svg" or "<math" have no foreign content and skip the check.
//
// The result is linear in len(src) times at most maxTokenizePasses; verified is false when
// the passes ran out before agreement (the last tokenization is returned). CDATA sections are
// recognised where the model says the current node is foreign; they are not re-checked.
func tokenize(src string) (toks []token, verified bool) {
	if !hasForeignStart(src) {
		return tokenizeWith(src, nil), true
	}
	override := map[int]bool{}
	for pass := 0; pass < maxTokenizePasses; pass++ {
		toks = tokenizeWith(src, override)
		ns := treeNamespaces(src, toks)
		bad := -1
		for i, t := range toks {
			if (t.typ == html.StartTagToken || t.typ == html.SelfClosingTagToken) && rawTextTag(t.name) {
				if got := ns[i]; got != t.foreign {
					bad = i
					break
				}
			}
		}
		if bad < 0 {
			return toks, true
		}
		override[bad] = ns[bad]
	}
	return toks, false
}

// hasForeignStart reports whether src may open foreign content ("<svg" or "<math", any case).
func hasForeignStart(src string) bool {
	for i := 0; ; {
		k := strings.IndexByte(src[i:], '<')
		if k < 0 || i+k+1 >= len(src) {
			return false
		}
		i += k + 1
		if hasFoldPrefix(src[i:], "svg") || hasFoldPrefix(src[i:], "math") {
			return true
		}
	}
}

func hasFoldPrefix(s, p string) bool { return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) }

// rawTextTag: start tags after which x/net/html's tokenizer reads raw text unless told
// otherwise (the HTML spec's RAWTEXT, RCDATA, script data and PLAINTEXT elements, with
// scripting enabled).
func rawTextTag(name string) bool {
	switch name {
	case "iframe", "noembed", "noframes", "noscript", "plaintext", "script", "style", "textarea", "title", "xmp":
		return true
	}
	return false
}

// markerAttr is the attribute treeNamespaces adds to every start tag of its private copy.
const markerAttr = "data-webcoding-token"

// treeNamespaces parses a copy of src whose start tags carry markerAttr=<token index> with
// x/net/html's tree builder and returns, per token index, whether the element made from that
// tag is in a foreign namespace (false when no element was made from it). A marker attribute
// changes no tree-construction decision.
func treeNamespaces(src string, toks []token) map[int]bool {
	var b strings.Builder
	b.Grow(len(src) + len(toks)*24)
	for i, t := range toks {
		if t.typ != html.StartTagToken && t.typ != html.SelfClosingTagToken {
			b.WriteString(src[t.start:t.end])
			continue
		}
		nameEnd := t.start + 1
		for nameEnd < t.end && !isHTMLSpace(src[nameEnd]) && src[nameEnd] != '/' && src[nameEnd] != '>' {
			nameEnd++
		}
		b.WriteString(src[t.start:nameEnd])
		b.WriteString(" " + markerAttr + "=")
		b.WriteString(strconv.Itoa(i))
		b.WriteByte(' ')
		b.WriteString(src[nameEnd:t.end])
	}
	ns := map[int]bool{}
	root, err := html.Parse(strings.NewReader(b.String()))
	if err != nil {
		return ns
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for ; n != nil; n = n.NextSibling {
			if n.Type == html.ElementNode {
				for _, a := range n.Attr {
					if a.Key == markerAttr && a.Namespace == "" {
						if i, err := strconv.Atoi(a.Val); err == nil {
							if _, seen := ns[i]; !seen {
								ns[i] = n.Namespace != ""
							}
						}
						break
					}
				}
			}
			walk(n.FirstChild)
		}
	}
	walk(root)
	return ns
}

// tokenizeWith tokenizes src with foreign-content decisions from foreignModel, except for the
// token indexes in override, whose decision is given.
func tokenizeWith(src string, override map[int]bool) []token {
	z := html.NewTokenizer(strings.NewReader(src))
	var m foreignModel
	toks := make([]token, 0, len(src)/16+4)
	pos := 0
	for {
		z.AllowCDATA(m.inForeign())
		tt := z.Next()
		if tt == html.ErrorToken {
			if rest := len(src) - pos; rest > 0 {
				// Raw() of the final partial token: keep the bytes as text.
				toks = append(toks, token{typ: html.TextToken, start: pos, end: len(src)})
			}
			return toks
		}
		raw := z.Raw()
		t := token{typ: tt, start: pos, end: pos + len(raw)}
		pos = t.end
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			t.name = strings.ToLower(string(name))
			var attrs map[string]string
			if hasAttr && (t.name == "font" || t.name == "annotation-xml") {
				attrs = map[string]string{}
				for {
					k, v, more := z.TagAttr()
					if _, dup := attrs[string(k)]; !dup {
						attrs[string(k)] = string(v)
					}
					if !more {
						break
					}
				}
			}
			t.foreign = m.start(t.name, attrs, tt == html.SelfClosingTagToken)
			if f, ok := override[len(toks)]; ok {
				t.foreign = f
			}
			if t.foreign {
				z.NextIsNotRawText()
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			t.name = strings.ToLower(string(name))
			m.end(t.name)
		}
		toks = append(toks, t)
	}
}

// foreignModel follows SVG and MathML subtrees the way the tree builder's foreign-content
// rules do, closely enough to be a good first guess for tokenize (which checks it). Its stack
// holds foreign elements and the HTML elements opened inside integration points.
type foreignModel struct {
	stack []modelElem
}

type modelElem struct {
	name string
	ns   byte // 'h' HTML, 's' SVG, 'm' MathML
	hip  bool // an HTML integration point
	tip  bool // a MathML text integration point
}

func (m *foreignModel) top() *modelElem {
	if len(m.stack) == 0 {
		return nil
	}
	return &m.stack[len(m.stack)-1]
}

func (m *foreignModel) inForeign() bool {
	t := m.top()
	return t != nil && t.ns != 'h'
}

// start records a start tag and reports whether it becomes a foreign element.
func (m *foreignModel) start(name string, attrs map[string]string, selfClosing bool) bool {
	cur := m.top()
	if cur != nil && cur.ns != 'h' {
		htmlRules := cur.hip || (cur.tip && name != "mglyph" && name != "malignmark") ||
			(cur.ns == 'm' && cur.name == "annotation-xml" && name == "svg")
		if !htmlRules {
			if breaksOut(name, attrs) {
				for len(m.stack) > 0 && m.top().ns != 'h' {
					m.stack = m.stack[:len(m.stack)-1]
				}
			} else {
				e := modelElem{name: name, ns: cur.ns}
				if cur.ns == 's' && (name == "foreignobject" || name == "desc" || name == "title") {
					e.hip = true
				}
				if cur.ns == 'm' {
					switch name {
					case "mi", "mo", "mn", "ms", "mtext":
						e.tip = true
					case "annotation-xml":
						enc := strings.ToLower(attrs["encoding"])
						e.hip = enc == "text/html" || enc == "application/xhtml+xml"
					}
				}
				if !selfClosing {
					m.stack = append(m.stack, e)
				}
				return true
			}
		}
	}
	// HTML rules.
	switch name {
	case "svg", "math":
		if !selfClosing {
			ns := byte('s')
			if name == "math" {
				ns = 'm'
			}
			m.stack = append(m.stack, modelElem{name: name, ns: ns})
		}
		return true
	}
	if len(m.stack) > 0 && !voidElement(name) && !rawTextTag(name) {
		m.stack = append(m.stack, modelElem{name: name, ns: 'h'})
	}
	return false
}

// end records an end tag.
func (m *foreignModel) end(name string) {
	if len(m.stack) == 0 {
		return
	}
	if m.inForeign() && (name == "p" || name == "br") {
		for len(m.stack) > 0 && m.top().ns != 'h' {
			m.stack = m.stack[:len(m.stack)-1]
		}
		return
	}
	for i := len(m.stack) - 1; i >= 0; i-- {
		if m.stack[i].name == name {
			m.stack = m.stack[:i]
			return
		}
	}
}

// breaksOut: start tags that end foreign content (HTML spec "parsing tokens in foreign
// content").
func breaksOut(name string, attrs map[string]string) bool {
	switch name {
	case "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em",
		"embed", "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing",
		"menu", "meta", "nobr", "ol", "p", "pre", "ruby", "s", "small", "span", "strong", "strike",
		"sub", "sup", "table", "tt", "u", "ul", "var":
		return true
	case "font":
		_, c := attrs["color"]
		_, f := attrs["face"]
		_, s := attrs["size"]
		return c || f || s
	}
	return false
}

func voidElement(name string) bool {
	switch name {
	case "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr":
		return true
	}
	return false
}
