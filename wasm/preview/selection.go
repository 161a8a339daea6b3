package preview

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The live half of preview.inspect and the pick mode (issue 17; docs/design.md §5.22). In the
// browser the parent asks the bridge inside the frame — never page code — over the mount's
// MessagePort; the bridge answers with a LiveElement (MessageSelection), which the parent
// treats as untrusted input: DecodeSelection is strict and Describe derives everything else
// (tag, role, name, text, stripped outerHTML, source line) in Go, with the same code as the
// headless Inspect.

// Messages of the inspection channel (all over the mount's MessagePort, after the hello).
const (
	// MessageInspect (parent → frame): {type, id, selector}: describe the first element
	// selector matches; the frame answers with MessageSelection carrying the same id.
	MessageInspect = "webcoding.preview.inspect"
	// MessagePick (parent → frame): {type, on}: enter or leave pick mode.
	MessagePick = "webcoding.preview.pick"
	// MessageSelection (frame → parent): {type, id, selection: LiveElement} or {type, id,
	// error: "no-match"|"syntax"}; id 0 is a pick (a click in pick mode), any other id answers
	// a MessageInspect.
	MessageSelection = "webcoding.preview.selection"
	// MessageHover (frame → parent shim only): {type, box: Box|null}: the element under the
	// pointer in pick mode; the shim draws the highlight over the frame, Go never sees it.
	MessageHover = "webcoding.preview.hover"
	// MessagePickEnd (frame → parent): {type}: Escape was pressed in the frame in pick mode.
	MessagePickEnd = "webcoding.preview.pickEnd"
)

// ComputedStyleProps is the fixed list of computed style properties a live selection reports
// (getComputedStyle(el).getPropertyValue(name) in the frame), in this order. Shorthands
// (margin, padding, border) are the browser's serialization of the longhands ("" when the
// longhands differ and the browser gives no shorthand).
var ComputedStyleProps = []string{
	"display", "position", "color", "background-color", "font-family", "font-size", "font-weight",
	"line-height", "margin", "padding", "border", "width", "height", "opacity", "visibility", "z-index",
}

// Limits of a live selection (enforced by the bridge, by the shim and again by DecodeSelection).
const (
	// MaxSelectionBytes bounds the JSON of one LiveElement.
	MaxSelectionBytes = 128 << 10
	// MaxLiveHTMLChars bounds LiveElement.HTML (UTF-16 code units in the frame, code points
	// here); Describe cuts the stripped markup to MaxInspectHTMLChars.
	MaxLiveHTMLChars = 16384
	// MaxStyleValueChars bounds each computed style value.
	MaxStyleValueChars = 200
	// MaxTagChars bounds LiveElement.Tag.
	MaxTagChars = 64
	// MaxBoxCoordinate bounds |x|, |y|, width and height of a Box (CSS px).
	MaxBoxCoordinate = 1e7
	// MaxLiveMatches bounds LiveElement.Matches.
	MaxLiveMatches = 1_000_000
	// MaxHoverMessages bounds the MessageHover posts of one mount (later hovers draw nothing).
	MaxHoverMessages = 1000
	// LiveInspectSeconds is how long a LiveInspector waits for the frame's answer.
	LiveInspectSeconds = 3
)

// Box is an element's border box in CSS px, relative to the frame's viewport
// (getBoundingClientRect): X and Y may be negative (scrolled out); Width and Height ≥ 0.
type Box struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// LiveElement is what the bridge reports about one element (the wire form of
// MessageSelection.selection): Selector (unique in the live document: #id, else an
// nth-of-type path, as uniqueSelector builds it), Tag (lower case), HTML (outerHTML, at most
// MaxLiveHTMLChars; HTMLTruncated when cut), Ancestors (≤ MaxInspectAncestors labels
// tag#id.class, nearest first), Matches (1..MaxLiveMatches; 1 for a pick), Styles (exactly
// the ComputedStyleProps) and Box.
type LiveElement struct {
	Selector      string            `json:"selector"`
	Tag           string            `json:"tag"`
	HTML          string            `json:"html"`
	HTMLTruncated bool              `json:"htmlTruncated"`
	Ancestors     []string          `json:"ancestors"`
	Matches       int               `json:"matches"`
	Styles        map[string]string `json:"styles"`
	Box           Box               `json:"box"`
}

