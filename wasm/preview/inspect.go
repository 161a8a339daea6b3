package preview

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Limits of Inspect (preview.inspect, issue 17). Character counts are Unicode code points
// (SPEC §2.14).
const (
	// MaxSelectorChars bounds the selector argument.
	MaxSelectorChars = 1000
	// MaxInspectTextChars bounds Element.Text.
	MaxInspectTextChars = 200
	// MaxInspectHTMLChars bounds Element.OuterHTML (4 KB of ASCII markup).
	MaxInspectHTMLChars = 4096
	// MaxInspectAncestors bounds Element.Ancestors.
	MaxInspectAncestors = 10
	// MaxInspectNameChars bounds Element.Name and each ancestor label.
	MaxInspectNameChars = 200
)

// Element is what Inspect reports about the first element a selector matches, in document
// order (the payload of preview.inspect):
//
//   - Selector: a selector that matches this element alone: "#id" when its id is unique in
//     the document, else a child-combinator path of tag:nth-of-type(n) steps from the nearest
//     ancestor with a unique id (or from html), e.g. "body > main > p:nth-of-type(2)" (a step
//     names nth-of-type only when a sibling has the same tag).
//   - Tag: the lower-case tag name; Role and Name: the ARIA role and accessible name by the
//     simple rules of roleOf and accessibleName ("" when there is none).
//   - Text: the text content (script, style and template contents left out), whitespace
//     collapsed, at most MaxInspectTextChars code points.
//   - OuterHTML: the element's markup with every <script> element and every on* event-handler
//     attribute removed, at most MaxInspectHTMLChars code points.
//   - Ancestors: up to MaxInspectAncestors ancestors, nearest first, each "tag#id.class.class".
//   - Matches: how many elements the selector matches (≥ 1).
//   - Line: the 1-based line of the element's start tag in the entry page's source when
//     SourceLine can tell (0, left out, when not: an element a script made or moved).
//   - TextTruncated, HTMLTruncated: whether Text or OuterHTML was cut.
type Element struct {
	Selector      string   `json:"selector"`
	Tag           string   `json:"tag"`
	Role          string   `json:"role,omitempty"`
	Name          string   `json:"name,omitempty"`
	Text          string   `json:"text"`
	TextTruncated bool     `json:"textTruncated,omitempty"`
	OuterHTML     string   `json:"outerHTML"`
	HTMLTruncated bool     `json:"outerHTMLTruncated,omitempty"`
	Ancestors     []string `json:"ancestors"`
	Matches       int      `json:"matches"`
	Line          int      `json:"line,omitempty"`
}

// SelectorError is Inspect's error for a selector it cannot use: Reason is "empty", "too-long"
// (over MaxSelectorChars code points), "pseudo-element" or "syntax" (Detail: the parser's
// message).
type SelectorError struct {
	Reason string
	Detail string
}

func (e *SelectorError) Error() string {
	if e.Detail != "" {
		return "preview: selector " + e.Reason + ": " + e.Detail
	}
	return "preview: selector " + e.Reason
}

// ErrNoMatch is returned by Inspect when the selector matches no element (ErrNoEntry when the
// workspace has no HTML entry: the preview shows its waiting page).
var ErrNoMatch = errors.New("preview: no element matches the selector")

