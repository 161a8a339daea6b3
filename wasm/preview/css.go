package preview

import (
	"strings"

	"github.com/webcoding/studio/wasm/preview/cssscan"
)

// MaxCSSImports is the number of @import rules inlined under one linked stylesheet; the next
// one becomes the comment "Skipped workspace @import limit at: X" (REFERENCE §4, §5.2).
const MaxCSSImports = 32

// cssRootState is the inlining state of one stylesheet (linked, or an inline <style>).
type cssRootState struct {
	imports int      // @imports inlined so far under this root
	chain   []string // paths of the files being inlined, outermost first
	// hoisted are external @import rules, moved to the top of the emitted sheet (an @import
	// after inlined rules would be ignored by the browser).
	hoisted strings.Builder
}

// inlineStylesheet returns the text of the CSS file at path with its @imports inlined and its
// url() references rewritten (REFERENCE §5.2 step 1).
func (c *compiler) inlineStylesheet(path string) string {
	f := c.ix.text(path, LangCSS)
	if f == nil {
		return ""
	}
	return c.inlineCSSText(cssFileText(f.Source), path)
}

// cssFileText is the text of a CSS file as the browser decodes it: without a leading UTF-8
// byte order mark (CSS Syntax section 3.2, "decode" takes it off). Inlined as a <style>'s
// text, a BOM would be a character of the first selector, and that rule would be dropped
// (e2e/fidelity css-bom; chroma.js's docs). An inline <style> keeps its text as written.
func cssFileText(src string) string { return strings.TrimPrefix(src, "\ufeff") }

// inlineCSSText is inlineStylesheet for CSS text that belongs to the file at path (an
// inline <style> belongs to the entry).
func (c *compiler) inlineCSSText(src, path string) string {
	var b strings.Builder
	st := &cssRootState{}
	c.inlineCSS(&b, src, path, st, false)
	if st.hoisted.Len() == 0 {
		return b.String()
	}
	return st.hoisted.String() + b.String()
}

// inlineCSS writes the CSS text src of the file at path. Recursion depth is bounded by
// MaxCSSImports. An inlined @import keeps its conditions (CSS Cascade 5 "@import"): layer or
// layer(name) → @layer [name] { … }, supports(cond) → @supports (cond) { … }, a media list →
// @media list { … }. External @imports are kept as written (the preview's network policy
// decides) and hoisted to the top of the sheet.
func (c *compiler) inlineCSS(b *strings.Builder, src, path string, st *cssRootState, nested bool) {
	st.chain = append(st.chain, path)
	defer func() { st.chain = st.chain[:len(st.chain)-1] }()
	res := cssscan.Scan(src)
	last := 0
	for _, r := range res.Refs {
		b.WriteString(src[last:r.Start])
		last = r.End
		switch r.Kind {
		case cssscan.Import:
			if classify(r.Value) == refExternal {
				st.hoisted.WriteString(src[r.Start:r.End])
				if !strings.HasSuffix(src[r.Start:r.End], ";") {
					st.hoisted.WriteByte(';')
				}
				st.hoisted.WriteByte('\n')
				continue
			}
			target, ok := resolvePath(r.Value, path)
			var tf *File
			if ok {
				tf = c.ix.text(target, LangCSS)
			}
			switch {
			case tf == nil:
				writeCSSComment(b, "Blocked unresolved workspace @import: ", r.Value)
			case inChain(st.chain, target):
				writeCSSComment(b, "Skipped cyclic workspace @import: ", r.Value)
			case st.imports >= MaxCSSImports:
				writeCSSComment(b, "Skipped workspace @import limit at: ", r.Value)
			default:
				st.imports++
				wrappers := importWrappers(r.Media)
				for _, w := range wrappers {
					b.WriteString(w)
					b.WriteString(" {\n")
				}
				c.inlineCSS(b, cssFileText(tf.Source), target, st, true)
				for range wrappers {
					b.WriteString("\n}")
				}
			}
		case cssscan.URL:
			b.WriteString(c.cssURL(r, src, path))
		}
	}
	b.WriteString(src[last:])
	if nested {
		b.WriteString(res.Tail)
	}
}

// cssURL returns the replacement of one url() reference of the CSS text src (of the file at
// path): the asset's URL, the virtual URL of a local reference that is no asset (preview
// only), or the reference as written.
func (c *compiler) cssURL(r cssscan.Ref, src, path string) string {
	u, ok := c.assetURLFor(r.Value, path)
	if !ok {
		u, ok = c.virtualRef(r.Value, path)
	}
	if !ok {
		return src[r.Start:r.End]
	}
	return `url("` + escapeCSSString(u) + `")`
}

// importWrappers splits the condition text after an @import URL into the block rules that
// keep its meaning, outermost first: [layer[(name)]] [supports(cond)] [media list].
func importWrappers(cond string) []string {
	var out []string
	s := strings.TrimSpace(cond)
	if len(s) >= 5 && strings.EqualFold(s[:5], "layer") && (len(s) == 5 || s[5] == '(' || isHTMLSpace(s[5])) {
		if len(s) > 5 && s[5] == '(' {
			inner, rest := parenGroup(s, 5)
			out = append(out, "@layer "+strings.TrimSpace(inner))
			s = strings.TrimSpace(rest)
		} else {
			out = append(out, "@layer")
			s = strings.TrimSpace(s[5:])
		}
	}
	if len(s) >= 9 && strings.EqualFold(s[:9], "supports(") {
		inner, rest := parenGroup(s, 8)
		out = append(out, "@supports ("+strings.TrimSpace(inner)+")")
		s = strings.TrimSpace(rest)
	}
	if s != "" {
		out = append(out, "@media "+s)
	}
	return out
}

// parenGroup splits s at the parenthesis that closes the one at s[open] (strings skipped):
// the text inside and the rest after it (an unclosed group runs to the end of s).
func parenGroup(s string, open int) (inner, rest string) {
	end := parenEnd(s, open)
	if end > open+1 && s[end-1] == ')' {
		return s[open+1 : end-1], s[end:]
	}
	return s[open+1:], ""
}

func parenEnd(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '"', '\'':
			if k := strings.IndexByte(s[i+1:], s[i]); k >= 0 {
				i += k + 1
			}
		}
	}
	return len(s)
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

// reachableCSS records diagnostic pass 5: the inline <style> elements, every linked
// stylesheet, then every stylesheet they @import (transitively, each file once): external
// @import → blocked, missing @import or url() → missing.
func (c *compiler) reachableCSS() {
	seen := map[string]bool{}
	var queue []string
	check := func(path, src string) {
		for _, r := range cssscan.Scan(src).Refs {
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
	for _, text := range c.cssInline {
		check(c.entryPath, text)
	}
	for _, p := range c.cssRoots {
		if !seen[p] {
			seen[p] = true
			queue = append(queue, p)
		}
	}
	for i := 0; i < len(queue); i++ {
		path := queue[i]
		if f := c.ix.text(path, LangCSS); f != nil {
			check(path, f.Source)
		}
	}
}
