package pagerefs

import (
	"html"
	"strings"

	"github.com/webcoding/studio/wasm/preview/cssscan"
	"github.com/webcoding/studio/wasm/preview/jsscan"
)

// AssetTag reports whether an HTML element's data/href/poster/src/background attributes may
// name a file (REFERENCE §5.2 step 3; iframe, input type=image and the legacy background
// attribute of body/table/td/th/tr added by design.md §5.26). name is ASCII lower case.
func AssetTag(name string) bool {
	switch name {
	case "audio", "embed", "image", "img", "link", "object", "source", "track", "video", "input", "iframe",
		"body", "table", "td", "th", "tr":
		return true
	}
	return false
}

// AssetAttr reports whether an attribute (ASCII lower case) of an AssetTag or SVGRefTag
// element names a file: data, href, poster, src, xlink:href, background.
func AssetAttr(name string) bool {
	switch name {
	case "data", "href", "poster", "src", "xlink:href", "background":
		return true
	}
	return false
}

// SVGRefTag reports whether an SVG element's href (or xlink:href) names a file: an image, an
// external <use> ("icons.svg#home") and a filter image.
func SVGRefTag(name string) bool { return name == "image" || name == "use" || name == "feimage" }

// RefAttr reports whether attribute attr of element tag (both ASCII lower case) holds one URL
// the preview resolves: AssetAttr on AssetTag and SVGRefTag elements (xlink:href only on the
// latter), and src/href on any element (script src, a/area href, frames).
func RefAttr(tag, attr string) bool {
	if attr == "src" || attr == "href" {
		return true
	}
	isAsset := AssetTag(tag) || SVGRefTag(tag)
	return isAsset && AssetAttr(attr) && (attr != "xlink:href" || SVGRefTag(tag))
}

// Span is a byte range [Start, End) of a scanned string.
type Span struct{ Start, End int }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// Srcset returns the spans of the candidate URLs of a srcset attribute value v, in order
// (HTML "parse a srcset attribute": candidates separated by commas, each a URL followed by
// optional descriptors; a URL's trailing commas are not part of it; descriptors run to the
// next comma outside parentheses). Empty URLs are left out. Linear in len(v).
func Srcset(v string) []Span {
	var out []Span
	i := 0
	for i < len(v) {
		for i < len(v) && (isSpace(v[i]) || v[i] == ',') {
			i++
		}
		j := i
		for j < len(v) && !isSpace(v[j]) {
			j++
		}
		end := j
		for end > i && v[end-1] == ',' {
			end--
		}
		if end > i {
			out = append(out, Span{i, end})
		}
		if end < j {
			i = j
			continue
		}
		depth := 0
		for j < len(v) && !(v[j] == ',' && depth == 0) {
			switch v[j] {
			case '(':
				depth++
			case ')':
				if depth > 0 {
					depth--
				}
			}
			j++
		}
		i = j
	}
	return out
}

