package preview

import (
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/webcoding/studio/wasm/preview/cssscan"
	"github.com/webcoding/studio/wasm/preview/jsscan"
	"github.com/webcoding/studio/wasm/preview/pagerefs"
	"golang.org/x/net/html"
)

// compiler holds the state of one Compile or Diagnose call.
type compiler struct {
	ix       *index
	opts     Options
	diagOnly bool // Diagnose: record diagnostics, skip expensive output (inlining, data: URLs)
	diags    diagSink
	assets   map[string]assetURL
	cssRoots []string // linked stylesheets in document order (diagnostic pass 5)
	// cssInline are the texts of inline <style> elements (diagnostic pass 5, before cssRoots'
	// imports).
	cssInline []string
	// inTemplate counts the <template> elements open at the token document is at (their
	// inline scripts are kept as written, see script).
	inTemplate int
	mods       moduleGraph
	// entryPath is the path of the HTML entry (import map addresses resolve against it).
	entryPath string
	// lineOff/lineNo: the entry's 1-based line at byte offset lineOff (scriptLine counts on
	// from there, so the scripts of one document are counted in one pass).
	lineOff, lineNo int
	// shared: static references to workspace files are written as virtual URLs and every
	// asset is in the file table once; the runtime gives each a blob: URL made in the frame
	// before the first style recalc (preview with the bridge and no AssetURL; design.md §5.26).
	shared bool
	// embedAssets: while set, assets are written as data: URLs even when shared (CSS put into
	// a data: stylesheet URL, which the runtime cannot rewrite).
	embedAssets bool
	// baseFrom is the path relative references of the entry's markup resolve against when the
	// entry has a <base href> naming a workspace folder or file ("" otherwise), and baseURL
	// its virtual URL (the page's document.baseURI).
	baseFrom, baseURL string
	// sheetCount counts the stylesheet <style> elements written so far (each marked with
	// StyleMarkerAttr=its index; preview with the bridge only), sheetSpans are their texts'
	// offsets in the document before the head is inserted, and layout is set by bridgeElement
	// (StyleOnlyChange, design.md §5.33).
	sheetCount int
	sheetSpans []span
	// refresh is the entry's first <meta http-equiv="refresh"> naming a workspace URL (nil:
	// none), which the runtime follows (RuntimeConfig.Refresh).
	refresh *RuntimeRefresh
	layout  *docLayout
	// frames are the workspace pages the document's static <iframe>s show (frames.go), in
	// first-seen order; keepSrc leaves an attribute "src" as written (attrTagDrop).
	frames    []string
	frameSeen map[string]bool
	keepSrc   bool
	// nested: compiling a page for a frame (framePages): no runtime element, and splitAt is
	// where the nested runtime goes (bridgeOffset).
	nested  bool
	splitAt int
	// links: the workspace pages a nested page links to (<a>/<area href>), which its frame
	// may show next (framePages compiles them after the frames' pages).
	links []string
}

// ref returns the path a reference written in the file at from resolves against: the
// entry's <base href> target for the entry (markup, inline CSS and scripts), else from.
func (c *compiler) ref(from string) string {
	if c.baseFrom != "" && from == c.entryPath {
		return c.baseFrom
	}
	return from
}

// scriptLine is the 1-based line of src at byte offset off; calls come in document order.
func (c *compiler) scriptLine(src string, off int) int {
	if c.lineNo == 0 || off < c.lineOff {
		c.lineOff, c.lineNo = 0, 1
	}
	c.lineNo += strings.Count(src[c.lineOff:off], "\n")
	c.lineOff = off
	return c.lineNo
}

type assetURL struct {
	url string
	ok  bool
}

func newCompiler(files []File, opts Options, diagOnly bool) *compiler {
	return &compiler{ix: newIndex(files), opts: opts, diagOnly: diagOnly, assets: map[string]assetURL{},
		mods:   moduleGraph{target: map[string]string{}, byPath: map[string]string{}},
		shared: opts.Bridge && opts.AssetURL == nil}
}

// assetTag, assetAttr and svgRefTag are the shared rules of pagerefs (the folder import
// follows the same references): pagerefs.AssetTag, AssetAttr, SVGRefTag.
func assetTag(name string) bool  { return pagerefs.AssetTag(name) }
func assetAttr(name string) bool { return pagerefs.AssetAttr(name) }
func svgRefTag(name string) bool { return pagerefs.SVGRefTag(name) }

// documentBase reads the entry's first <base href> (HTML namespace; HTML uses the first one
// with an href) into baseFrom/baseURL when it names a workspace location: "sub/", "/sub/",
// "sub/page.html". An external base (another site) is left alone: every relative reference
// then points outside the workspace, as over HTTP.
func (c *compiler) documentBase(src string, toks []token) {
	for _, t := range toks {
		if t.name != "base" || t.foreign || (t.typ != html.StartTagToken && t.typ != html.SelfClosingTagToken) {
			continue
		}
		tag, ok := parseStartTag(src, t.start)
		if !ok {
			continue
		}
		href, _, ok := tag.attr("href")
		if !ok {
			continue
		}
		if classify(href.value) != refLocal {
			return
		}
		h := trimRef(href.value)
		if i := strings.IndexAny(h, "?#"); i >= 0 {
			h = h[:i]
		}
		dir := h == "" || strings.HasSuffix(h, "/")
		if dir {
			h += "x"
		}
		p, ok := resolvePath(h, c.entryPath)
		if !ok {
			return
		}
		c.baseFrom, c.baseURL = p, VirtualURL(p)
		if dir {
			c.baseURL = strings.TrimSuffix(c.baseURL, "x")
		}
		return
	}
}