// Selection is a described live element: the Element payload of preview.inspect (its Line
// included when the source can tell) plus the computed Styles and the Box.
type Selection struct {
	Element
	Styles map[string]string `json:"styles"`
	Box    Box               `json:"box"`
}

// SelectionError is DecodeSelection's error: Field names the member ("" for the whole
// message) and Reason what is wrong with it.
type SelectionError struct {
	Field  string
	Reason string
}

func (e *SelectionError) Error() string {
	if e.Field == "" {
		return "preview: selection: " + e.Reason
	}
	return "preview: selection: " + e.Field + ": " + e.Reason
}

func selErr(field, reason string) error { return &SelectionError{Field: field, Reason: reason} }

// DecodeSelection decodes one LiveElement strictly: a JSON object of at most
// MaxSelectionBytes with exactly the members of LiveElement (no unknown, missing or
// duplicate member, no trailing data), strings valid UTF-8 within their limits, a selector
// ParseSelector accepts, a tag of [a-z][a-z0-9-]*, Styles with exactly the ComputedStyleProps,
// a Box of finite numbers within MaxBoxCoordinate (width and height ≥ 0). Errors:
// *SelectionError.
func DecodeSelection(raw []byte) (LiveElement, error) {
	var w LiveElement
	if len(raw) > MaxSelectionBytes {
		return w, selErr("", "larger than "+strconv.Itoa(MaxSelectionBytes)+" bytes")
	}
	if !utf8.Valid(raw) {
		return w, selErr("", "not UTF-8")
	}
	members, err := strictObject(raw, []string{"selector", "tag", "html", "htmlTruncated", "ancestors", "matches", "styles", "box"})
	if err != nil {
		return w, err
	}
	str := func(name string, max int, dst *string) error {
		if json.Unmarshal(members[name], dst) != nil {
			return selErr(name, "not a string")
		}
		if utf8.RuneCountInString(*dst) > max {
			return selErr(name, "longer than "+strconv.Itoa(max)+" characters")
		}
		return nil
	}
	if err := str("selector", MaxSelectorChars, &w.Selector); err != nil {
		return w, err
	}
	if _, err := ParseSelector(w.Selector); err != nil {
		return w, selErr("selector", err.Error())
	}
	if err := str("tag", MaxTagChars, &w.Tag); err != nil {
		return w, err
	}
	if !isTagName(w.Tag) {
		return w, selErr("tag", "not a lower-case tag name")
	}
	if err := str("html", MaxLiveHTMLChars, &w.HTML); err != nil {
		return w, err
	}
	if json.Unmarshal(members["htmlTruncated"], &w.HTMLTruncated) != nil {
		return w, selErr("htmlTruncated", "not a boolean")
	}
	var anc []json.RawMessage
	if json.Unmarshal(members["ancestors"], &anc) != nil || anc == nil {
		return w, selErr("ancestors", "not an array")
	}
	if len(anc) > MaxInspectAncestors {
		return w, selErr("ancestors", "more than "+strconv.Itoa(MaxInspectAncestors)+" items")
	}
	w.Ancestors = make([]string, len(anc))
	for i, a := range anc {
		if json.Unmarshal(a, &w.Ancestors[i]) != nil || utf8.RuneCountInString(w.Ancestors[i]) > MaxInspectNameChars {
			return w, selErr("ancestors", "item "+strconv.Itoa(i)+" is not a string of at most "+strconv.Itoa(MaxInspectNameChars)+" characters")
		}
	}
	if n, ok := wholeNumber(members["matches"]); !ok || n < 1 || n > MaxLiveMatches {
		return w, selErr("matches", "not an integer in 1.."+strconv.Itoa(MaxLiveMatches))
	} else {
		w.Matches = int(n)
	}
	styles, err := strictObject(members["styles"], ComputedStyleProps)
	if err != nil {
		return w, selErr("styles", err.(*SelectionError).Reason)
	}
	w.Styles = make(map[string]string, len(ComputedStyleProps))
	for _, name := range ComputedStyleProps {
		var v string
		if json.Unmarshal(styles[name], &v) != nil || utf8.RuneCountInString(v) > MaxStyleValueChars {
			return w, selErr("styles", name+" is not a string of at most "+strconv.Itoa(MaxStyleValueChars)+" characters")
		}
		w.Styles[name] = v
	}
	box, err := strictObject(members["box"], []string{"x", "y", "width", "height"})
	if err != nil {
		return w, selErr("box", err.(*SelectionError).Reason)
	}
	for _, f := range []struct {
		name     string
		dst      *float64
		positive bool
	}{{"x", &w.Box.X, false}, {"y", &w.Box.Y, false}, {"width", &w.Box.Width, true}, {"height", &w.Box.Height, true}} {
		var v float64
		if json.Unmarshal(box[f.name], &v) != nil || math.IsNaN(v) || math.Abs(v) > MaxBoxCoordinate || (f.positive && v < 0) {
			return w, selErr("box", f.name+" is not a number in range")
		}
		*f.dst = v
	}
	return w, nil
}

