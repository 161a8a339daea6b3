package preview

import (
	"encoding/base64"
	"strings"

	"github.com/webcoding/studio/wasm/preview/jsscan"
)

// compiler holds the state of one Compile or Diagnose call.
type compiler struct {
	ix       *index
	opts     Options
	diagOnly bool // Diagnose: record diagnostics, skip expensive output (inlining, data: URLs)
	diags    diagSink
	assets   map[string]assetURL
	cssRoots []string // linked stylesheets in document order (diagnostic pass 5)
}

type assetURL struct {
	url string
	ok  bool
}

func newCompiler(files []File, opts Options, diagOnly bool) *compiler {
	return &compiler{ix: newIndex(files), opts: opts, diagOnly: diagOnly, assets: map[string]assetURL{}}
}

// assetTags are the elements whose data/href/poster/src attributes may name an asset
// (REFERENCE §5.2 step 3).
var assetTags = map[string]bool{
	"audio": true, "embed": true, "image": true, "img": true, "link": true,
	"object": true, "source": true, "track": true, "video": true,
}

var assetAttrs = map[string]bool{"data": true, "href": true, "poster": true, "src": true}

// rawTextTags are elements whose content the HTML parser does not tokenize as markup; their
// text is copied through untouched.
var rawTextTags = map[string]bool{
	"style": true, "textarea": true, "title": true, "xmp": true, "iframe": true,
	"noembed": true, "noframes": true, "noscript": true,
}

// assetURLFor resolves raw (referenced from fromPath) to a workspace asset and returns the URL
// the document uses for it.
func (c *compiler) assetURLFor(raw, fromPath string) (string, bool) {
	p, ok := resolvePath(raw, fromPath)
	if !ok {
		return "", false
	}
	f := c.ix.get(p)
	if f == nil || f.Kind != KindAsset {
		return "", false
	}
	if c.diagOnly {
		return "", false
	}
	if a, done := c.assets[p]; done {
		return a.url, a.ok
	}
	var a assetURL
	if c.opts.AssetURL != nil {
		a.url, a.ok = c.opts.AssetURL(*f)
		a.url = strings.ToValidUTF8(a.url, "\uFFFD")
	} else {
		a.url, a.ok = DataURL(*f), true
	}
	c.assets[p] = a
	return a.url, a.ok
}

// DataURL returns the data: URL of an asset: "data:<mime>;base64,<data>", with
// "application/octet-stream" when MimeType is empty.
func DataURL(f File) string {
	mime := f.MimeType
	if mime == "" {
		mime = "application/octet-stream"
	}
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(f.Data)
}

// checkLocal records a pass diagnostic for raw referenced from source: external → blocked
// (unless allowExternal), local without any workspace file → missing. It returns the resolved
// path and whether raw is a local reference that resolved to an existing file.
func (c *compiler) checkLocal(pass int, label, source, raw string, allowExternal bool) (string, bool) {
	req := trimRef(raw)
	switch classify(raw) {
	case refIgnored:
		return "", false
	case refExternal:
		if !allowExternal {
			c.diags.external(pass, label, source, req)
		}
		return "", false
	}
	p, ok := resolvePath(raw, source)
	if !ok || c.ix.get(p) == nil {
		c.diags.missing(pass, label, source, req)
		return "", false
	}
	return p, true
}

// document rewrites the entry (REFERENCE §5.2) in one pass over its markup and records the
// diagnostics of passes 1–4.
func (c *compiler) document(entry *File) string {
	src := entry.Source
	var b strings.Builder
	if !c.diagOnly {
		// Inlined stylesheets and scripts come from the other text files: one allocation
		// of that size avoids repeated growth (module maps and data: URLs may still grow it).
		b.Grow(len(src) + c.ix.textBytes + len(src)/4 + 8192)
	}
	afterHead, beforeBody, afterHTML, afterDoctype, firstScript := -1, -1, -1, -1, -1
	lead := len(src) - len(strings.TrimLeft(src, " \t\n\r\f")) // offset of the first non-space byte
	pos := 0
	for pos < len(src) {
		k := strings.IndexByte(src[pos:], '<')
		if k < 0 {
			b.WriteString(src[pos:])
			break
		}
		i := pos + k
		b.WriteString(src[pos:i])
		switch {
		case strings.HasPrefix(src[i:], "<!--"):
			end := commentEnd(src, i)
			b.WriteString(src[i:end])
			pos = end
		case i+1 < len(src) && (src[i+1] == '!' || src[i+1] == '?' || src[i+1] == '/'):
			end := len(src)
			if e := strings.IndexByte(src[i+1:], '>'); e >= 0 {
				end = i + 1 + e + 1
			}
			b.WriteString(src[i:end])
			if src[i+1] == '!' && afterDoctype < 0 && i == lead &&
				len(src)-i >= 9 && strings.EqualFold(src[i+2:i+9], "doctype") {
				afterDoctype = b.Len()
			}
			pos = end
		case i+1 < len(src) && isAlpha(src[i+1]):
			t, ok := parseStartTag(src, i)
			if !ok {
				b.WriteString(src[i:])
				pos = len(src)
				break
			}
			pos = t.end
			switch {
			case t.name == "head":
				b.WriteString(src[t.start:t.end])
				if afterHead < 0 {
					afterHead = b.Len()
				}
			case t.name == "body":
				if beforeBody < 0 {
					beforeBody = b.Len()
				}
				b.WriteString(src[t.start:t.end])
			case t.name == "html":
				b.WriteString(src[t.start:t.end])
				if afterHTML < 0 {
					afterHTML = b.Len()
				}
			case t.name == "link" && c.isStylesheetLink(t):
				c.stylesheetLink(&b, entry.Path, src, t)
			case t.name == "script":
				if firstScript < 0 {
					firstScript = b.Len()
				}
				textEnd, after := scriptEnd(src, t.end)
				c.script(&b, entry.Path, src, t, src[t.end:textEnd], src[textEnd:after])
				pos = after
			case assetTags[t.name]:
				c.assetTag(&b, entry.Path, src, t)
			case rawTextTags[t.name]:
				_, after := rawTextEnd(src, t.end, t.name)
				b.WriteString(src[t.start:after])
				pos = after
			case t.name == "plaintext":
				b.WriteString(src[t.start:])
				pos = len(src)
			default:
				b.WriteString(src[t.start:t.end])
			}
		default:
			b.WriteByte('<')
			pos = i + 1
		}
	}
	if c.diagOnly {
		return ""
	}
	out := b.String()
	if !c.opts.Bridge {
		return out
	}
	at := 0
	switch {
	case afterHead >= 0:
		at = afterHead
	case beforeBody >= 0:
		at = beforeBody
	case afterHTML >= 0:
		at = afterHTML
	case afterDoctype >= 0:
		at = afterDoctype
	}
	if firstScript >= 0 && firstScript < at {
		// A script before that point (e.g. in a document without <head>) must already find
		// the bridge: its errors and its module import are reported through it.
		at = firstScript
	}
	return out[:at] + c.bridgeElement(entry) + out[at:]
}