// assetURLFor resolves raw (referenced from fromPath) to a workspace asset and returns the URL
// the document uses for it.
//
// Shared (the preview): the reference's virtual URL, query and fragment kept; the asset is in
// the file table once and the runtime serves it as a blob: URL.
func (c *compiler) assetURLFor(raw, fromPath string) (string, bool) {
	p, ok := resolvePath(raw, c.ref(fromPath))
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
	if c.shared && !c.embedAssets {
		return c.virtualRef(raw, fromPath)
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
// (unless allowExternal), local naming a folder file the import left out → not imported,
// local naming a path the workspace can never hold (ExcludedPath) → not imported with
// ExcludedMessage, local without any workspace file → missing, or, when the import could not name every folder
// file (index.unexamined), not imported with UnexaminedMessage. It returns the resolved
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
	p, ok := resolvePath(raw, c.ref(source))
	switch {
	case ok && c.ix.get(p) != nil:
		return p, true
	case ok && c.ix.notImported[p] != "":
		c.diags.notImported(pass, label, source, req, p, c.ix.notImported[p])
	case ok && ExcludedPath(p):
		c.diags.add(pass, DiagNotImported, label, source, req, ExcludedMessage(label, req, p))
	case ok && c.ix.unexamined != "":
		c.diags.add(pass, DiagNotImported, label, source, req, UnexaminedMessage(label, req, p, c.ix.unexamined))
	default:
		c.diags.missing(pass, label, source, req)
	}
	return "", false
}

// document rewrites the entry (REFERENCE §5.2) in one pass over its tokens (tokenize: the
// browser's tokenization, checked against a spec-conformant tree builder) and records the
// diagnostics of passes 1–4. The bridge goes at bridgeOffset.
func (c *compiler) document(entry *File) string {
	src := entry.Source
	var b strings.Builder
	if !c.diagOnly {
		// Inlined stylesheets and scripts come from the other text files: one allocation
		// of that size avoids repeated growth (module maps and data: URLs may still grow it).
		b.Grow(len(src) + c.ix.textBytes + len(src)/4 + 8192)
	}
	toks, _ := tokenize(src)
	c.entryPath = entry.Path
	c.documentBase(src, toks)
	c.pageImportMaps(src, toks)
	c.inTemplate = 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		raw := src[t.start:t.end]
		if t.typ == html.EndTagToken && t.name == "template" && !t.foreign && c.inTemplate > 0 {
			c.inTemplate--
		}
		if t.typ != html.StartTagToken && t.typ != html.SelfClosingTagToken {
			b.WriteString(raw)
			continue
		}
		if t.name == "template" && !t.foreign { // "<template/>" opens one too
			c.inTemplate++
		}
		if t.foreign {
			// SVG/MathML: only style attributes and the href of <image>, <use> and <feImage>
			// are rewritten.
			if tag, ok := parseStartTag(src, t.start); ok && tag.end == t.end && (svgRefTag(t.name) || strings.Contains(raw, "url(") || c.handlerMayNavigate(raw)) {
				c.attrTag(&b, entry.Path, src, tag)
			} else {
				b.WriteString(raw)
			}
			continue
		}
		tag, ok := parseStartTag(src, t.start)
		if !ok || tag.end != t.end {
			b.WriteString(raw)
			continue
		}
		if c.nested && (t.name == "a" || t.name == "area") {
			c.noteLink(entry.Path, tag)
		}
		switch {
		case t.name == "link" && c.isStylesheetLink(tag):
			c.stylesheetLink(&b, entry.Path, src, tag)
		case t.name == "script":
			var text, endTag string
			text, endTag, i = rawTextBody(src, toks, i, "script")
			c.script(&b, entry.Path, src, tag, text, endTag)
		case t.name == "style":
			var text, endTag string
			text, endTag, i = rawTextBody(src, toks, i, "style")
			c.styleElement(&b, entry.Path, src, tag, text, endTag)
		case t.name == "base" && c.baseURL != "" && c.opts.Bridge:
			// The page's own base, as its virtual URL: the parser and the runtime resolve
			// every relative URL of the page against it, as over HTTP.
			if _, i, ok := tag.attr("href"); ok {
				writeTag(&b, src, tag, map[int]string{i: c.baseURL}, nil)
			} else {
				b.WriteString(raw)
			}
		case t.name == "iframe" && c.framePage(entry.Path, tag) != "":
			c.iframeTag(&b, entry.Path, src, tag, c.framePage(entry.Path, tag))
		case t.name == "frame" && c.framePage(entry.Path, tag) != "":
			c.frameTag(&b, entry.Path, src, tag, c.framePage(entry.Path, tag))
		case t.name == "meta" && isRefresh(tag):
			c.metaRefresh(entry.Path, tag) // dropped: see metaRefresh
		case assetTag(t.name) || strings.Contains(raw, "url(") || c.handlerMayNavigate(raw):
			c.attrTag(&b, entry.Path, src, tag)
		default:
			b.WriteString(raw)
		}
	}
	if c.diagOnly {
		return ""
	}
	out := b.String()
	at := bridgeOffset(src, toks)
	c.allModules()
	head := c.importMapScript()
	if c.nested {
		c.splitAt = at
		return out[:at] + head + out[at:]
	}
	if c.opts.Bridge {
		head = c.bridgeElement(entry) + head
		c.placeLayout(at, len(head))
	}
	if head == "" {
		return out
	}
	return out[:at] + head + out[at:]
}

