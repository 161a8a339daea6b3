package preview

import (
	"encoding/json"
	"sort"
	"strings"
)

// StyleMarkerAttr marks each stylesheet <style> element the compiler emits in the preview (a
// linked stylesheet inlined as <style>, and every inline HTML <style>) with its index, 0-based
// in document order: data-webcoding-style="3". The runtime takes the element as the parser
// inserts it (before any later page script runs), removes the attribute, and keeps the
// element in its closure, so page code never sees the marker and cannot point the runtime at
// another element: a second element with the same index (a page script that inserted one
// early) makes every in-place patch fail, which falls back to a full mount (design.md §5.33).
const StyleMarkerAttr = "data-webcoding-style"

// ScriptSrcAttr marks each classic <script> whose src the compiler changed in the preview (a
// workspace file inlined or made a data: URL, a missing file made its virtual URL) with the
// src as the page wrote it: data-webcoding-script-src="js/a.js". The runtime takes it off as
// the parser inserts the element, before the script runs, and answers getAttribute("src"),
// hasAttribute("src") and the src property (resolved against the page's virtual URL) from
// it, as over HTTP, where loaders such as dojo and GWT find their folder from them.
const ScriptSrcAttr = "data-webcoding-script-src"

// ScriptTextAttr marks each classic inline <script> whose text the compiler only padded (the
// newlines that keep its HTML line) and ended with "//# sourceURL=…", nothing rewritten, with
// the number of padding newlines: data-webcoding-script-text="12". The runtime takes it off as
// the parser inserts the element and, once the script has run (the parser has inserted
// something after it, or DOMContentLoaded), sets its text back to what the page wrote, so
// textContent, innerHTML and a code sample highlighted from a live <script> read as over
// HTTP (docs/design.md §5.50).
const ScriptTextAttr = "data-webcoding-script-text"

// span is a byte range [start, end) of a compiled document.
type span struct{ start, end int }

// docLayout locates, in a compiled document, the parts that may differ between two revisions
// whose change can be applied in place (StyleOnlyChange): the texts of the marked stylesheet
// <style> elements, the runtime's JSON config, each file table entry inside it, and the config
// without its per-mount members (revision, nonce, storage) and without the file table.
type docLayout struct {
	sheets []span
	config span
	files  map[string]span
	rest   string
}

// runtimeConfigLayout is RuntimeScript's JSON config for cfg (byte-identical to what
// RuntimeScript embeds) and its layout: files holds each file table entry's span relative to
// the JSON, rest the config with revision 0, nonce "", no storage and an empty file table.
func runtimeConfigLayout(cfg RuntimeConfig) (string, *docLayout) {
	w := runtimeWireOf(cfg)
	files := w.Files
	w.Files = map[string]RuntimeFile{}
	j, err := json.Marshal(w)
	if err != nil {
		panic("preview: runtime config: " + err.Error())
	}
	w.Revision, w.Nonce, w.Storage = 0, "", nil
	rest, err := json.Marshal(w)
	if err != nil {
		panic("preview: runtime config: " + err.Error())
	}
	// Every member before "files" is a number or a JSON string (whose quotes are escaped), so
	// the first `"files":{}` is the member itself.
	const empty = `"files":{}`
	at := strings.Index(string(j), empty)
	if at < 0 {
		panic("preview: runtime config without files")
	}
	keys := make([]string, 0, len(files))
	for k := range files {
		keys = append(keys, k)
	}
	sort.Strings(keys) // encoding/json's order of map keys
	var b strings.Builder
	b.Grow(len(j) + 64*len(keys))
	b.Write(j[:at+len(empty)-1])
	lay := &docLayout{files: make(map[string]span, len(keys)), rest: string(rest)}
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kj, _ := json.Marshal(k)
		b.Write(kj)
		b.WriteByte(':')
		vj, err := json.Marshal(files[k])
		if err != nil {
			panic("preview: runtime config: " + err.Error())
		}
		lay.files[k] = span{b.Len(), b.Len() + len(vj)}
		b.Write(vj)
	}
	b.Write(j[at+len(empty)-1:])
	return b.String(), lay
}

// placeLayout finishes c.layout once the head (bridge + import map, headLen bytes) is put at
// byte at of the document: the config and file spans move from the head to the document,
// and the sheet texts after at move by headLen.
func (c *compiler) placeLayout(at, headLen int) {
	lay := c.layout
	if lay == nil {
		return
	}
	lay.config = span{at + lay.config.start, at + lay.config.end}
	for k, s := range lay.files {
		lay.files[k] = span{lay.config.start + s.start, lay.config.start + s.end}
	}
	lay.sheets = make([]span, len(c.sheetSpans))
	for i, s := range c.sheetSpans {
		if s.start >= at {
			s = span{s.start + headLen, s.end + headLen}
		}
		lay.sheets[i] = s
	}
}