// isStylesheetLink: rel contains "stylesheet" or href ends in ".css" (query/hash allowed).
func (c *compiler) isStylesheetLink(t htmlTag) bool {
	if rel, _, ok := t.attr("rel"); ok && strings.Contains(strings.ToLower(rel.value), "stylesheet") {
		return true
	}
	href, _, ok := t.attr("href")
	if !ok {
		return false
	}
	h := trimRef(href.value)
	if i := strings.IndexAny(h, "?#"); i >= 0 {
		h = h[:i]
	}
	return strings.HasSuffix(strings.ToLower(h), ".css")
}

// stylesheetLink replaces a stylesheet link by an inline <style> or removes it.
func (c *compiler) stylesheetLink(b *strings.Builder, fromPath, src string, t htmlTag) {
	href, _, ok := t.attr("href")
	if !ok {
		return
	}
	p, ok := c.checkLocal(passLinks, labelStylesheet, fromPath, href.value, false)
	if !ok || c.ix.text(p, LangCSS) == nil {
		return
	}
	c.cssRoots = append(c.cssRoots, p)
	if c.diagOnly {
		return
	}
	b.WriteString(`<style data-workspace-source="`)
	b.WriteString(escapeAttr(p))
	b.WriteByte('"')
	if media, _, ok := t.attr("media"); ok {
		b.WriteString(` media="`)
		b.WriteString(escapeAttr(media.value))
		b.WriteByte('"')
	}
	b.WriteByte('>')
	b.WriteString(escapeStyleText(c.inlineStylesheet(p)))
	b.WriteString("</style>")
}

// script handles one <script> element: text is its content, endTag its end tag as written.
func (c *compiler) script(b *strings.Builder, fromPath, src string, t htmlTag, text, endTag string) {
	typ, _, _ := t.attr("type")
	isModule := strings.EqualFold(strings.TrimSpace(typ.value), "module")
	srcAttr, srcIdx, hasSrc := t.attr("src")
	if !hasSrc {
		if !isModule {
			b.WriteString(src[t.start:t.end])
			b.WriteString(text)
			b.WriteString(endTag)
			return
		}
		c.moduleBootstrap(b, InlineModuleKeyPrefix+fromPath, "", text, fromPath)
		return
	}
	p, ok := c.checkLocal(passScripts, labelScript, fromPath, srcAttr.value, false)
	if !ok {
		return
	}
	f := c.ix.text(p, LangJS)
	if f == nil {
		return
	}
	if isModule {
		c.moduleBootstrap(b, moduleSpecifier(p), p, f.Source, p)
		return
	}
	if c.diagOnly {
		return
	}
	writeTag(b, src, t, nil, map[int]bool{srcIdx: true})
	b.WriteString(jsscan.EscapeClassicScript(f.Source))
	b.WriteString("</script>")
}

// assetTag rewrites data/href/poster/src attributes that name a workspace asset.
func (c *compiler) assetTag(b *strings.Builder, fromPath, src string, t htmlTag) {
	var set map[int]string
	seen := map[string]bool{}
	for i, a := range t.attrs {
		if !assetAttrs[a.name] || seen[a.name] {
			continue
		}
		seen[a.name] = true
		if _, ok := c.checkLocal(passAssets, labelAsset, fromPath, a.value, true); !ok {
			continue
		}
		if u, ok := c.assetURLFor(a.value, fromPath); ok {
			if set == nil {
				set = map[int]string{}
			}
			set[i] = u
		}
	}
	if c.diagOnly {
		return
	}
	writeTag(b, src, t, set, nil)
}

// diagnostics runs pass 5 (reachable CSS) and returns the deduplicated list.
func (c *compiler) diagnostics(entry *File) []Diagnostic {
	c.reachableCSS()
	return c.diags.list()
}