// pageImportMaps reads the entry's own <script type="importmap"> elements (HTML namespace,
// inline) into c.mods.page before any module script is walked.
func (c *compiler) pageImportMaps(src string, toks []token) {
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.name != "script" || t.foreign || (t.typ != html.StartTagToken && t.typ != html.SelfClosingTagToken) {
			continue
		}
		tag, ok := parseStartTag(src, t.start)
		if !ok || scriptKind(tag) != scriptImportMap || toks[i+1].typ != html.TextToken {
			continue
		}
		c.mods.page.add(src[toks[i+1].start:toks[i+1].end], c.entryPath)
	}
}

// Script element kinds (HTML "prepare the script element": the type attribute, else the
// language attribute, decides).
const (
	scriptClassic = iota
	scriptModule
	scriptImportMap
	scriptData // any other type: not executed
)

func scriptKind(t htmlTag) int {
	typ, _, hasType := t.attr("type")
	v := strings.ToLower(strings.TrimSpace(typ.value))
	if !hasType || typ.value == "" {
		if lang, _, ok := t.attr("language"); ok && lang.value != "" {
			v = "text/" + strings.ToLower(strings.TrimSpace(lang.value))
		} else {
			return scriptClassic
		}
	}
	switch v {
	case "module":
		return scriptModule
	case "importmap":
		return scriptImportMap
	case "text/javascript", "application/javascript", "application/ecmascript", "application/x-ecmascript",
		"application/x-javascript", "text/ecmascript", "text/javascript1.0", "text/javascript1.1",
		"text/javascript1.2", "text/javascript1.3", "text/javascript1.4", "text/javascript1.5",
		"text/jscript", "text/livescript", "text/x-ecmascript", "text/x-javascript":
		return scriptClassic
	}
	return scriptData
}