// Inspect parses the preview's entry page (index.html, else the first HTML file, as Compile
// picks it) with the HTML parser — the document as the browser builds it from the markup,
// before any script ran — and describes the first element that selector matches (Element).
// It returns the entry's path with the element.
//
// Selectors are CSS selector lists as github.com/andybalholm/cascadia parses them (type, #id,
// .class, attribute selectors, combinators, :nth-of-type and the other structural
// pseudo-classes, :not/:has, comma lists, and cascadia's :contains); pseudo-elements are
// refused, and state pseudo-classes (:hover, :focus, :active, :visited, :target) never match,
// since a parsed document has no pointer, focus or history. Errors: *SelectorError,
// ErrNoEntry, ErrNoMatch. No computed styles: nothing is laid out.
func Inspect(files []File, selector string) (Element, string, error) {
	sel, err := ParseSelector(selector)
	if err != nil {
		return Element{}, "", err
	}
	entry := newIndex(files).entry()
	if entry == nil {
		return Element{}, "", ErrNoEntry
	}
	doc, err := html.Parse(strings.NewReader(entry.Source))
	if err != nil { // x/net/html reports only reader errors
		return Element{}, entry.Path, err
	}
	all := cascadia.QueryAll(doc, sel)
	if len(all) == 0 {
		return Element{}, entry.Path, ErrNoMatch
	}
	n := all[0]
	el := Element{Tag: n.Data, Matches: len(all), Selector: uniqueSelector(doc, n), Role: roleOf(n)}
	el.Name = cutChars(accessibleName(doc, n, el.Role), MaxInspectNameChars)
	el.Text, el.TextTruncated = cutFlag(collapse(textOf(n)), MaxInspectTextChars)
	el.OuterHTML, el.HTMLTruncated = cutFlag(strippedHTML(n), MaxInspectHTMLChars)
	el.Ancestors = []string{}
	for a := n.Parent; a != nil && a.Type == html.ElementNode && len(el.Ancestors) < MaxInspectAncestors; a = a.Parent {
		el.Ancestors = append(el.Ancestors, cutChars(label(a), MaxInspectNameChars))
	}
	el.Line = SourceLine(entry.Source, el.Selector, n.Data, attr(n, "id"), el.Text)
	return el, entry.Path, nil
}

// ParseSelector checks and compiles a selector for Inspect. Errors: *SelectorError.
func ParseSelector(s string) (cascadia.SelectorGroup, error) {
	switch {
	case strings.TrimSpace(s) == "":
		return nil, &SelectorError{Reason: "empty"}
	case utf8.RuneCountInString(s) > MaxSelectorChars:
		return nil, &SelectorError{Reason: "too-long", Detail: "at most " + strconv.Itoa(MaxSelectorChars) + " characters"}
	}
	g, err := cascadia.ParseGroup(s)
	if err != nil {
		if _, perr := cascadia.ParseGroupWithPseudoElements(s); perr == nil {
			return nil, &SelectorError{Reason: "pseudo-element", Detail: "pseudo-elements select no element"}
		}
		return nil, &SelectorError{Reason: "syntax", Detail: cutChars(err.Error(), MaxInspectNameChars)}
	}
	return g, nil
}

// uniqueSelector returns "#id" when n's id is unique in doc, else the nth-of-type path from
// the nearest ancestor with a unique id (or from html).
func uniqueSelector(doc, n *html.Node) string {
	ids := map[string]int{}
	walk(doc, func(x *html.Node) {
		if id := attr(x, "id"); id != "" {
			ids[id]++
		}
	})
	var steps []string
	for x := n; x != nil && x.Type == html.ElementNode; x = x.Parent {
		if id := attr(x, "id"); id != "" && ids[id] == 1 {
			steps = append(steps, "#"+cssIdent(id))
			break
		}
		step := cssIdent(x.Data)
		if x.Parent != nil && x.Parent.Type == html.ElementNode {
			same, at := 0, 0
			for c := x.Parent.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && c.Data == x.Data {
					same++
					if c == x {
						at = same
					}
				}
			}
			if same > 1 {
				step += ":nth-of-type(" + strconv.Itoa(at) + ")"
			}
		}
		steps = append(steps, step)
	}
	for i, j := 0, len(steps)-1; i < j; i, j = i+1, j-1 {
		steps[i], steps[j] = steps[j], steps[i]
	}
	return strings.Join(steps, " > ")
}

// cssIdent serializes s as a CSS identifier (CSSOM "serialize an identifier").
func cssIdent(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == 0:
			b.WriteRune('\uFFFD')
		case r < 0x20 || r == 0x7f || (r >= '0' && r <= '9' && (i == 0 || (i == 1 && s[0] == '-'))):
			b.WriteString("\\" + strconv.FormatInt(int64(r), 16) + " ")
		case i == 0 && r == '-' && len(s) == 1:
			b.WriteString("\\-")
		case r >= 0x80 || r == '-' || r == '_' || (r >= '0' && r <= '9') || (r|0x20 >= 'a' && r|0x20 <= 'z'):
			b.WriteRune(r)
		default:
			b.WriteString("\\" + string(r))
		}
	}
	return b.String()
}