// strictObject splits raw into its members: it must be one JSON object holding exactly the
// names of want, each once, and nothing after it.
func strictObject(raw []byte, want []string) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, selErr("", "not a JSON object")
	}
	allowed := make(map[string]bool, len(want))
	for _, n := range want {
		allowed[n] = true
	}
	out := make(map[string]json.RawMessage, len(want))
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, selErr("", "not a JSON object")
		}
		name, _ := tok.(string)
		if !allowed[name] {
			return nil, selErr("", "unknown member "+strconv.Quote(cutChars(name, 40)))
		}
		if _, dup := out[name]; dup {
			return nil, selErr(name, "given twice")
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, selErr(name, "not JSON")
		}
		out[name] = v
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, selErr("", "not a JSON object")
	}
	if _, err := dec.Token(); err == nil {
		return nil, selErr("", "data after the object")
	}
	for _, n := range want {
		if _, ok := out[n]; !ok {
			return nil, selErr(n, "missing")
		}
	}
	return out, nil
}

// wholeNumber reads raw as a JSON integer.
func wholeNumber(raw json.RawMessage) (int64, bool) {
	n, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, 64)
	return n, err == nil
}

func isTagName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Describe turns a decoded LiveElement into the Selection payload: the element's markup is
// parsed in Go (in the context of its parent's tag) and Tag, Role, Name, Text and the
// stripped OuterHTML come from the same code as Inspect (the accessible name sees only the
// element's own markup: aria-labelledby and <label for> outside it do not resolve). Selector,
// Ancestors, Matches, Styles and Box are the decoded values. page is the workspace path of
// the page shown ("" or a path not in files: the entry, as Compile picks it); Line is
// SourceLine of that page's source when it can tell. Describe returns the page's path ("" when
// the workspace has no HTML page).
func Describe(files []File, page string, w LiveElement) (Selection, string) {
	s := Selection{Element: Element{Selector: w.Selector, Tag: w.Tag, Ancestors: append([]string{}, w.Ancestors...), Matches: w.Matches}, Styles: w.Styles, Box: w.Box}
	n := parseLive(w)
	if n != nil {
		s.Role = roleOf(n)
		s.Name = cutChars(accessibleName(n, n, s.Role), MaxInspectNameChars)
		s.Text, s.TextTruncated = cutFlag(collapse(textOf(n)), MaxInspectTextChars)
		s.OuterHTML, s.HTMLTruncated = cutFlag(strippedHTML(n), MaxInspectHTMLChars)
	}
	s.HTMLTruncated = s.HTMLTruncated || w.HTMLTruncated
	if w.HTMLTruncated {
		s.TextTruncated = true // the text was read from cut markup
	}
	var entry *File
	for i := range files {
		if files[i].Path == page && page != "" {
			entry = &files[i]
		}
	}
	if entry == nil {
		entry = newIndex(files).entry()
	}
	if entry == nil {
		return s, ""
	}
	var id string
	if n != nil {
		id = attr(n, "id")
	}
	s.Line = SourceLine(entry.Source, w.Selector, w.Tag, id, s.Text)
	return s, entry.Path
}

