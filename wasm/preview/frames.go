package preview

import (
	"strings"
	"time"
)

// Workspace pages in frames (issue 13; docs/preview.md "Workspace pages in frames").
//
// A static <iframe src="x.html"> naming a workspace HTML page is compiled like this: the tag
// keeps its src as written and gets srcdoc="" (srcdoc wins over src, so the browser never
// requests the page's URL) and FrameMarkerAttr; the page itself is compiled once, without a
// runtime, into RuntimeConfig.Pages. At run time the runtime gives such an iframe (and one a
// script points at a compiled page: iframe.src, setAttribute, inserted markup) a srcdoc of the
// compiled page with a copy of the runtime in front of it, configured for the nested page:
// its own path, query and hash, the same file table and pages, a snapshot of the preview
// storage, no nonce and no studio port. Measured (Chromium, 2026-12-06): a srcdoc child of the
// sandboxed preview frame gets an opaque origin of its own (its contentDocument is null, its
// globals throw SecurityError) and blob: URLs made by the preview frame do not load in it, so
// the nested document serves its own blob: URLs from its own copy of the table.

const (
	// MaxFrameDepth bounds how deep workspace pages nest in frames: the page the preview
	// shows is depth 0, a page in one of its iframes depth 1. A frame that would hold a page
	// at a greater depth stays empty and is one "limit" report.
	MaxFrameDepth = 3
	// MaxFramePages bounds how many distinct workspace pages the compiler compiles for
	// frames (RuntimeConfig.Pages): the ones named first, breadth first from the entry. A
	// frame naming another page stays empty and is one "limit" report.
	MaxFramePages = 8
	// MaxFrameDocuments bounds how many nested documents one document's runtime builds
	// (each a copy of the file table); later frames stay empty, one "limit" report.
	MaxFrameDocuments = 16
	// FrameReadyWait is how long a document's ready waits, after it filled a frame before its
	// own ready, for that nested document's ready or error (an error there fails the mount,
	// as the page's own would); past it the document is ready without it.
	FrameReadyWait = 3 * time.Second
	// FrameMarkerAttr marks a static <iframe> whose page the runtime shows (the compiler's
	// srcdoc="" is its own, not the page's), and holds the src as written of a static <frame>
	// whose page the runtime shows (frameTag); the runtime removes it.
	FrameMarkerAttr = "data-webcoding-frame"
	// MessageFrameHello (nested document → the document that holds its frame, through
	// window.parent.postMessage, with one MessagePort): the first message of a nested
	// document's runtime. It carries no nonce and never reaches the studio: the holding
	// runtime takes it (only a trusted event from a frame it filled, once per filling) and
	// relays what comes over the port — console lines, errors, reports (within its own
	// per-mount bounds), storage changes and navigations of the frame.
	MessageFrameHello = "webcoding.preview.frame"
)

// NestedPage is a workspace page compiled for a frame: the document is Head + the nested
// runtime script + Body (Body starts with the page's import map, if any). Sheets is the number
// of stylesheet <style> elements it marks (RuntimeConfig.Sheets of the nested runtime); Base
// is the virtual URL of its <base href> ("" without one). Quirks: the page is laid out in
// quirks mode when served (as Result.Quirks for the entry); the runtime then loads it from a
// blob: URL in an <iframe> too, since a srcdoc document is never in quirks mode
// (docs/design.md §5.54).
type NestedPage struct {
	Head   string `json:"head"`
	Body   string `json:"body"`
	Sheets int    `json:"sheets,omitempty"`
	Base   string `json:"base,omitempty"`
	Quirks bool   `json:"quirks,omitempty"`
}

// NestedFrame is what the runtime tells a nested document's runtime about its place: Depth
// (1..MaxFrameDepth) and Chain, the path+query of each page above it, outermost first (a
// frame naming a page of the chain other than the document holding it is left empty, as
// browsers leave a frame naming the URL of an ancestor of its document: a page may show
// itself in a frame once).
type NestedFrame struct {
	Depth int      `json:"depth"`
	Chain []string `json:"chain"`
}

// framePage returns the workspace HTML page a static <iframe> or <frame> shows in the preview ("" when
// none): the tag has no srcdoc and its src is a local reference to an HTML text file.
func (c *compiler) framePage(fromPath string, t htmlTag) string {
	if !c.shared || c.diagOnly {
		return ""
	}
	if _, _, ok := t.attr("srcdoc"); ok {
		return ""
	}
	a, _, ok := t.attr("src")
	if !ok || classify(a.value) != refLocal {
		return ""
	}
	p, ok := resolvePath(a.value, c.ref(fromPath))
	if !ok || c.ix.text(p, LangHTML) == nil {
		return ""
	}
	return p
}

