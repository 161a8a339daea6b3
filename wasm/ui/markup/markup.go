// Package markup builds HTML fragments that are escaped by construction, without reflection
// (issue 15: html/template and the MethodByName reachability it drags in cost ~316 KB brotli
// of the page's wasm).
//
// # What it owns
//
// A Builder appends elements, attributes and text to a byte buffer. Element and attribute
// names are compile-time constants of the caller and are checked at run time (lower-case
// ASCII letters, digits and '-'; a bad name panics — a programmer error, recovered by the
// render loop). Everything else is data and is escaped for the context it lands in:
//
//   - text: '&', '<', '>' become character references; NUL becomes U+FFFD and invalid
//     UTF-8 becomes U+FFFD (what a browser's decoder and tree builder would make of them,
//     so the text a parser reads back equals what was asked for after that normalisation);
//   - attribute values: always double-quoted, with '&', '"', '<', '>' escaped and the same
//     NUL / UTF-8 normalisation;
//   - URL attributes (href, src, action, formaction, poster, cite, data): the value must be a
//     relative URL or use http, https, mailto or blob; anything else (javascript:, data:,
//     vbscript:…) is replaced by "about:invalid#blocked" (SafeURL).
//
// # What it must never do
//
// It never emits an element or attribute the caller did not name: event-handler attributes
// (on*), style, srcdoc and the raw-text elements script and style are refused (panic), since
// no escaping makes data safe inside them. A CSS custom property with an integer value is the
// one style the studio needs (CSSVarInt). Raw HTML enters only as an HTML value made by a
// Builder (Append), so a fragment is safe by the same rules all the way down.
//
// The fuzz test (FuzzRoundTrip) parses the output with golang.org/x/net/html, a parser that
// follows the HTML standard's tokenizer and tree builder, and checks that texts and
// attribute values read back unchanged and that no element or attribute appears that the
// input did not ask for.
//
// Owns: HTML escaping by construction (text, attribute and URL contexts).
//
// Must never: emit an element or attribute the caller did not name, take a plain string as
// HTML, or import another package of this module.
package markup

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// HTML is a fragment made by a Builder (safe to insert as innerHTML or morph input).
type HTML string

// Attr is one attribute. Build it with A, Flag, Int or CSSVarInt.
type Attr struct {
	name  string
	value string
	kind  uint8 // attrValue, attrFlag, attrSkip
}

const (
	attrValue uint8 = iota
	attrFlag
	attrSkip
)

// A is the attribute name="value" (value escaped; URL attributes sanitised).
func A(name, value string) Attr { return Attr{name: name, value: value} }

// Int is the attribute name="n".
func Int(name string, n int64) Attr { return Attr{name: name, value: strconv.FormatInt(n, 10)} }

// Flag is the boolean attribute name (e.g. disabled, hidden, open, selected) when on, and
// nothing when off.
func Flag(name string, on bool) Attr {
	if !on {
		return Attr{name: name, kind: attrSkip}
	}
	return Attr{name: name, kind: attrFlag}
}

// If is a when cond holds, and nothing otherwise.
func If(cond bool, a Attr) Attr {
	if !cond {
		a.kind = attrSkip
	}
	return a
}

// Bool is the attribute name="true" or name="false" (ARIA states such as aria-expanded).
func Bool(name string, v bool) Attr {
	return Attr{name: name, value: strconv.FormatBool(v)}
}

// CSSVarInt is style="--name: n", the one style attribute the builder allows (name is a
// constant checked like an attribute name; n is an integer, so nothing of the data reaches
// the CSS parser but digits).
func CSSVarInt(name string, n int) Attr {
	checkName(name, "CSS custom property")
	return Attr{name: "style", value: "--" + name + ": " + strconv.Itoa(n)}
}

// Builder appends one HTML fragment. The zero value is ready to use.
type Builder struct {
	buf []byte
}

// Open writes the start tag <tag attrs…>. Pair it with Close(tag).
func (b *Builder) Open(tag string, attrs ...Attr) {
	checkTag(tag)
	b.buf = append(b.buf, '<')
	b.buf = append(b.buf, tag...)
	for _, a := range attrs {
		b.attr(a)
	}
	b.buf = append(b.buf, '>')
	if tag == "pre" || tag == "textarea" || tag == "listing" {
		// The tree builder drops one newline right after these start tags; writing one
		// keeps a text that starts with a newline intact.
		b.buf = append(b.buf, '\n')
	}
}

// Close writes the end tag </tag>.
func (b *Builder) Close(tag string) {
	checkTag(tag)
	b.buf = append(b.buf, '<', '/')
	b.buf = append(b.buf, tag...)
	b.buf = append(b.buf, '>')
}

// Void writes a void element such as <input> or <br> (no end tag).
func (b *Builder) Void(tag string, attrs ...Attr) { b.Open(tag, attrs...) }

// Elem writes <tag attrs…>text</tag>.
func (b *Builder) Elem(tag, text string, attrs ...Attr) {
	b.Open(tag, attrs...)
	b.Text(text)
	b.Close(tag)
}

// Text writes s as text content (escaped).
func (b *Builder) Text(s string) { b.buf = appendEscaped(b.buf, s, false) }

// Append writes a fragment made by another Builder.
func (b *Builder) Append(h HTML) { b.buf = append(b.buf, h...) }

