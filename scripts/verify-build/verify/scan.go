package verify

import (
	"html"
	"strings"
)

// rawText are the elements whose content is not markup (HTML §13.1.2 raw text and escapable
// raw text elements that matter here).
var rawText = map[string]bool{"script": true, "style": true, "textarea": true, "title": true, "xmp": true, "noembed": true, "noframes": true}

// urlMetas are the <meta> names whose content is the URL of an asset the page loads: the
// studio wasm, and axe-core's bundle (fetched when an accessibility audit is asked).
var urlMetas = map[string]bool{"webcoding-wasm": true, "webcoding-axe": true}

// linkTags are elements whose href/action navigates instead of loading a resource.
var linkTags = map[string]bool{"a": true, "area": true, "form": true}

// HTMLRefs scans an HTML document and returns every URL it references: src, href, srcset
// (each candidate), poster, data (object), action/formaction, background, the content of
// <meta name="webcoding-wasm"> and <meta name="webcoding-axe">, the url()s of <style> elements and style attributes. The
// <base href> is applied to the other references by the caller through the document path, so
// it is returned as a resource as well. Attribute values are entity-decoded.
func HTMLRefs(b []byte) []Ref {
	s := string(b)
	var refs []Ref
	add := func(u, kind, where string) { refs = append(refs, Ref{URL: u, Kind: kind, Where: where}) }
	i := 0
	for i < len(s) {
		lt := strings.IndexByte(s[i:], '<')
		if lt < 0 {
			break
		}
		i += lt
		rest := s[i:]
		switch {
		case strings.HasPrefix(rest, "<!--"):
			end := strings.Index(rest[4:], "-->")
			if end < 0 {
				return refs
			}
			i += 4 + end + 3
			continue
		case strings.HasPrefix(rest, "<!") || strings.HasPrefix(rest, "<?"):
			end := strings.IndexByte(rest, '>')
			if end < 0 {
				return refs
			}
			i += end + 1
			continue
		case strings.HasPrefix(rest, "</"):
			end := strings.IndexByte(rest, '>')
			if end < 0 {
				return refs
			}
			i += end + 1
			continue
		}
		if len(rest) < 2 || !isASCIILetter(rest[1]) {
			i++
			continue
		}
		name, attrs, n := parseTag(rest)
		i += n
		base := "<" + name + " "
		var metaName, metaContent string
		for _, a := range attrs {
			switch a.key {
			case "src", "poster", "data", "background", "manifest":
				add(a.val, kindResource, base+a.key+">")
			case "href":
				if name == "base" {
					add(a.val, kindResource, "<base href>")
					continue
				}
				kind := kindResource
				if linkTags[name] {
					kind = kindLink
				}
				add(a.val, kind, base+"href>")
			case "action", "formaction":
				add(a.val, kindLink, base+a.key+">")
			case "srcset", "imagesrcset":
				for _, c := range strings.Split(a.val, ",") {
					f := strings.Fields(c)
					if len(f) > 0 {
						add(f[0], kindResource, base+a.key+">")
					}
				}
			case "style":
				for _, u := range CSSRefs([]byte(a.val)) {
					add(u, kindResource, base+"style> url()")
				}
			case "name":
				metaName = a.val
			case "content":
				metaContent = a.val
			}
		}
		if name == "meta" && urlMetas[strings.ToLower(metaName)] {
			add(metaContent, kindResource, `<meta name="`+strings.ToLower(metaName)+`">`)
		}
		if rawText[name] {
			closing := "</" + name
			end := indexFold(s[i:], closing)
			body := s[i:]
			if end >= 0 {
				body = s[i : i+end]
			}
			if name == "style" {
				for _, u := range CSSRefs([]byte(body)) {
					add(u, kindResource, "<style> url()")
				}
			}
			if end < 0 {
				return refs
			}
			i += end
		}
	}
	return refs
}

type attr struct{ key, val string }

