package preview

import (
	"errors"
	"strings"
)

// File is one workspace file as the compiler sees it (plain data; the workspace package
// converts its own records into this shape).
//
// Kind is "text" or "asset". Language is one of "html", "css", "javascript", "json",
// "markdown", "typescript", "text" (only html, css and javascript take part in compilation).
// Source is the text of a text file (invalid UTF-8 is replaced by U+FFFD before use); Data
// holds the bytes of an asset and MimeType its media type.
//
// Kind KindNotImported is not a file of the workspace: the user's folder holds it, but the
// import left it out (too large, not text; workspace.NotImportedEntries), and Reason says why
// (workspace.NotImportedReason, e.g. "larger than 2 MB (the import limit for text files)").
// The compiler never serves it: a reference to it gets a DiagNotImported diagnostic instead of
// a missing one, and at run time a "limit" report with that reason (fetch rejects). A
// KindNotImported entry with an empty Path stands for files the import could not name (the
// folder had more entries than it examined; workspace.SkipScanLimit): a local reference that
// resolves to no file then gets a DiagNotImported diagnostic that says it may be in the folder
// (UnexaminedMessage), never a missing one.
type File struct {
	Path     string
	Language string
	Kind     string
	MimeType string
	Source   string
	Data     []byte
	Reason   string
}

// File kinds and the languages the compiler reads.
const (
	KindText  = "text"
	KindAsset = "asset"
	// KindNotImported: a folder file the import left out (see File); only Path and Reason count.
	KindNotImported = "not-imported"
	LangHTML        = "html"
	LangCSS         = "css"
	LangJS          = "javascript"
	LangJSON        = "json"
	EntryFilePath   = "index.html"
)

// Options are the non-file inputs of Compile (SPEC §2.15: the compiler is deterministic; the
// revision, the mount nonce and the asset-URL strategy are inputs).
type Options struct {
	// Revision is the workspace revision the bridge acknowledges.
	Revision int64
	// Nonce is the per-mount nonce carried by every bridge message (SPEC §2.3).
	Nonce string
	// AssetURL maps an asset file to the URL the document uses for it. blob: URLs made by the
	// studio page do not load in the sandboxed, opaque-origin frame (measured on Chromium 156:
	// blob URLs are partitioned), so the hosts leave it nil (data: URLs). It is called at most once per asset path per
	// Compile; ok=false gives references to that asset its virtual URL (VirtualURL) in the
	// preview (Bridge) and leaves them untouched in the export. Nil means data: URLs (DataURL).
	AssetURL func(f File) (url string, ok bool)
	// Bridge injects the bridge script (BridgeScript). False for the standalone export.
	Bridge bool
	// Runtime carries the run-time inputs of a mount that are not files (pvruntime):
	// Entry (a workspace HTML page to show instead of the default entry, e.g. after a link in
	// the preview; ignored when it is not an HTML file), Search, Hash, AllowInternet and
	// Storage. Revision, Nonce and Files of the RuntimeConfig passed to RuntimeScript come
	// from the compiler.
	Runtime RuntimeConfig
}

// Result is the compiled preview document.
type Result struct {
	// HTML is the complete document, valid UTF-8, for an iframe srcdoc.
	HTML string
	// Entry is the path of the HTML entry file, "" when HTML is the waiting page.
	Entry string
	// Diagnostics are those of Diagnose for the same files (never nil).
	Diagnostics []Diagnostic
	// Quirks: a browser lays the entry page out in quirks mode when it is served (no doctype,
	// or a legacy one: HTML "the initial insertion mode"), and so does HTML's parser with HTML,
	// whose bridge follows the page's doctype or stands first when there is none — unless the
	// document is an iframe srcdoc document, which is never in quirks mode. The studio's shim
	// loads such a document from a blob: URL instead (docs/design.md §5.53).
	Quirks bool
	// layout locates the parts of HTML that StyleOnlyChange compares (nil without the bridge
	// and for the waiting page).
	layout *docLayout
}

// ErrNoEntry is returned by Export when the workspace has no HTML file.
var ErrNoEntry = errors.New("preview: workspace has no HTML entry file")