// Len is the number of bytes written so far.
func (b *Builder) Len() int { return len(b.buf) }

// HTML returns the fragment written so far.
func (b *Builder) HTML() HTML { return HTML(b.buf) }

// String returns the fragment as a string.
func (b *Builder) String() string { return string(b.buf) }

// Reset empties the builder, keeping its buffer.
func (b *Builder) Reset() { b.buf = b.buf[:0] }

func (b *Builder) attr(a Attr) {
	if a.kind == attrSkip {
		return
	}
	if a.name != "style" || a.kind != attrValue || !isCSSVar(a.value) {
		checkAttr(a.name)
	}
	b.buf = append(b.buf, ' ')
	b.buf = append(b.buf, a.name...)
	if a.kind == attrFlag {
		return
	}
	v := a.value
	if urlAttrs[a.name] {
		v = SafeURL(v)
	}
	b.buf = append(b.buf, '=', '"')
	b.buf = appendEscaped(b.buf, v, true)
	b.buf = append(b.buf, '"')
}

// urlAttrs hold URLs: their values pass SafeURL.
var urlAttrs = map[string]bool{"href": true, "src": true, "action": true, "formaction": true,
	"poster": true, "cite": true, "data": true}

// SafeURL returns u when it is relative or its scheme is http, https, mailto or blob
// (ASCII case-insensitive), and "about:invalid#blocked" otherwise. The scheme is read the way
// a browser's URL parser reads it: leading C0 controls and spaces are skipped and tabs and
// newlines anywhere are ignored, so "java\tscript:" and " javascript:" are blocked too.
func SafeURL(u string) string {
	s := make([]byte, 0, len(u))
	for i := 0; i < len(u); i++ {
		c := u[i]
		if c == '\t' || c == '\n' || c == '\r' || (len(s) == 0 && c <= ' ') {
			continue
		}
		s = append(s, c)
	}
	for i, c := range s {
		switch c {
		case ':':
			switch lower(string(s[:i])) {
			case "http", "https", "mailto", "blob":
				return u
			}
			return "about:invalid#blocked"
		case '/', '?', '#', '\\':
			return u // relative: no scheme before the first of these
		}
	}
	return u
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// appendEscaped escapes s for text (attr false) or a double-quoted attribute value.
func appendEscaped(dst []byte, s string, attr bool) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '&':
				dst = append(dst, "&amp;"...)
			case '<':
				dst = append(dst, "&lt;"...)
			case '>':
				dst = append(dst, "&gt;"...)
			case '"':
				if attr {
					dst = append(dst, "&#34;"...)
				} else {
					dst = append(dst, c)
				}
			case '\r':
				// The input stream turns CR and CR LF into LF before tokenizing; a
				// reference keeps the CR the caller asked for.
				dst = append(dst, "&#13;"...)
			case 0:
				dst = append(dst, "\uFFFD"...)
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			dst = append(dst, "\uFFFD"...)
		} else {
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return dst
}

// Normalize is what a parser reads back from text or an attribute value written by a
// Builder: s with NUL and invalid UTF-8 replaced by U+FFFD.
func Normalize(s string) string { return string(appendNormalized(nil, s)) }

func appendNormalized(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0, r == utf8.RuneError && n == 1:
			dst = append(dst, "\uFFFD"...)
		default:
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return dst
}

// forbiddenTags are raw-text elements (no escaping applies inside them) and elements that
// load or run content.
var forbiddenTags = map[string]bool{"script": true, "style": true, "iframe": true, "object": true,
	"embed": true, "xmp": true, "noembed": true, "noframes": true, "plaintext": true, "noscript": true,
	"template": true, "base": true, "meta": true, "link": true, "frame": true, "frameset": true,
	"math": true, "svg": true}

func checkTag(tag string) {
	checkName(tag, "element")
	if forbiddenTags[tag] {
		panic("markup: element <" + tag + "> is not allowed")
	}
}

func checkAttr(name string) {
	checkName(name, "attribute")
	if len(name) > 2 && name[0] == 'o' && name[1] == 'n' || name == "style" || name == "srcdoc" || name == "is" {
		panic("markup: attribute " + name + " is not allowed")
	}
}

func checkName(name, what string) {
	if name == "" {
		panic("markup: empty " + what + " name")
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' && i > 0) {
			panic("markup: bad " + what + " name " + strconv.Quote(name))
		}
	}
}

// isCSSVar reports whether v is exactly "--name: n" as CSSVarInt makes it.
func isCSSVar(v string) bool {
	if len(v) < 5 || v[0] != '-' || v[1] != '-' {
		return false
	}
	i := 2
	for i < len(v) && ('a' <= v[i] && v[i] <= 'z' || v[i] == '-' || '0' <= v[i] && v[i] <= '9') {
		i++
	}
	if i == 2 || i+2 >= len(v)+1 || v[i:min(i+2, len(v))] != ": " {
		return false
	}
	i += 2
	if i < len(v) && v[i] == '-' {
		i++
	}
	if i == len(v) {
		return false
	}
	for ; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

// IDPart turns a tool name or path into a fragment of an element id: ASCII letters and digits
// stay, every other code point becomes "-" ("web.setTheme" → "web-setTheme"). Distinct names
// may give the same fragment ("a.b", "a/b"); callers that need unique ids keep their own prefix
// or list.
func IDPart(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}