// iframeTag writes a static <iframe> that shows the workspace page p: src as written,
// srcdoc="" and FrameMarkerAttr added, other attributes as attrTag rewrites them; p joins the
// pages to compile (c.frames, first come first).
func (c *compiler) iframeTag(b *strings.Builder, fromPath, src string, t htmlTag, p string) {
	c.addFrame(p)
	var tb strings.Builder
	c.keepSrc = true
	c.attrTag(&tb, fromPath, src, t)
	c.keepSrc = false
	s := tb.String()
	if k := strings.LastIndexByte(s, '>'); k > 0 {
		b.WriteString(s[:k])
		b.WriteString(` srcdoc="" ` + FrameMarkerAttr)
		b.WriteString(s[k:])
		return
	}
	b.WriteString(s)
}

// frameTag writes a static <frame> (of a <frameset>) that shows the workspace page p. A
// <frame> has no srcdoc, and the browser would request its src from the studio's address as
// soon as the parser inserts it, so src is left out and kept, as written, as the value of
// FrameMarkerAttr; the runtime loads the compiled page into the frame from a blob: URL it
// makes (55-frames.js; docs/design.md §5.48). Other attributes as attrTag rewrites them; p
// joins the pages to compile.
func (c *compiler) frameTag(b *strings.Builder, fromPath, src string, t htmlTag, p string) {
	c.addFrame(p)
	a, i, _ := t.attr("src")
	var tb strings.Builder
	c.attrTagDrop(&tb, fromPath, src, t, map[int]bool{i: true})
	s := tb.String()
	k := strings.LastIndexByte(s, '>')
	if k > 0 && s[k-1] == '/' {
		k--
	}
	if k <= 0 {
		b.WriteString(s)
		return
	}
	b.WriteString(s[:k])
	b.WriteString(" " + FrameMarkerAttr + `="` + escapeAttr(a.value) + `"`)
	b.WriteString(s[k:])
}

// addFrame adds p to the pages frames of this document show (c.frames), once.
func (c *compiler) addFrame(p string) {
	if c.frameSeen[p] {
		return
	}
	if c.frameSeen == nil {
		c.frameSeen = map[string]bool{}
	}
	c.frameSeen[p] = true
	c.frames = append(c.frames, p)
}

// framePages compiles the pages static frames name, breadth first from the entry (whose
// own frames are c.frames): each page once — the entry too when a frame names it —, at most
// MaxFramePages, down to MaxFrameDepth.
// Each compile is the page's own (its references resolve against its path); none carries a
// runtime, and assets stay virtual URLs served from the one file table.
func (c *compiler) framePages(entry string) map[string]NestedPage {
	if len(c.frames) == 0 {
		return nil
	}
	pages := map[string]NestedPage{}
	seen := map[string]bool{} // the entry too: a page may show itself in a frame once (55-frames.js)
	c.links = nil
	level := c.frames
	for depth := 1; depth <= MaxFrameDepth && len(level) > 0; depth++ {
		var next []string
		for _, p := range level {
			if seen[p] || len(pages) >= MaxFramePages {
				continue
			}
			seen[p] = true
			next = append(next, c.framePage1(pages, p)...)
		}
		// The pages framed pages link to are shown in the same frame (same depth): compiled
		// after this level's frames, before the next level's.
		for len(c.links) > 0 && len(pages) < MaxFramePages {
			p := c.links[0]
			c.links = c.links[1:]
			if seen[p] {
				continue
			}
			seen[p] = true
			next = append(next, c.framePage1(pages, p)...)
		}
		level = next
	}
	return pages
}

// framePage1 compiles the page p for a frame into pages and returns the pages its own static
// frames name; the pages it links to join c.links.
func (c *compiler) framePage1(pages map[string]NestedPage, p string) []string {
	f := c.ix.text(p, LangHTML)
	if f == nil {
		return nil
	}
	sub := &compiler{ix: c.ix, opts: c.opts, assets: map[string]assetURL{},
		mods:   moduleGraph{target: map[string]string{}, byPath: map[string]string{}},
		shared: c.shared, nested: true}
	html := sub.document(f)
	pages[p] = NestedPage{Head: html[:sub.splitAt], Body: html[sub.splitAt:], Sheets: sub.sheetCount, Base: sub.baseURL, Quirks: quirks(f.Source)}
	c.links = append(c.links, sub.links...)
	return sub.frames
}

// noteLink records the workspace page an <a>/<area href> of a nested page names.
func (c *compiler) noteLink(fromPath string, t htmlTag) {
	a, _, ok := t.attr("href")
	if !ok || classify(a.value) != refLocal || len(c.links) >= 4*MaxFramePages {
		return
	}
	if p, ok := resolvePath(a.value, c.ref(fromPath)); ok && c.ix.text(p, LangHTML) != nil {
		c.links = append(c.links, p)
	}
}