// StyleChange is one marked stylesheet <style> element whose text differs: Index is its
// StyleMarkerAttr index, Old and Text its text in the shown and the new document as the
// browser's HTML parser gives it (ParsedStyleText).
type StyleChange struct {
	Index int    `json:"index"`
	Old   string `json:"old"`
	Text  string `json:"text"`
}

// StylePatch is what turns the shown document into the new one in place: the style texts to
// replace and the new text of the file table entries that differ (workspace path → text; only
// CSS files and the shown page's own HTML file can be there).
type StylePatch struct {
	Styles []StyleChange     `json:"styles"`
	Files  map[string]string `json:"files"`
}

// StyleOnlyChange compares two documents Compile produced with the bridge (shown: the one the
// frame shows; next: the new revision's) and reports whether they differ only in the text of
// marked stylesheet <style> elements and in file table entries of CSS files (or of the page's
// own HTML file, whose inline <style> text is part of it); ok is false otherwise. The
// per-mount members of the runtime config (revision, nonce, preview storage) are not compared:
// a patch carries the new revision, and the running page holds its storage. Everything else —
// every other byte of the document (markup, attributes, scripts, the import map, data: URLs of
// alternate or preload stylesheets), the number and order of the marked styles, the runtime,
// the network policy, every other file table entry and its media type — must be identical.
//
// The decision is made on the compiled output, not on which source files changed, so
// @import-inlined CSS, inline <style> of HTML and a stylesheet linked by several pages are
// covered by construction. Cost: one pass over both documents (a byte comparison) plus JSON
// decoding of the file table entries that differ. Design: docs/design.md §5.33.
func StyleOnlyChange(shown, next Result) (StylePatch, bool) {
	a, b := shown.layout, next.layout
	if a == nil || b == nil || shown.Entry != next.Entry || shown.Entry == "" || len(a.sheets) != len(b.sheets) ||
		len(a.files) != len(b.files) || a.rest != b.rest {
		return StylePatch{}, false
	}
	// The parts outside the config and the sheet texts, in document order.
	cuts := func(l *docLayout) []span { return append([]span{l.config}, l.sheets...) }
	ca, cb := cuts(a), cuts(b)
	pa, pb := 0, 0
	for i := range ca {
		if ca[i].start < pa || cb[i].start < pb || ca[i].end < ca[i].start || cb[i].end < cb[i].start ||
			shown.HTML[pa:ca[i].start] != next.HTML[pb:cb[i].start] {
			return StylePatch{}, false
		}
		pa, pb = ca[i].end, cb[i].end
	}
	if shown.HTML[pa:] != next.HTML[pb:] {
		return StylePatch{}, false
	}
	patch := StylePatch{Styles: []StyleChange{}, Files: map[string]string{}}
	for path, sa := range a.files {
		sb, ok := b.files[path]
		if !ok {
			return StylePatch{}, false
		}
		ja, jb := shown.HTML[sa.start:sa.end], next.HTML[sb.start:sb.end]
		if ja == jb {
			continue
		}
		var fa, fb RuntimeFile
		if json.Unmarshal([]byte(ja), &fa) != nil || json.Unmarshal([]byte(jb), &fb) != nil ||
			fa.Type != fb.Type || fa.B64 != "" || fb.B64 != "" ||
			!(strings.HasPrefix(fa.Type, "text/css") || path == shown.Entry) {
			return StylePatch{}, false
		}
		patch.Files[path] = fb.Text
	}
	for i := range a.sheets {
		ta, tb := shown.HTML[a.sheets[i].start:a.sheets[i].end], next.HTML[b.sheets[i].start:b.sheets[i].end]
		if ta != tb {
			patch.Styles = append(patch.Styles, StyleChange{Index: i, Old: ParsedStyleText(ta), Text: ParsedStyleText(tb)})
		}
	}
	return patch, true
}

// ParsedStyleText is the text of a <style> element written as s in a document, as the HTML
// parser gives it (textContent): the input stream's newline normalization (CR LF and a lone CR
// become LF) and the RAWTEXT state's U+0000 → U+FFFD (HTML Living Standard §13.2.3.5,
// §13.2.5.3). No character references are decoded in RAWTEXT.
func ParsedStyleText(s string) string {
	if !strings.ContainsAny(s, "\r\x00") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.ReplaceAll(s, "\x00", "\uFFFD")
}