// bridgeOffset returns where the bridge goes in the entry (and in the output, whose prefix up
// to there is the input's): right after a doctype preceded only by a byte order mark,
// whitespace, NULs and comments, else at byte 0 (after a byte order mark). Nothing of the page can
// then run before the bridge, and the document mode is unchanged (a script before the doctype
// would switch to quirks mode).
func bridgeOffset(src string, toks []token) int {
	bom := 0
	if strings.HasPrefix(src, "\ufeff") {
		bom = len("\ufeff")
	}
	for _, t := range toks {
		switch t.typ {
		case html.CommentToken:
			continue
		case html.TextToken:
			s := src[t.start:t.end]
			if t.start == 0 {
				s = s[bom:]
			}
			if strings.TrimLeft(s, " \t\n\r\f\x00") == "" { // the parser drops NULs here
				continue
			}
		case html.DoctypeToken:
			if strings.HasSuffix(src[t.start:t.end], ">") {
				return t.end
			}
			// A doctype cut off by the end of input would swallow the bridge's tag.
		}
		break
	}
	return bom
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

// linkDropAttrs are the <link> attributes that do not carry over to the <style> replacing it.
// The href stays (as written): the runtime reads it for the style's href property and
// document.styleSheets[i].href, and getAttribute("href") gives what the page wrote.
var linkDropAttrs = map[string]bool{
	"rel": true, "as": true, "type": true, "crossorigin": true, "integrity": true,
	"referrerpolicy": true, "fetchpriority": true, "hreflang": true, "sizes": true, "imagesrcset": true,
	"imagesizes": true, "charset": true, "rev": true, "target": true,
}

// stylesheetLink handles a link that names a stylesheet (rel contains "stylesheet", or href
// ends in ".css"):
//   - rel has the token "stylesheet" and neither "alternate" nor a disabled attribute: replaced
//     by <style> carrying the link's other attributes (id, class, media, title, nonce, data-*,
//     …) and data-workspace-source="path", with the CSS inlined;
//   - alternate or disabled stylesheets, and any other rel (preload, prefetch, …): kept as
//     <link> with every attribute, href becoming a data: URL of the inlined CSS, so the
//     browser treats them as it would (alternate sheets off until switched on, preloads not
//     applied);
//   - href not naming a workspace CSS file: kept, href made its virtual URL in the preview
//     (as written in the export), so its load fails and fires error as over HTTP.
func (c *compiler) stylesheetLink(b *strings.Builder, fromPath, src string, t htmlTag) {
	href, hrefIdx, ok := t.attr("href")
	if !ok {
		return
	}
	if classify(href.value) == refExternal {
		// Kept as written: the network policy decides at run time (blocked and reported, or
		// loaded with "Allow internet in preview"); over HTTP it loads or fails the same way.
		c.checkLocal(passLinks, labelStylesheet, fromPath, href.value, false)
		if !c.diagOnly {
			b.WriteString(src[t.start:t.end])
		}
		return
	}
	p, ok := c.checkLocal(passLinks, labelStylesheet, fromPath, href.value, false)
	if !ok || c.ix.text(p, LangCSS) == nil {
		// Naming no workspace CSS file: kept, so its load fails and its error event fires as
		// over HTTP — in the preview with href made its virtual URL (never requested from the
		// studio's server; the runtime reports it), in the export as written. A data: or
		// blob: href: as written. Empty, a fragment, javascript: or no virtual URL (a
		// malformed %-escape): removed, as before.
		if c.diagOnly {
			return
		}
		local := classify(href.value) == refLocal
		if dataOrBlob(href.value) || (local && !c.opts.Bridge) {
			b.WriteString(src[t.start:t.end])
		} else if u, ok := c.virtualRef(href.value, fromPath); local && ok {
			writeTag(b, src, t, map[int]string{hrefIdx: u}, nil)
		}
		return
	}
	rel, _, _ := t.attr("rel")
	tokens := strings.Fields(strings.ToLower(rel.value))
	_, _, disabled := t.attr("disabled")
	isSheet, alternate := false, false
	for _, r := range tokens {
		isSheet = isSheet || r == "stylesheet"
		alternate = alternate || r == "alternate"
	}
	if isSheet {
		c.cssRoots = append(c.cssRoots, p)
	}
	if c.diagOnly {
		return
	}
	dataSheet := !isSheet || alternate || disabled
	c.embedAssets = dataSheet
	text := c.inlineStylesheet(p)
	c.embedAssets = false
	if dataSheet {
		writeTag(b, src, t, map[int]string{hrefIdx: "data:text/css;charset=utf-8;base64," + base64.StdEncoding.EncodeToString([]byte(text))}, attrIndexes(t, "integrity"))
		return
	}
	b.WriteString("<style")
	seen := map[string]bool{}
	for _, a := range t.attrs {
		if linkDropAttrs[a.name] || (a.name == "href" && !c.opts.Bridge) || seen[a.name] || a.name == "data-workspace-source" || a.name == StyleMarkerAttr {
			continue
		}
		seen[a.name] = true
		b.WriteByte(' ')
		b.WriteString(a.name)
		if src[a.start:a.end] != "" && strings.Contains(src[a.start:a.end], "=") {
			b.WriteString(`="`)
			b.WriteString(escapeAttr(a.value))
			b.WriteByte('"')
		}
	}
	b.WriteString(` data-workspace-source="`)
	b.WriteString(escapeAttr(p))
	b.WriteByte('"')
	c.writeSheetText(b, text, true)
	b.WriteString("</style>")
}

// writeSheetText ends a stylesheet <style> start tag whose last attribute is written (marked
// with StyleMarkerAttr and its index in the preview with the bridge, when marked), then writes
// its text (escapeStyleText) and records where the text is (sheetSpans).
func (c *compiler) writeSheetText(b *strings.Builder, text string, marked bool) {
	mark := marked && c.opts.Bridge
	if mark {
		b.WriteString(" " + StyleMarkerAttr + `="`)
		b.WriteString(strconv.Itoa(c.sheetCount))
		b.WriteByte('"')
	}
	b.WriteByte('>')
	start := b.Len()
	b.WriteString(escapeStyleText(text))
	if mark {
		c.sheetSpans = append(c.sheetSpans, span{start, b.Len()})
		c.sheetCount++
	}
}

// styleElement rewrites the text of an inline HTML <style> like a linked stylesheet's
// (@imports inlined, url() rewritten); text and endTag are its content and end tag.
func (c *compiler) styleElement(b *strings.Builder, fromPath, src string, t htmlTag, text, endTag string) {
	out := text
	if strings.Contains(text, "@") || strings.Contains(strings.ToLower(text), "url(") {
		c.cssInline = append(c.cssInline, text)
		if !c.diagOnly {
			out = c.inlineCSSText(text, fromPath)
		}
	}
	if c.diagOnly {
		return
	}
	// The start tag as attrTag writes it, without its final '>' (and without a page-written
	// StyleMarkerAttr: the first of duplicate attributes wins), then the marker and the text.
	if !c.opts.Bridge {
		c.attrTag(b, fromPath, src, t)
		b.WriteString(escapeStyleText(out))
		b.WriteString(endTag)
		return
	}
	var tb strings.Builder
	c.attrTagDrop(&tb, fromPath, src, t, attrIndexes(t, StyleMarkerAttr))
	tag := tb.String()
	if !strings.HasSuffix(tag, ">") {
		b.WriteString(tag)
		b.WriteString(escapeStyleText(out))
		b.WriteString(endTag)
		return
	}
	b.WriteString(tag[:len(tag)-1])
	c.writeSheetText(b, out, true)
	b.WriteString(endTag)
}

// script handles one <script> element: text is its content, endTag its end tag as written.
//
//   - classic inline: its text after (line-1) newlines, where line is the HTML line its text
//     starts on, and "//# sourceURL=<html path>", so a stack frame of the script names the
//     HTML file and its own line there (docs/design.md §5.13); in the preview, when its text
//     needed no rewrite, marked ScriptTextAttr="<line-1>" (the runtime restores the text as
//     written once the script has run, docs/design.md §5.50); data blocks (unknown type):
//     untouched.
//   - the page's import map: removed (merged into the document's one import map).
//   - classic with src naming a workspace JavaScript file: with defer or async, src becomes a
//     data: URL of the file (so the browser applies its timing); otherwise the file is inlined
//     (src removed). Both end with "//# sourceURL=<path>". External (another site): kept as
//     written, reported as blocked; the network policy decides. Naming no workspace
//     JavaScript file (missing, not imported, another kind of file): kept, src made its
//     virtual URL (virtualRef) in the preview — the load fails and the element's error event
//     fires, as over HTTP — and as written in the export; the diagnostic is kept. A data:
//     or blob: src: kept as written. Empty, fragment-only, javascript: and a local src with a
//     malformed %-escape (no virtual URL): removed.
//   - in the preview, every classic script whose src the compiler changed (inlined, data:,
//     virtual URL) carries ScriptSrcAttr="<src as written>" as its last attribute (a
//     page-written one is dropped): the runtime takes it off as the parser inserts the
//     element and answers getAttribute("src"), hasAttribute("src") and the src property
//     from it (runtime/25-scripts.js).
//   - module (inline or src): an inline module script with the same attributes (minus src):
//     `import "<virtual URL>";` for src, the rewritten text for inline code (moduleScript),
//     padded and ending with a sourceURL like a classic inline script.
func (c *compiler) script(b *strings.Builder, fromPath, src string, t htmlTag, text, endTag string) {
	kind := scriptKind(t)
	srcAttr, srcIdx, hasSrc := t.attr("src")
	switch {
	case kind == scriptImportMap:
		return
	case kind == scriptData:
		if !c.diagOnly {
			b.WriteString(src[t.start:t.end])
			b.WriteString(text)
			b.WriteString(endTag)
		}
		return
	case kind == scriptClassic && !hasSrc:
		if !c.diagOnly {
			pad, code := c.scriptLine(src, t.end)-1, c.locationJS(text)
			if c.opts.Bridge && code == text && c.inTemplate > 0 {
				// Inside a <template>: as written. The page reads the template's markup, and a
				// clone of its content runs on insertion, before the runtime could restore
				// its text (docs/design.md §5.50); its errors name no line.
				b.WriteString(src[t.start:t.end])
				b.WriteString(text)
				b.WriteString(endTag)
				return
			}
			if c.opts.Bridge && code == text {
				// Nothing rewritten: the runtime gives the script its text as written once it
				// has run (ScriptTextAttr).
				c.markTag(b, src, t, nil, nil, ScriptTextAttr, strconv.Itoa(pad))
			} else {
				b.WriteString(src[t.start:t.end])
			}
			b.WriteString(strings.Repeat("\n", pad))
			b.WriteString(code)
			b.WriteString("\n//# sourceURL=" + sourceURLPath(fromPath) + "\n")
			b.WriteString(endTag)
		}
		return
	case kind == scriptModule && !hasSrc:
		code := c.moduleScript("", text, fromPath)
		if !c.diagOnly {
			b.WriteString(src[t.start:t.end])
			b.WriteString(strings.Repeat("\n", c.scriptLine(src, t.end)-1))
			b.WriteString(code)
			b.WriteString("\n//# sourceURL=" + sourceURLPath(fromPath) + "\n")
			b.WriteString(endTag)
			if endTag == "" {
				b.WriteString("</script>")
			}
		}
		return
	}
	if kind == scriptClassic && classify(srcAttr.value) == refExternal {
		// Kept as written, like an external stylesheet link (design.md §5.26): the network
		// policy decides at run time (blocked and reported, its error event firing as over
		// HTTP offline, or loaded with "Allow internet in preview").
		c.checkLocal(passScripts, labelScript, fromPath, srcAttr.value, false)
		if !c.diagOnly {
			b.WriteString(src[t.start:t.end])
			b.WriteString(text)
			b.WriteString(endTag)
			if endTag == "" {
				b.WriteString("</script>")
			}
		}
		return
	}
	p, ok := c.checkLocal(passScripts, labelScript, fromPath, srcAttr.value, false)
	var f *File
	if ok {
		f = c.ix.text(p, LangJS)
	}
	if f == nil && kind == scriptClassic {
		c.unresolvedScript(b, fromPath, src, t, text, endTag)
		return
	}
	if f == nil {
		return
	}
	if kind == scriptModule {
		c.moduleScript(p, f.Source, p)
		if !c.diagOnly {
			writeTag(b, src, t, nil, map[int]bool{srcIdx: true})
			b.WriteString("import " + jsonString(VirtualURL(p)) + ";</script>")
		}
		return
	}
	if c.diagOnly {
		return
	}
	code := c.locationJS(f.Source) + "\n//# sourceURL=" + sourceURLPath(p) + "\n"
	_, _, isDefer := t.attr("defer")
	_, _, isAsync := t.attr("async")
	if isDefer || isAsync {
		// integrity would name the file's hash, not the data: URL's content (sourceURL added).
		drop := attrIndexes(t, "integrity")
		c.markedScriptTag(b, src, t, map[int]string{srcIdx: "data:text/javascript;charset=utf-8;base64," + base64.StdEncoding.EncodeToString([]byte(code))}, drop, srcAttr.value)
		b.WriteString("</script>")
		return
	}
	c.markedScriptTag(b, src, t, nil, map[int]bool{srcIdx: true}, srcAttr.value)
	b.WriteString(jsscan.EscapeClassicScript(code))
	b.WriteString("</script>")
}

// unresolvedScript writes a classic <script src> whose src is local but names no workspace
// JavaScript file (checkLocal reported why): over HTTP the element exists, its load fails and
// its error event fires, so it is kept — in the preview with src made its virtual URL, which
// the network policy never lets reach the studio's server (the runtime reports the path as
// missing, or as not imported), in the export as written. A data: or blob: src is kept as
// written (the browser loads it); an empty, fragment-only or javascript: src, and a local one
// with no virtual URL (a malformed %-escape), remove the element, as before.
func (c *compiler) unresolvedScript(b *strings.Builder, fromPath, src string, t htmlTag, text, endTag string) {
	if c.diagOnly {
		return
	}
	srcAttr, srcIdx, _ := t.attr("src")
	switch {
	case dataOrBlob(srcAttr.value) || (!c.opts.Bridge && classify(srcAttr.value) == refLocal):
		b.WriteString(src[t.start:t.end])
	case c.opts.Bridge && classify(srcAttr.value) == refLocal:
		u, ok := c.virtualRef(srcAttr.value, fromPath)
		if !ok {
			return
		}
		c.markedScriptTag(b, src, t, map[int]string{srcIdx: u}, nil, srcAttr.value)
	default:
		return
	}
	b.WriteString(text)
	b.WriteString(endTag)
	if endTag == "" {
		b.WriteString("</script>")
	}
}

// dataOrBlob: raw is a data: or blob: URL (the browser loads it as written).
func dataOrBlob(raw string) bool {
	t := strings.ToLower(trimRef(raw))
	return strings.HasPrefix(t, "data:") || strings.HasPrefix(t, "blob:")
}

// markedScriptTag writes a classic script's start tag with writeTag's set and drop and, in
// the preview, ScriptSrcAttr="<authored>" added as its last attribute (a page-written
// ScriptSrcAttr is dropped, since the first of duplicate attributes wins).
func (c *compiler) markedScriptTag(b *strings.Builder, src string, t htmlTag, set map[int]string, drop map[int]bool, authored string) {
	if !c.opts.Bridge {
		writeTag(b, src, t, set, drop)
		return
	}
	c.markTag(b, src, t, set, drop, ScriptSrcAttr, authored)
}

// markTag writes a start tag with writeTag's set and drop and the marker name="value" added
// as its last attribute (a page-written one is dropped, since the first of duplicate
// attributes wins).
func (c *compiler) markTag(b *strings.Builder, src string, t htmlTag, set map[int]string, drop map[int]bool, name, value string) {
	for i := range attrIndexes(t, name) {
		if drop == nil {
			drop = map[int]bool{}
		}
		drop[i] = true
	}
	var tb strings.Builder
	writeTag(&tb, src, t, set, drop)
	tag := tb.String()
	if !strings.HasSuffix(tag, ">") {
		// A start tag cut off by the end of input: no attribute can be added.
		b.WriteString(tag)
		return
	}
	b.WriteString(tag[:len(tag)-1])
	b.WriteString(" " + name + `="`)
	b.WriteString(escapeAttr(value))
	b.WriteString(`">`)
}

// attrTag writes a start tag with its URL-bearing attributes rewritten: on asset elements
// (assetTag) data/href/poster/src naming a workspace asset get the asset's URL and srcset
// candidates likewise; on every element url() references in a style attribute are rewritten.
// Local references that name no asset become virtual URLs in the preview (virtualRef), so
// they never reach the studio's server.
func (c *compiler) attrTag(b *strings.Builder, fromPath, src string, t htmlTag) {
	c.attrTagDrop(b, fromPath, src, t, nil)
}

// attrTagDrop is attrTag leaving out the attributes at the indexes in drop.
func (c *compiler) attrTagDrop(b *strings.Builder, fromPath, src string, t htmlTag, drop map[int]bool) {
	var set map[int]string
	put := func(i int, v string) {
		if set == nil {
			set = map[int]string{}
		}
		set[i] = v
	}
	seen := map[string]bool{}
	isAsset := assetTag(t.name) || svgRefTag(t.name)
	for i, a := range t.attrs {
		if seen[a.name] {
			continue
		}
		seen[a.name] = true
		switch {
		case c.opts.Bridge && isHandlerAttr(a.name):
			if v := c.handlerJS(a.value); v != a.value {
				put(i, v)
			}
		case a.name == "style":
			if strings.Contains(strings.ToLower(a.value), "url(") {
				if v := c.styleAttr(a.value, fromPath); v != a.value {
					put(i, v)
				}
			}
		case isAsset && a.name == "srcset" && (t.name == "img" || t.name == "source"):
			if v := c.srcset(a.value, fromPath); v != a.value {
				put(i, v)
			}
		case c.keepSrc && a.name == "src":
			// a framed workspace page: src stays as written (the runtime fills srcdoc)
		case isAsset && assetAttr(a.name) && (a.name != "xlink:href" || svgRefTag(t.name)):
			// An <object>/<embed> starts loading its first URL on its own schedule, and an
			// error for the virtual URL could follow the runtime's blob: load (measured): its
			// asset stays a data: URL.
			if _, ok := c.checkLocal(passAssets, labelAsset, fromPath, a.value, true); !ok {
				if u, ok := c.virtualRef(a.value, fromPath); ok {
					put(i, u)
				}
				continue
			}
			c.embedAssets = t.name == "object" || t.name == "embed"
			u, ok := c.assetURLFor(a.value, fromPath)
			c.embedAssets = false
			if ok {
				put(i, u)
			} else if u, ok := c.virtualRef(a.value, fromPath); ok {
				put(i, u)
			}
		}
	}
	if c.diagOnly {
		return
	}
	writeTag(b, src, t, set, drop)
}

// locationJS returns a script's source (classic or module) with its references to the page's
// Location (bare `location`, `window.location`, `document.location`, …) naming the runtime's
// virtual Location (locationGlobal, 50-nav.js; docs/design.md §5.34) and its references to the
// page's top-level window (bare `top`, `window.top`, …) naming the runtime's stand-in
// (topGlobal; §5.47), both found in one scan (jsscan.RewritePage; `top.location` reads the
// virtual Location through the stand-in), when the document carries the runtime
// (Options.Bridge); otherwise, and in a diagnostics-only compile, src unchanged. Linear in
// len(src); no allocation when nothing is rewritten.
func (c *compiler) locationJS(src string) string {
	if !c.opts.Bridge || c.diagOnly {
		return src
	}
	out, _ := jsscan.RewritePage(src, locationGlobal, topGlobal)
	return out
}

// handlerJS is locationJS for the body of an event-handler attribute, where a bare `location`
// may name a form control (jsscan.RewriteHandlerLocation): it is rewritten only where used as
// a Location (`location.href`, `location.assign(…)`, `location = …`).
func (c *compiler) handlerJS(src string) string {
	if !c.opts.Bridge || c.diagOnly {
		return src
	}
	out, _ := jsscan.RewriteHandlerLocation(src, locationGlobal)
	return out
}

// handlerMayNavigate reports whether a start tag's raw text may hold an event-handler attribute
// that locationJS rewrites (a cheap filter: the tag mentions "location", in the preview).
func (c *compiler) handlerMayNavigate(raw string) bool {
	return c.opts.Bridge && strings.Contains(raw, "location")
}

// isHandlerAttr reports whether an attribute name is an event-handler content attribute
// ("on" followed by an event name, as HTML's onclick, onload, …; name is lower case).
func isHandlerAttr(name string) bool {
	return len(name) > 2 && strings.HasPrefix(name, "on")
}

// styleAttr rewrites the url() references of a style attribute's declarations.
func (c *compiler) styleAttr(v, fromPath string) string {
	res := cssscan.Scan(v)
	var b strings.Builder
	last := 0
	for _, r := range res.Refs {
		if r.Kind != cssscan.URL {
			continue
		}
		c.checkLocal(passAssets, labelAsset, fromPath, r.Value, true)
		b.WriteString(v[last:r.Start])
		b.WriteString(c.cssURL(r, v, fromPath))
		last = r.End
	}
	b.WriteString(v[last:])
	return b.String()
}

// srcset rewrites the URLs of a srcset attribute (pagerefs.Srcset: HTML "parse a srcset
// attribute"), keeping the rest as is.
func (c *compiler) srcset(v, fromPath string) string {
	var b strings.Builder
	last := 0
	for _, s := range pagerefs.Srcset(v) {
		url := v[s.Start:s.End]
		if _, ok := c.checkLocal(passAssets, labelAsset, fromPath, url, true); ok {
			if u, ok := c.assetURLFor(url, fromPath); ok {
				url = u
			} else if u, ok := c.virtualRef(url, fromPath); ok {
				url = u
			}
		} else if u, ok := c.virtualRef(url, fromPath); ok {
			url = u
		}
		b.WriteString(v[last:s.Start])
		b.WriteString(url)
		last = s.End
	}
	b.WriteString(v[last:])
	return b.String()
}

// virtualRef returns the virtual URL (VirtualURL) of a local reference raw made from the file
// at fromPath, keeping its query and fragment: in the preview (Options.Bridge) only, where
// a relative URL would otherwise resolve against the studio page. ok is false for
// non-local references and outside the preview.
func (c *compiler) virtualRef(raw, fromPath string) (string, bool) {
	if !c.opts.Bridge || classify(raw) != refLocal {
		return "", false
	}
	t := trimRef(raw)
	suffix := ""
	if i := strings.IndexAny(t, "?#"); i >= 0 {
		suffix = t[i:]
	}
	fromPath = c.ref(fromPath)
	p, ok := resolvePath(raw, fromPath)
	if !ok {
		p = ""
		if fromPath != "" && !strings.HasPrefix(t, "/") {
			if i := strings.LastIndexByte(fromPath, '/'); i >= 0 {
				p = fromPath[:i+1]
			}
		}
		if d, ok := decodeURIComponent(strings.TrimSuffix(t, suffix)); ok && strings.Trim(d, "./") == "" {
			return ModuleSpecifierPrefix + sourceURLPath(p) + suffix, true
		}
		return "", false
	}
	return VirtualURL(p) + suffix, true
}

// diagnostics runs pass 5 (reachable CSS) and returns the deduplicated list.
func (c *compiler) diagnostics(entry *File) []Diagnostic {
	c.reachableCSS()
	return c.diags.list()
}

// attrIndexes returns the indexes of t's attributes called name (for writeTag's drop set).
func attrIndexes(t htmlTag, name string) map[int]bool {
	var m map[int]bool
	for i, a := range t.attrs {
		if a.name == name {
			if m == nil {
				m = map[int]bool{}
			}
			m[i] = true
		}
	}
	return m
}

// isRefresh reports whether a <meta> tag is <meta http-equiv="refresh" …>.
func isRefresh(t htmlTag) bool {
	a, _, ok := t.attr("http-equiv")
	return ok && strings.EqualFold(strings.TrimSpace(a.value), "refresh")
}

// metaRefresh handles a <meta http-equiv="refresh">, which the compiled document never
// carries: a navigation cannot be stopped by the preview's Content-Security-Policy, so a
// refresh to another site would leave the sandbox, and a reload of the srcdoc would lose the
// mount. An external target is reported as blocked. The first refresh naming a workspace URL
// is handed to the runtime (c.refresh), which opens that page as over HTTP (a docs package's
// index.html redirecting to its docs); any other refresh (to no URL: a periodic reload) is
// reported as not run.
func (c *compiler) metaRefresh(from string, t htmlTag) {
	a, _, _ := t.attr("content")
	seconds, target, ok := parseRefresh(a.value)
	if ok && target != "" && classify(target) == refExternal {
		c.diags.external(passLinks, labelMetaRefresh, from, target)
		return
	}
	if ok && target != "" && c.opts.Bridge {
		if c.refresh == nil {
			c.refresh = &RuntimeRefresh{Seconds: seconds, URL: target}
		}
		return
	}
	c.diags.add(passLinks, DiagUnsupportedRefresh, labelMetaRefresh, from, target,
		"A meta refresh is not run in the preview (it would navigate the sandboxed frame away): "+a.value)
}

// parseRefresh parses a refresh's content as the HTML standard's shared declarative refresh
// steps do: "N", "N; url=U", "N, 'U'", "N U" (N whole seconds, a fraction ignored; U optionally
// quoted). ok is false when the content starts with neither a digit nor "." (browsers ignore
// it). seconds is capped at 86400.
func parseRefresh(content string) (seconds int, target string, ok bool) {
	const ws = " \t\n\f\r"
	s := strings.TrimLeft(content, ws)
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 && (s == "" || s[0] != '.') {
		return 0, "", false
	}
	if n, err := strconv.Atoi(s[:i]); err == nil {
		seconds = n
	}
	if i > 5 || seconds > 86400 {
		seconds = 86400
	}
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	rest := strings.TrimLeft(s[i:], ws)
	if rest != "" && (rest[0] == ';' || rest[0] == ',') {
		rest = strings.TrimLeft(rest[1:], ws)
	}
	if len(rest) >= 3 && strings.EqualFold(rest[:3], "url") {
		if r := strings.TrimLeft(rest[3:], ws); strings.HasPrefix(r, "=") {
			rest = strings.TrimLeft(r[1:], ws)
		}
	}
	if rest != "" && (rest[0] == '\'' || rest[0] == '"') {
		q := rest[0]
		rest = rest[1:]
		if k := strings.IndexByte(rest, q); k >= 0 {
			rest = rest[:k]
		}
	}
	return seconds, strings.TrimSpace(rest), true
}

// rawTextBody returns the text and the end tag (each "" when absent) that follow the raw-text
// element name's start tag at toks[i], and the index of the last token consumed.
func rawTextBody(src string, toks []token, i int, name string) (text, endTag string, last int) {
	if i+1 < len(toks) && toks[i+1].typ == html.TextToken {
		i++
		text = src[toks[i].start:toks[i].end]
	}
	if i+1 < len(toks) && toks[i+1].typ == html.EndTagToken && toks[i+1].name == name {
		i++
		endTag = src[toks[i].start:toks[i].end]
	}
	return text, endTag, i
}