// Scan returns the references of an HTML page src as written (entities decoded, not
// resolved), in source order: RefAttr attributes, srcset URLs of img and source, url() in a
// style attribute, url() and @import in <style> text, and in <script> text without a src the
// module references jsscan.FindRefs finds (static imports and import("literal")). Comments are
// skipped, the first of repeated attributes wins (as in HTML), and the text of textarea,
// title, xmp, noembed, noframes and plaintext is not markup. Time is linear in len(src) apart
// from the scanners' own linear passes.
func Scan(src string) []string {
	var out []string
	css := func(text string, withImports bool) {
		for _, r := range cssscan.Scan(text).Refs {
			if r.Kind == cssscan.URL || withImports {
				out = append(out, r.Value)
			}
		}
	}
	i := 0
	for {
		k := strings.IndexByte(src[i:], '<')
		if k < 0 {
			return out
		}
		i += k
		rest := src[i:]
		switch {
		case strings.HasPrefix(rest, "<!--"):
			e := strings.Index(rest[4:], "-->")
			if e < 0 {
				return out
			}
			i += 4 + e + 3
			continue
		case len(rest) > 1 && (rest[1] == '!' || rest[1] == '?' || rest[1] == '/'):
			e := strings.IndexByte(rest, '>')
			if e < 0 {
				return out
			}
			i += e + 1
			continue
		case len(rest) < 2 || !isAlpha(rest[1]):
			i++
			continue
		}
		name, attrs, end, ok := startTag(src, i)
		if !ok {
			return out
		}
		i = end
		seen := map[string]bool{}
		hasSrc := false
		for _, a := range attrs {
			if seen[a[0]] {
				continue
			}
			seen[a[0]] = true
			switch {
			case a[0] == "style":
				if strings.Contains(strings.ToLower(a[1]), "url(") {
					css(a[1], false)
				}
			case a[0] == "srcset" && (name == "img" || name == "source"):
				for _, s := range Srcset(a[1]) {
					out = append(out, a[1][s.Start:s.End])
				}
			case RefAttr(name, a[0]):
				hasSrc = hasSrc || a[0] == "src"
				out = append(out, a[1])
			}
		}
		switch name {
		case "style":
			text, after := rawText(src, i, "style")
			css(text, true)
			i = after
		case "script":
			e := jsscan.ScriptDataEnd(src[i:])
			if e < 0 {
				e = len(src) - i
			}
			text := src[i : i+e]
			if !hasSrc && (strings.Contains(text, "import") || strings.Contains(text, "export")) {
				for _, r := range jsscan.FindRefs(text) {
					out = append(out, r.Value)
				}
			}
			i += e
		case "textarea", "title", "xmp", "noembed", "noframes", "iframe", "noscript":
			if name == "iframe" || name == "noscript" {
				break // their text is markup to this scan (harmless either way)
			}
			_, i = rawText(src, i, name)
		case "plaintext":
			return out
		}
	}
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// rawText returns the text from i to the end tag "</name" (ASCII case-insensitive) and the
// offset of that end tag (len(src) when there is none).
func rawText(src string, i int, name string) (string, int) {
	for j := i; ; {
		k := strings.Index(src[j:], "</")
		if k < 0 {
			return src[i:], len(src)
		}
		j += k
		if len(src)-j-2 >= len(name) && strings.EqualFold(src[j+2:j+2+len(name)], name) {
			return src[i:j], j
		}
		j += 2
	}
}

// startTag reads the start tag at src[i] == '<' following the HTML tokenizer's tag,
// attribute-name and attribute-value states: the lower-case name, the attributes as
// {lower-case name, entity-decoded value}, and the offset after '>'. ok is false when the
// input ends inside the tag.
func startTag(src string, i int) (name string, attrs [][2]string, end int, ok bool) {
	j := i + 1
	for j < len(src) && !isSpace(src[j]) && src[j] != '/' && src[j] != '>' {
		j++
	}
	name = strings.ToLower(src[i+1 : j])
	for {
		for j < len(src) && (isSpace(src[j]) || src[j] == '/') {
			j++
		}
		if j >= len(src) {
			return name, attrs, 0, false
		}
		if src[j] == '>' {
			return name, attrs, j + 1, true
		}
		k := j + 1 // an attribute name may start with '='
		for k < len(src) && !isSpace(src[k]) && src[k] != '/' && src[k] != '>' && src[k] != '=' {
			k++
		}
		an := strings.ToLower(src[j:k])
		j = k
		for j < len(src) && isSpace(src[j]) {
			j++
		}
		val := ""
		if j < len(src) && src[j] == '=' {
			j++
			for j < len(src) && isSpace(src[j]) {
				j++
			}
			if j < len(src) && (src[j] == '"' || src[j] == '\'') {
				q := strings.IndexByte(src[j+1:], src[j])
				if q < 0 {
					return name, attrs, 0, false
				}
				val = src[j+1 : j+1+q]
				j += q + 2
			} else {
				k := j
				for k < len(src) && !isSpace(src[k]) && src[k] != '>' {
					k++
				}
				val = src[j:k]
				j = k
			}
		}
		if strings.IndexByte(val, '&') >= 0 {
			val = html.UnescapeString(val)
		}
		attrs = append(attrs, [2]string{an, val})
	}
}
