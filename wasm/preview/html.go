package preview

import (
	"html"
	"strings"

	"github.com/webcoding/studio/wasm/preview/jsscan"
)

// htmlAttr is one attribute of a start tag. Start/End span the attribute in the source
// including the whitespace (or '/') before it, so removing the span removes it cleanly.
type htmlAttr struct {
	name       string // ASCII lower-case
	value      string // entities decoded
	start, end int
}

// htmlTag is a start tag: src[start:end] runs from '<' through '>'.
type htmlTag struct {
	name       string // ASCII lower-case
	start, end int
	attrs      []htmlAttr
}

// attr returns the first attribute called name (HTML: the first of duplicates wins).
func (t *htmlTag) attr(name string) (htmlAttr, int, bool) {
	for i, a := range t.attrs {
		if a.name == name {
			return a, i, true
		}
	}
	return htmlAttr{}, -1, false
}

func isHTMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// parseStartTag parses the start tag at src[i] == '<' (src[i+1] is an ASCII letter) following
// the HTML tokenizer's tag, attribute-name and attribute-value states. ok is false when the
// input ends inside the tag (the HTML parser drops such a tag).
func parseStartTag(src string, i int) (t htmlTag, ok bool) {
	j := i + 1
	for j < len(src) && !isHTMLSpace(src[j]) && src[j] != '/' && src[j] != '>' {
		j++
	}
	t = htmlTag{name: strings.ToLower(src[i+1 : j]), start: i}
	for {
		wsStart := j
		for j < len(src) && (isHTMLSpace(src[j]) || src[j] == '/') {
			if src[j] == '/' && j+1 < len(src) && src[j+1] == '>' {
				break
			}
			j++
		}
		if j >= len(src) {
			return t, false
		}
		if src[j] == '>' {
			t.end = j + 1
			return t, true
		}
		if src[j] == '/' { // "/>"
			t.end = j + 2
			return t, true
		}
		nameStart := j
		j++ // the first character may be '='
		for j < len(src) && !isHTMLSpace(src[j]) && src[j] != '/' && src[j] != '>' && src[j] != '=' {
			j++
		}
		a := htmlAttr{name: strings.ToLower(src[nameStart:j]), start: wsStart}
		k := j
		for k < len(src) && isHTMLSpace(src[k]) {
			k++
		}
		if k < len(src) && src[k] == '=' {
			k++
			for k < len(src) && isHTMLSpace(src[k]) {
				k++
			}
			if k >= len(src) {
				return t, false
			}
			switch q := src[k]; q {
			case '"', '\'':
				e := strings.IndexByte(src[k+1:], q)
				if e < 0 {
					return t, false
				}
				a.value = html.UnescapeString(src[k+1 : k+1+e])
				j = k + 1 + e + 1
			case '>':
				j = k
			default:
				e := k
				for e < len(src) && !isHTMLSpace(src[e]) && src[e] != '>' {
					e++
				}
				a.value = html.UnescapeString(src[k:e])
				j = e
			}
		}
		a.end = j
		t.attrs = append(t.attrs, a)
	}
}

// rawTextEnd finds the end tag "</name" (ASCII case-insensitive, followed by whitespace, '/',
// '>' or the end of input) at or after from. It returns the end of the element's text and the
// offset after the end tag's '>' (both len(src) when there is no end tag).
func rawTextEnd(src string, from int, name string) (textEnd, after int) {
	for i := from; ; {
		k := strings.Index(src[i:], "</")
		if k < 0 {
			return len(src), len(src)
		}
		i += k
		n := i + 2 + len(name)
		if n <= len(src) && strings.EqualFold(src[i+2:n], name) && (n == len(src) || isHTMLSpace(src[n]) || src[n] == '/' || src[n] == '>') {
			e := strings.IndexByte(src[n:], '>')
			if e < 0 {
				return i, len(src)
			}
			return i, n + e + 1
		}
		i += 2
	}
}

// scriptEnd is rawTextEnd for a script element: the end is found the way a browser finds
// it (jsscan.ScriptDataEnd), so "<!--<script>" inside an inline script is honoured.
func scriptEnd(src string, from int) (textEnd, after int) {
	k := jsscan.ScriptDataEnd(src[from:])
	if k < 0 {
		return len(src), len(src)
	}
	textEnd = from + k
	if e := strings.IndexByte(src[textEnd:], '>'); e >= 0 {
		return textEnd, textEnd + e + 1
	}
	return textEnd, len(src)
}

// commentEnd returns the offset after the HTML comment that starts at src[i:] == "<!--".
func commentEnd(src string, i int) int {
	j := i + 4
	if strings.HasPrefix(src[j:], ">") {
		return j + 1
	}
	if strings.HasPrefix(src[j:], "->") {
		return j + 2
	}
	for k := j; k < len(src); {
		e := strings.Index(src[k:], "--")
		if e < 0 {
			break
		}
		k += e
		if strings.HasPrefix(src[k:], "-->") {
			return k + 3
		}
		if strings.HasPrefix(src[k:], "--!>") {
			return k + 4
		}
		k++
	}
	return len(src)
}

// writeTag writes tag t with some attributes replaced or removed: set maps attribute index
// to its new value (written as name="value"), drop lists indexes to omit.
func writeTag(b *strings.Builder, src string, t htmlTag, set map[int]string, drop map[int]bool) {
	last := t.start
	for i, a := range t.attrs {
		v, isSet := set[i]
		if !isSet && !drop[i] {
			continue
		}
		b.WriteString(src[last:a.start])
		if isSet {
			b.WriteByte(' ')
			b.WriteString(a.name)
			b.WriteString(`="`)
			b.WriteString(escapeAttr(v))
			b.WriteByte('"')
		}
		last = a.end
	}
	b.WriteString(src[last:t.end])
}

// escapeAttr escapes a value for a double-quoted attribute.
func escapeAttr(s string) string {
	if !strings.ContainsAny(s, `&"<>'`) {
		return s
	}
	return html.EscapeString(s)
}