// parseTag parses the start tag at the beginning of s ("<name …>") and returns the lowercase
// tag name, its attributes (lowercase keys, entity-decoded values) and the bytes consumed.
func parseTag(s string) (string, []attr, int) {
	i := 1
	for i < len(s) && !isSpace(s[i]) && s[i] != '>' && s[i] != '/' {
		i++
	}
	name := strings.ToLower(s[1:i])
	var attrs []attr
	for i < len(s) {
		for i < len(s) && (isSpace(s[i]) || s[i] == '/') {
			i++
		}
		if i >= len(s) {
			break
		}
		if s[i] == '>' {
			return name, attrs, i + 1
		}
		k := i
		for i < len(s) && !isSpace(s[i]) && s[i] != '>' && s[i] != '=' && s[i] != '/' {
			i++
		}
		if i == k { // a stray '=' etc.
			i++
			continue
		}
		key := strings.ToLower(s[k:i])
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		val := ""
		if i < len(s) && s[i] == '=' {
			i++
			for i < len(s) && isSpace(s[i]) {
				i++
			}
			if i < len(s) && (s[i] == '"' || s[i] == '\'') {
				q := s[i]
				end := strings.IndexByte(s[i+1:], q)
				if end < 0 {
					val = s[i+1:]
					i = len(s)
				} else {
					val = s[i+1 : i+1+end]
					i += end + 2
				}
			} else {
				v := i
				for i < len(s) && !isSpace(s[i]) && s[i] != '>' {
					i++
				}
				val = s[v:i]
			}
		}
		attrs = append(attrs, attr{key: key, val: html.UnescapeString(val)})
	}
	return name, attrs, len(s)
}

// CSSRefs returns the URLs of url(…) tokens and of @import "…" strings in a stylesheet,
// ignoring comments and other strings. Escapes inside a URL are resolved for the common
// "\X" form.
func CSSRefs(b []byte) []string {
	s := string(b)
	var out []string
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return out
			}
			i += 2 + end + 2
		case c == '"' || c == '\'':
			_, n := cssString(s[i:])
			i += n
		case c == '@' && hasPrefixFold(s[i:], "@import"):
			i += len("@import")
			for i < len(s) && isSpace(s[i]) {
				i++
			}
			if i < len(s) && (s[i] == '"' || s[i] == '\'') {
				v, n := cssString(s[i:])
				out = append(out, v)
				i += n
			}
		case (c == 'u' || c == 'U') && hasPrefixFold(s[i:], "url(") && (i == 0 || !isIdent(s[i-1])):
			i += 4
			for i < len(s) && isSpace(s[i]) {
				i++
			}
			if i < len(s) && (s[i] == '"' || s[i] == '\'') {
				v, n := cssString(s[i:])
				out = append(out, v)
				i += n
				if end := strings.IndexByte(s[i:], ')'); end >= 0 {
					i += end + 1
				}
				continue
			}
			var sb strings.Builder
			for i < len(s) && s[i] != ')' {
				if s[i] == '\\' && i+1 < len(s) {
					sb.WriteByte(s[i+1])
					i += 2
					continue
				}
				sb.WriteByte(s[i])
				i++
			}
			out = append(out, strings.TrimSpace(sb.String()))
			if i < len(s) {
				i++
			}
		default:
			i++
		}
	}
	return out
}

// cssString reads a quoted CSS string at the start of s and returns its value and length.
func cssString(s string) (string, int) {
	q := s[0]
	var sb strings.Builder
	i := 1
	for i < len(s) {
		switch s[i] {
		case q:
			return sb.String(), i + 1
		case '\\':
			if i+1 < len(s) {
				if s[i+1] != '\n' {
					sb.WriteByte(s[i+1])
				}
				i += 2
				continue
			}
		case '\n':
			return sb.String(), i // unterminated string ends at the newline
		}
		sb.WriteByte(s[i])
		i++
	}
	return sb.String(), i
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isIdent(c byte) bool {
	return isASCIILetter(c) || c >= '0' && c <= '9' || c == '-' || c == '_' || c >= 0x80
}

func hasPrefixFold(s, p string) bool { return len(s) >= len(p) && asciiEqualFold(s[:len(p)], p) }

// indexFold is strings.Index with ASCII case folding; unlike lowering the whole string it keeps
// byte offsets intact for any input (strings.ToLower rewrites invalid UTF-8 and some runes to
// encodings of another length).
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if asciiEqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

func asciiEqualFold(a, b string) bool {
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