// label is an ancestor's "tag#id.class.class".
func label(n *html.Node) string {
	s := n.Data
	if id := attr(n, "id"); id != "" {
		s += "#" + cssIdent(id)
	}
	for _, c := range strings.Fields(attr(n, "class")) {
		s += "." + cssIdent(c)
	}
	return s
}

// implicitRoles are the roles of elements without a role attribute (a simple subset of HTML-AAM;
// a, area, img, input and select depend on attributes: roleOf).
var implicitRoles = map[atom.Atom]string{
	atom.Article: "article", atom.Aside: "complementary", atom.Button: "button", atom.Dialog: "dialog",
	atom.Footer: "contentinfo", atom.Form: "form", atom.H1: "heading", atom.H2: "heading", atom.H3: "heading",
	atom.H4: "heading", atom.H5: "heading", atom.H6: "heading", atom.Header: "banner", atom.Hr: "separator",
	atom.Li: "listitem", atom.Main: "main", atom.Nav: "navigation", atom.Ol: "list", atom.Ul: "list",
	atom.Table: "table", atom.Tr: "row", atom.Td: "cell", atom.Th: "columnheader", atom.Textarea: "textbox",
	atom.P: "paragraph", atom.Progress: "progressbar", atom.Option: "option", atom.Fieldset: "group",
	atom.Figure: "figure", atom.Summary: "button",
}

// inputRoles are the roles of <input> by type (text for an unknown type).
var inputRoles = map[string]string{
	"button": "button", "submit": "button", "reset": "button", "image": "button", "checkbox": "checkbox",
	"radio": "radio", "range": "slider", "number": "spinbutton", "search": "searchbox", "hidden": "",
}

// roleOf is n's role: the first token of an explicit role attribute, else the implicit role
// of its tag (implicitRoles; a and area with href are "link", img is "img" — "presentation"
// with alt="" —, input by type, select "combobox" or with multiple/size>1 "listbox").
func roleOf(n *html.Node) string {
	if f := strings.Fields(attr(n, "role")); len(f) > 0 {
		return strings.ToLower(f[0])
	}
	switch n.DataAtom {
	case atom.A, atom.Area:
		if hasAttr(n, "href") {
			return "link"
		}
		return ""
	case atom.Img:
		if alt, ok := attrOK(n, "alt"); ok && alt == "" {
			return "presentation"
		}
		return "img"
	case atom.Input:
		if r, ok := inputRoles[strings.ToLower(attr(n, "type"))]; ok {
			return r
		}
		return "textbox"
	case atom.Select:
		if size, _ := strconv.Atoi(attr(n, "size")); hasAttr(n, "multiple") || size > 1 {
			return "listbox"
		}
		return "combobox"
	}
	return implicitRoles[n.DataAtom]
}

// nameFromContent are the roles whose accessible name comes from their content.
var nameFromContent = map[string]bool{
	"button": true, "link": true, "heading": true, "cell": true, "columnheader": true, "rowheader": true,
	"option": true, "tab": true, "menuitem": true, "checkbox": true, "radio": true, "switch": true,
	"treeitem": true, "tooltip": true,
}

