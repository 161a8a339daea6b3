package preview

import (
	"strings"

	"github.com/webcoding/studio/wasm/preview/cssscan"
)

// MaxCSSImports is the number of @import rules inlined under one linked stylesheet; the next
// one becomes the comment "Skipped workspace @import limit at: X" (REFERENCE §4, §5.2).
const MaxCSSImports = 32

// cssRootState is the inlining state of one linked stylesheet.
type cssRootState struct {
	imports int      // @imports inlined so far under this root
	chain   []string // paths of the files being inlined, outermost first
}

// inlineStylesheet returns the text of the CSS file at path with its @imports inlined and its
// url() references rewritten (REFERENCE §5.2 step 1).
func (c *compiler) inlineStylesheet(path string) string {
	var b strings.Builder
	st := &cssRootState{}
	c.inlineCSS(&b, path, st, false)
	return b.String()
}

// inlineCSS writes the CSS file at path. Recursion depth is bounded by MaxCSSImports.
func (c *compiler) inlineCSS(b *strings.Builder, path string, st *cssRootState, nested bool) {
	f := c.ix.text(path, LangCSS)
	if f == nil {
		return
	}
	src := f.Source
	st.chain = append(st.chain, path)
	defer func() { st.chain = st.chain[:len(st.chain)-1] }()
	res := cssscan.Scan(src)
	last := 0
	for _, r := range res.Refs {
		b.WriteString(src[last:r.Start])
		last = r.End
		switch r.Kind {
		case cssscan.Import:
			target, ok := resolvePath(r.Value, path)
			if ok && c.ix.text(target, LangCSS) == nil {
				ok = false
			}
			switch {
			case !ok:
				writeCSSComment(b, "Blocked unresolved workspace @import: ", r.Value)
			case inChain(st.chain, target):
				writeCSSComment(b, "Skipped cyclic workspace @import: ", r.Value)
			case st.imports >= MaxCSSImports:
				writeCSSComment(b, "Skipped workspace @import limit at: ", r.Value)
			default:
				st.imports++
				if r.Media != "" {
					b.WriteString("@media ")
					b.WriteString(r.Media)
					b.WriteString(" {\n")
				}
				c.inlineCSS(b, target, st, true)
				if r.Media != "" {
					b.WriteString("\n}")
				}
			}
		case cssscan.URL:
			if u, ok := c.assetURLFor(r.Value, path); ok {
				b.WriteString(`url("`)
				b.WriteString(escapeCSSString(u))
				b.WriteString(`")`)
			} else {
				b.WriteString(src[r.Start:r.End])
			}
		}
	}
	b.WriteString(src[last:])
	if nested {
		b.WriteString(res.Tail)
	}
}

func inChain(chain []string, p string) bool {
	for _, q := range chain {
		if q == p {
			return true
		}
	}
	return false
}

// writeCSSComment writes /* prefix + value */ with "*/" in value defused.
func writeCSSComment(b *strings.Builder, prefix, value string) {
	b.WriteString("/* ")
	b.WriteString(prefix)
	b.WriteString(strings.ReplaceAll(value, "*/", "*\\/"))
	b.WriteString(" */")
}

// escapeCSSString escapes s for a double-quoted CSS string.
func escapeCSSString(s string) string {
	if !strings.ContainsAny(s, "\"\\\n\r\f") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\a `)
		case '\r':
			b.WriteString(`\d `)
		case '\f':
			b.WriteString(`\c `)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// escapeStyleText keeps inlined CSS from ending its <style> element: every "</style"
// (ASCII case-insensitive) becomes "<\/style", which CSS reads the same inside strings, url()
// and comments (the only places it can appear in valid CSS).
func escapeStyleText(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; ; {
		k := strings.Index(s[i:], "</")
		if k < 0 {
			break
		}
		i += k
		if len(s)-i >= 7 && strings.EqualFold(s[i+2:i+7], "style") {
			if b.Len() == 0 {
				b.Grow(len(s) + 16)
			}
			b.WriteString(s[last : i+1])
			b.WriteByte('\\')
			last = i + 1
		}
		i += 2
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// reachableCSS records diagnostic pass 5: every linked stylesheet, then every stylesheet they
// @import (transitively, each file once): external @import → blocked, missing @import or
// url() → missing.
func (c *compiler) reachableCSS() {
	seen := map[string]bool{}
	var queue []string
	for _, p := range c.cssRoots {
		if !seen[p] {
			seen[p] = true
			queue = append(queue, p)
		}
	}
	for i := 0; i < len(queue); i++ {
		path := queue[i]
		f := c.ix.text(path, LangCSS)
		if f == nil {
			continue
		}
		for _, r := range cssscan.Scan(f.Source).Refs {
			if r.Kind == cssscan.Import {
				p, ok := c.checkLocal(passCSS, labelStylesheetImport, path, r.Value, false)
				if ok && c.ix.text(p, LangCSS) != nil && !seen[p] {
					seen[p] = true
					queue = append(queue, p)
				}
				continue
			}
			c.checkLocal(passCSS, labelAsset, path, r.Value, true)
		}
	}
}
