package preview

import "strings"

// Diagnostic is one problem found in the HTML entry's reference graph (REFERENCE §5.4).
//
// JSON: {"kind", "sourcePath", "requestedPath", "message"}. Kind is one of the Diag…
// constants; SourcePath is the workspace file holding the reference; RequestedPath is the
// reference as written (trimmed, HTML entities decoded for attributes, JavaScript/CSS escapes
// decoded for string literals); Message is the user-facing English text.
type Diagnostic struct {
	Kind          string `json:"kind"`
	SourcePath    string `json:"sourcePath"`
	RequestedPath string `json:"requestedPath"`
	Message       string `json:"message"`
}

// Diagnostic kinds (REFERENCE §5.4).
const (
	DiagMissingReference  = "missing-reference"
	DiagBlockedExternal   = "blocked-external-reference"
	DiagUnsupportedModule = "unsupported-module-reference"
	DiagModuleGraphLimit  = "module-graph-limit"
	// DiagEntryFallback is the warning of EntryDiagnostic (browser studio only: it is not
	// part of Diagnose, whose output REFERENCE §5.4 fixes).
	DiagEntryFallback = "entry-fallback"
	// DiagUnsupportedRefresh: a <meta http-equiv="refresh"> to no URL (a periodic reload), or
	// any in the export, is not run (one to another site is an external reference; the first one
	// to a workspace URL the preview's runtime follows, RuntimeConfig.Refresh).
	DiagUnsupportedRefresh = "unsupported-meta-refresh"
	// DiagNotImported: the reference names a file the user's folder holds but the import left
	// out (File kind KindNotImported): "<Label> <X>: <path> is in the folder but was not
	// imported: <reason>"; or a path the workspace can never hold (ExcludedPath: a hidden
	// file or folder, node_modules): ExcludedMessage. Never a missing-reference.
	DiagNotImported = "not-imported-reference"
)

// EntryDiagnostic returns a warning naming the rendered entry when it is not index.html
// (REFERENCE §5.1: without index.html the first HTML file is the entry), and false when entry
// is index.html or "" (the waiting page). Diagnose and Compile never include it, so their
// output stays as REFERENCE §5.4 and the conformance vectors pin it; the browser preview panel
// shows it next to them.
func EntryDiagnostic(entry string) (Diagnostic, bool) {
	if entry == "" || entry == EntryFilePath {
		return Diagnostic{}, false
	}
	return Diagnostic{
		Kind:          DiagEntryFallback,
		SourcePath:    entry,
		RequestedPath: EntryFilePath,
		Message:       "Previewing " + entry + ": there is no " + EntryFilePath + ", so the first HTML file is the entry. Name the page " + EntryFilePath + " to choose it.",
	}, true
}

// Reference labels used in messages and in the deduplication key.
const (
	labelStylesheet       = "stylesheet"
	labelMetaRefresh      = "meta refresh"
	labelScript           = "script"
	labelModuleImport     = "module import"
	labelAsset            = "asset"
	labelStylesheetImport = "stylesheet import"
)

// Diagnostic passes, in output order (REFERENCE §5.4).
const (
	passLinks = iota
	passScripts
	passModules
	passAssets
	passCSS
	passCount
)

type labeledDiag struct {
	Diagnostic
	label string
}

// diagSink collects diagnostics per pass while the document is built.
type diagSink struct {
	passes [passCount][]labeledDiag
	muted  bool // record nothing (modules mapped but not known to be loaded)
}

func (s *diagSink) add(pass int, kind, label, source, requested, message string) {
	if s.muted {
		return
	}
	s.passes[pass] = append(s.passes[pass], labeledDiag{Diagnostic{kind, source, requested, message}, label})
}

// missing records "Missing <label>: X".
func (s *diagSink) missing(pass int, label, source, requested string) {
	s.add(pass, DiagMissingReference, label, source, requested, "Missing "+label+": "+requested)
}

// notImported records the reference req to path p, a folder file the import left out.
func (s *diagSink) notImported(pass int, label, source, requested, p, reason string) {
	s.add(pass, DiagNotImported, label, source, requested, NotImportedMessage(label, requested, p, reason))
}

// NotImportedMessage is the text of a DiagNotImported diagnostic and of the placeholder a
// module import of such a file gets: "Stylesheet big.css: big.css is in the folder but was
// not imported: larger than 2 MB (the import limit for text files)". label is the kind of
// reference ("stylesheet", "script", "module import", "asset", "stylesheet import"), requested
// the reference as written, p the workspace path it resolved to, reason File.Reason.
func NotImportedMessage(label, requested, p, reason string) string {
	return capitalized(label) + " " + requested + ": " + p + " is in the folder but was not imported: " + reason
}

// ExcludedReason says why a path inside a hidden file or folder or node_modules is never a
// workspace file: every boundary that creates a file refuses such a path and the import never
// takes one (workspace.ExcludedPathReason holds the same rule; docs/design.md §5.51). The
// runtime's report for a run-time request of such a path says the same words.
const ExcludedReason = "the workspace never holds hidden files or folders (names starting with a dot) or node_modules, and an import leaves them out"

// ExcludedPath reports whether the workspace path p has a segment that starts with "." or is
// "node_modules" — a path no workspace file can have (ExcludedReason). p is a resolved
// workspace path ("a/.b/c.js"), so "." and ".." segments do not occur in it.
func ExcludedPath(p string) bool {
	for s := range strings.SplitSeq(p, "/") {
		if strings.HasPrefix(s, ".") || s == "node_modules" {
			return true
		}
	}
	return false
}

// ExcludedMessage is the text of the DiagNotImported diagnostic for a reference to a path the
// workspace can never hold (ExcludedPath): "Script .jslibs/jquery.js: .jslibs/jquery.js is not
// in the workspace: <ExcludedReason>". Before, such a reference was called missing, although
// the user could not have added the file (dygraphs' site keeps its libraries in .jslibs/).
func ExcludedMessage(label, requested, p string) string {
	return capitalized(label) + " " + requested + ": " + p + " is not in the workspace: " + ExcludedReason
}

// UnexaminedMessage is the text of the DiagNotImported diagnostic for a reference to path p
// that names no workspace file when the import could not name every file of the folder (a
// KindNotImported entry with an empty Path; reason its Reason): "Asset zimg/x.png: zimg/x.png
// is not among the imported files; it may be in the folder: the folder is larger than the
// import examines (the first 2,000 entries)".
func UnexaminedMessage(label, requested, p, reason string) string {
	return capitalized(label) + " " + requested + ": " + p + " is not among the imported files; it may be in the folder: " + reason
}

// capitalized is label with its first letter upper-cased ("script" → "Script"), as the
// diagnostic messages that start with the reference's kind write it.
func capitalized(label string) string {
	if label == "" {
		return ""
	}
	return strings.ToUpper(label[:1]) + label[1:]
}

// external records "External <label> is blocked in the sandbox: X".
func (s *diagSink) external(pass int, label, source, requested string) {
	s.add(pass, DiagBlockedExternal, label, source, requested, "External "+label+" is blocked in the sandbox: "+requested)
}

// list concatenates the passes in order and drops repeats of (sourcePath, label,
// requestedPath), keeping the first.
func (s *diagSink) list() []Diagnostic {
	type key struct{ source, label, requested string }
	seen := map[key]bool{}
	out := []Diagnostic{}
	for _, p := range s.passes {
		for _, d := range p {
			k := key{d.SourcePath, d.label, d.RequestedPath}
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, d.Diagnostic)
		}
	}
	return out
}
