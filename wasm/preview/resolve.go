package preview

import (
	"strings"
	"unicode/utf8"
)

// refClass is how a raw reference is treated (REFERENCE §5.2 path rule, §5.4).
type refClass uint8

const (
	// refIgnored: empty, "#…", "data:", "blob:" or "javascript:" — never resolved, never diagnosed.
	refIgnored refClass = iota
	// refExternal: a scheme ("https:", "mailto:") or protocol-relative ("//host", also with
	// backslashes, which browsers treat as slashes).
	refExternal
	// refLocal: everything else; resolved against the workspace.
	refLocal
)

func classify(raw string) refClass {
	t := trimRef(raw)
	if t == "" || t[0] == '#' {
		return refIgnored
	}
	if n := schemeLen(t); n > 0 {
		switch strings.ToLower(t[:n]) {
		case "data", "blob", "javascript":
			return refIgnored
		}
		return refExternal
	}
	if len(t) >= 2 && (t[0] == '/' || t[0] == '\\') && (t[1] == '/' || t[1] == '\\') {
		return refExternal
	}
	return refLocal
}

// trimRef trims the whitespace that HTML and URL parsing ignore around a reference.
func trimRef(s string) string { return strings.TrimSpace(s) }

// schemeLen returns the length of a leading URL scheme (without ':'), or 0.
func schemeLen(s string) int {
	if s == "" || !isAlpha(s[0]) {
		return 0
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ':':
			return i
		case isAlpha(c) || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.':
		default:
			return 0
		}
	}
	return 0
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// resolvePath applies the shared path rule of REFERENCE §5.2 to raw, referenced from the file
// at fromPath: trim; only local references resolve; strip "?…" and "#…"; read "\" as "/";
// URI-decode (a malformed escape fails); a leading "/" is the workspace root, otherwise the
// reference is relative to fromPath's directory; "" and "." segments are dropped and ".." pops one segment
// (never above the root). The result is a workspace path, ok=false when nothing is left.
func resolvePath(raw, fromPath string) (string, bool) {
	if classify(raw) != refLocal {
		return "", false
	}
	t := trimRef(raw)
	if i := strings.IndexAny(t, "?#"); i >= 0 {
		t = t[:i]
	}
	// The URL parser reads "\" as "/" in the path of an http(s) URL (URL Standard, "path
	// state"), as the virtual origin is: `src="img\a.png"` names img/a.png. Before decoding, so
	// an escaped %5C stays part of a name.
	t = strings.ReplaceAll(t, "\\", "/")
	t, ok := decodeURIComponent(t)
	if !ok {
		return "", false
	}
	var segs []string
	if !strings.HasPrefix(t, "/") {
		if i := strings.LastIndexByte(fromPath, '/'); i >= 0 {
			segs = strings.Split(fromPath[:i], "/")
		}
	}
	for _, s := range strings.Split(t, "/") {
		switch s {
		case "", ".":
		case "..":
			if len(segs) > 0 {
				segs = segs[:len(segs)-1]
			}
		default:
			segs = append(segs, s)
		}
	}
	// Segments inherited from fromPath may themselves be "" or "."; normalise once more.
	out := segs[:0]
	for _, s := range segs {
		if s != "" && s != "." {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return "", false
	}
	return strings.Join(out, "/"), true
}

// decodeURIComponent decodes %XX escapes like JavaScript's decodeURIComponent: a '%' not
// followed by two hex digits, or escapes that do not form valid UTF-8, fail.
func decodeURIComponent(s string) (string, bool) {
	if strings.IndexByte(s, '%') < 0 {
		return s, true
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b = append(b, s[i])
			continue
		}
		if i+2 >= len(s) || !isHexDigit(s[i+1]) || !isHexDigit(s[i+2]) {
			return "", false
		}
		b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
		i += 2
	}
	if !utf8.Valid(b) {
		return "", false
	}
	return string(b), true
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// encodeURIComponent percent-encodes s like JavaScript's encodeURIComponent, except that
// "'" is encoded too (%27), so the result can sit inside any quoted JavaScript string.
func encodeURIComponent(s string) string {
	const hexd = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isAlpha(c) || c >= '0' && c <= '9' || strings.IndexByte("-_.!~*()", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hexd[c>>4])
		b.WriteByte(hexd[c&15])
	}
	return b.String()
}

// VirtualOrigin is the origin of the workspace inside the preview (the ".invalid" TLD never
// resolves, so a request that escapes the prelude reaches no server): the file at path "a/b.js"
// has the virtual URL "https://workspace.invalid/a/b.js" (VirtualURL). Module specifiers,
// import.meta.url and run-time URLs use it (issue 13; the preview contract).
const VirtualOrigin = "https://workspace.invalid"

// ModuleSpecifierPrefix prefixes the import-map key of every workspace module: VirtualOrigin
// and "/".
const ModuleSpecifierPrefix = VirtualOrigin + "/"

// VirtualURL returns ModuleSpecifierPrefix + path with each segment URI-encoded
// ("src/card file.js" → "https://workspace.invalid/src/card%20file.js").
func VirtualURL(path string) string {
	return ModuleSpecifierPrefix + sourceURLPath(path)
}