// accessibleName is n's accessible name by simple rules, in order: aria-labelledby (the
// referenced elements' text), aria-label, alt (img, area, input type=image), the text of a
// <label for=id> or of the wrapping <label> (input, select, textarea), value of a button-like
// input, the content's text for roles named from content (nameFromContent), then title.
func accessibleName(doc, n *html.Node, role string) string {
	if ids := strings.Fields(attr(n, "aria-labelledby")); len(ids) > 0 {
		var parts []string
		for _, id := range ids {
			if ref := byID(doc, id); ref != nil {
				parts = append(parts, collapse(textOf(ref)))
			}
		}
		if s := strings.TrimSpace(strings.Join(parts, " ")); s != "" {
			return s
		}
	}
	if s := strings.TrimSpace(attr(n, "aria-label")); s != "" {
		return s
	}
	typ := strings.ToLower(attr(n, "type"))
	if n.DataAtom == atom.Img || n.DataAtom == atom.Area || (n.DataAtom == atom.Input && typ == "image") {
		if s := strings.TrimSpace(attr(n, "alt")); s != "" {
			return s
		}
	}
	if n.DataAtom == atom.Input || n.DataAtom == atom.Select || n.DataAtom == atom.Textarea {
		if id := attr(n, "id"); id != "" {
			var s string
			walk(doc, func(x *html.Node) {
				if s == "" && x.DataAtom == atom.Label && attr(x, "for") == id {
					s = collapse(textOf(x))
				}
			})
			if s != "" {
				return s
			}
		}
		for a := n.Parent; a != nil; a = a.Parent {
			if a.DataAtom == atom.Label {
				if s := collapse(textOf(a)); s != "" {
					return s
				}
				break
			}
		}
		if typ == "button" || typ == "submit" || typ == "reset" {
			if s := strings.TrimSpace(attr(n, "value")); s != "" {
				return s
			}
		}
	}
	if nameFromContent[role] {
		if s := collapse(textOf(n)); s != "" {
			return s
		}
	}
	return strings.TrimSpace(attr(n, "title"))
}

// textOf is the text content of n without script, style and template contents.
func textOf(n *html.Node) string {
	var b strings.Builder
	var rec func(*html.Node)
	rec = func(x *html.Node) {
		switch {
		case x.Type == html.TextNode:
			b.WriteString(x.Data)
		case x.Type == html.ElementNode && (x.DataAtom == atom.Script || x.DataAtom == atom.Style || x.DataAtom == atom.Template):
			return
		}
		for c := x.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
			if b.Len() > 16*MaxInspectHTMLChars { // far more than any bound needs
				return
			}
		}
	}
	rec(n)
	return b.String()
}

// strippedHTML renders n without <script> elements and on* attributes.
func strippedHTML(n *html.Node) string {
	var b strings.Builder
	if err := html.Render(&b, strip(n)); err != nil {
		return ""
	}
	return b.String()
}

// strip deep-copies n without <script> elements and without attributes whose name starts with
// "on" (event handlers).
func strip(n *html.Node) *html.Node {
	c := &html.Node{Type: n.Type, DataAtom: n.DataAtom, Data: n.Data, Namespace: n.Namespace}
	for _, a := range n.Attr {
		if !strings.HasPrefix(strings.ToLower(a.Key), "on") {
			c.Attr = append(c.Attr, a)
		}
	}
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		if k.Type == html.ElementNode && k.DataAtom == atom.Script { // HTML and SVG scripts
			continue
		}
		c.AppendChild(strip(k))
	}
	return c
}

// walk calls f for every node under n in document order.
func walk(n *html.Node, f func(*html.Node)) {
	f(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

// byID returns the first element with id, or nil.
func byID(doc *html.Node, id string) *html.Node {
	var found *html.Node
	walk(doc, func(x *html.Node) {
		if found == nil && x.Type == html.ElementNode && attr(x, "id") == id {
			found = x
		}
	})
	return found
}

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func attr(n *html.Node, key string) string { v, _ := attrOK(n, key); return v }

func hasAttr(n *html.Node, key string) bool { _, ok := attrOK(n, key); return ok }

// collapse trims s and collapses runs of whitespace to one space.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// cutChars bounds s to n code points.
func cutChars(s string, n int) string { s, _ = cutFlag(s, n); return s }

// cutFlag bounds s to n code points and reports whether it cut.
func cutFlag(s string, n int) (string, bool) {
	if utf8.RuneCountInString(s) <= n {
		return s, false
	}
	i := 0
	for k := range s {
		if n == 0 {
			i = k
			break
		}
		n--
	}
	return s[:i], true
}