// parseLive parses w.HTML as a fragment in the context of its parent's tag (the first
// ancestor label's tag, body when none) and returns the element of w.Tag it starts with, or
// nil.
func parseLive(w LiveElement) *html.Node {
	ctxTag := "body"
	if len(w.Ancestors) > 0 {
		t := w.Ancestors[0]
		if i := strings.IndexAny(t, "#."); i >= 0 {
			t = t[:i]
		}
		if isTagName(t) && t != "html" {
			ctxTag = t
		}
	}
	ctx := &html.Node{Type: html.ElementNode, Data: ctxTag, DataAtom: atom.Lookup([]byte(ctxTag))}
	nodes, err := html.ParseFragment(strings.NewReader(w.HTML), ctx)
	if err != nil {
		return nil
	}
	for _, n := range nodes {
		if n.Type == html.ElementNode && n.Data == w.Tag {
			return n
		}
	}
	return nil
}

// SourceLine is the 1-based line of the start tag of the element selector picks in an HTML
// source, or 0 when it cannot tell: the selector must match exactly one element of the parsed
// source, with the same tag and, when id is set, that id, else the same collapsed text (cut
// to MaxInspectTextChars) — so an element a script created or rewrote gets no line rather than
// a wrong one. The element is the k-th of its tag in document order; its line is the k-th
// start tag of that name in the source's tokens, and only when the source has exactly as many
// such start tags as the parsed tree has such elements (the parser added or moved none).
func SourceLine(source, selector, tag, id, text string) int {
	sel, err := ParseSelector(selector)
	if err != nil {
		return 0
	}
	doc, err := html.Parse(strings.NewReader(source))
	if err != nil {
		return 0
	}
	all := cascadia.QueryAll(doc, sel)
	if len(all) != 1 || all[0].Data != tag {
		return 0
	}
	n := all[0]
	if id != "" {
		if attr(n, "id") != id {
			return 0
		}
	} else if t, _ := cutFlag(collapse(textOf(n)), MaxInspectTextChars); t != text {
		return 0
	}
	k, total := 0, 0
	walk(doc, func(x *html.Node) {
		if x.Type == html.ElementNode && x.Data == tag {
			total++
			if x == n {
				k = total
			}
		}
	})
	z := html.NewTokenizer(strings.NewReader(source))
	offset, seen, line := 0, 0, 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		raw := len(z.Raw())
		if tt == html.StartTagToken || tt == html.SelfClosingTagToken {
			name, _ := z.TagName()
			if string(name) == tag {
				seen++
				if seen == k {
					line = 1 + strings.Count(source[:offset], "\n")
				}
			}
		}
		offset += raw
	}
	if seen != total {
		return 0
	}
	return line
}

// Errors of a live inspection (LiveInspector).
var (
	// ErrRevisionMoved: the preview's mounted revision is not the one asked about (or changed
	// while the frame was answering).
	ErrRevisionMoved = errors.New("preview: the preview moved to another revision")
	// ErrNotLive: the frame of the revision is not running an acknowledged page (pending,
	// failed, navigated away or timed out), so it cannot be asked.
	ErrNotLive = errors.New("preview: the preview page of this revision is not running")
	// ErrInspectTimeout: the frame did not answer in time.
	ErrInspectTimeout = errors.New("preview: the preview page did not answer the inspection in time")
)

// LiveInspector is implemented by a Port whose pages really run (the browser's iframe):
// InspectLive asks the bridge inside the frame of revision for the first element selector
// matches and returns the described Selection and the entry's path. Errors:
// ErrRevisionMoved, ErrNotLive, ErrInspectTimeout, ErrNoMatch, *SelectorError (the browser's
// selector engine refused it), *SelectionError (the frame's answer was malformed), ctx.Err().
type LiveInspector interface {
	InspectLive(ctx context.Context, revision int64, selector string) (Selection, string, error)
}