// Compile builds the preview document for files (REFERENCE §5.1–§5.3, SPEC §2.3/§2.13/§2.15).
//
// The entry is the file at path "index.html", otherwise the first file (in slice order) whose
// Language is "html"; without one the document is the waiting page ("Preview waiting / Add an
// HTML entry file"), which still carries the bridge when opts.Bridge is set. Stylesheet links,
// scripts, module scripts and asset attributes of the entry are rewritten as described in the
// package documentation, then the bridge script is injected.
//
// Compile never fails and never panics on any input; the output is a pure function of files
// and opts (byte-identical for identical inputs). Time and memory are linear in the total
// input size, with stylesheets inlined at most MaxCSSImports+1 times per stylesheet link.
func Compile(files []File, opts Options) Result {
	c := newCompiler(files, opts, false)
	entry := c.ix.entry()
	if p := opts.Runtime.Entry; p != "" {
		if f := c.ix.text(p, LangHTML); f != nil {
			entry = f
		}
	}
	if entry == nil {
		return Result{HTML: waitingPage(opts), Diagnostics: []Diagnostic{}}
	}
	html := c.document(entry)
	return Result{HTML: html, Entry: entry.Path, Diagnostics: c.diagnostics(entry), Quirks: quirks(entry.Source), layout: c.layout}
}

// Diagnose lists the problems of the HTML entry's references (REFERENCE §5.4), as used by
// preview.getStatus. Passes, in order: link stylesheets → script src → JavaScript module
// graph → asset tags → reachable CSS (linked, then transitively @imported). Entries are
// deduplicated by (sourcePath, label, requestedPath), the first one kept. The result is empty
// (not nil) when there is no HTML entry.
func Diagnose(files []File) []Diagnostic {
	c := newCompiler(files, Options{}, true)
	entry := c.ix.entry()
	if entry == nil {
		return []Diagnostic{}
	}
	c.document(entry)
	return c.diagnostics(entry)
}

// Export returns the standalone HTML export of files (SPEC §3 `webcoding export`): the
// compiled entry with stylesheets and scripts inlined, modules in one static import map of data: URLs,
// assets as data: URLs, and no bridge script.
//
// # Errors
//   - ErrNoEntry: the workspace has no HTML file.
func Export(files []File) (string, error) {
	r := Compile(files, Options{})
	if r.Entry == "" {
		return "", ErrNoEntry
	}
	return r.HTML, nil
}

// index is the compiler's read-only view of the workspace.
type index struct {
	files     []File
	byPath    map[string]int
	textBytes int // total bytes of text sources, to size the output once
	// notImported maps the path of a KindNotImported entry (with no workspace file at that
	// path) to its Reason.
	notImported map[string]string
	// unexamined is the Reason of a KindNotImported entry with an empty Path ("" when none):
	// the folder had files the import did not name.
	unexamined string
}

func newIndex(files []File) *index {
	ix := &index{files: make([]File, 0, len(files)), byPath: make(map[string]int, len(files))}
	var absent []File
	for _, f := range files {
		f.Path = strings.ToValidUTF8(f.Path, "\uFFFD")
		if f.Kind == KindNotImported && f.Path == "" {
			if ix.unexamined == "" {
				ix.unexamined = cmpOr(strings.ToValidUTF8(f.Reason, "\uFFFD"), "not imported")
			}
			continue
		}
		if f.Kind == KindNotImported {
			absent = append(absent, f)
			continue
		}
		if f.Kind != KindAsset {
			f.Source = strings.ToValidUTF8(f.Source, "\uFFFD")
			ix.textBytes += len(f.Source)
		}
		if _, dup := ix.byPath[f.Path]; !dup {
			ix.byPath[f.Path] = len(ix.files)
		}
		ix.files = append(ix.files, f)
	}
	for _, f := range absent {
		if _, exists := ix.byPath[f.Path]; exists {
			continue // a file made since the import wins
		}
		if ix.notImported == nil {
			ix.notImported = map[string]string{}
		}
		if _, dup := ix.notImported[f.Path]; !dup {
			reason := strings.ToValidUTF8(f.Reason, "\uFFFD")
			if reason == "" {
				reason = "not imported"
			}
			ix.notImported[f.Path] = reason
		}
	}
	return ix
}

func (ix *index) entry() *File {
	if i, ok := ix.byPath[EntryFilePath]; ok && ix.files[i].Kind != KindAsset {
		return &ix.files[i]
	}
	for i := range ix.files {
		if ix.files[i].Language == LangHTML {
			return &ix.files[i]
		}
	}
	return nil
}

// get returns the file at path, if any.
func (ix *index) get(path string) *File {
	if i, ok := ix.byPath[path]; ok {
		return &ix.files[i]
	}
	return nil
}

// text returns the text file at path with the given language, if any.
func (ix *index) text(path, lang string) *File {
	f := ix.get(path)
	if f == nil || f.Kind == KindAsset || f.Language != lang {
		return nil
	}
	return f
}

// cmpOr returns s, or def when s is empty.
func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
