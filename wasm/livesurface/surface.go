package livesurface

import (
	"context"
	"html"
	"strconv"
	"sync"
	"time"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/workspace"
)

// document is the one controlled document (live reference, section 1.1): a projection of the
// active workspace file plus its exampleId and scenario, with its own revision clock.
type document struct {
	exampleID, file, source, scenario string
	revision                          int64
}

// surface is one session of the Live Code Editor: the workspace (workspace.Manager: files, the
// workspace clock, the linked folder), the document and its clock, the preview bookkeeping of
// document revisions, and the save baseline.
type surface struct {
	mu         sync.Mutex // guards doc, baseline and the preview bookkeeping; held across each change
	saveMu     sync.Mutex // one save at a time: two saves would interleave their folder writes
	m          *workspace.Manager
	port       preview.Port
	ackTimeout time.Duration
	examples   bool           // the built-in examples workspace (no folder linked)
	plans      *durable.Store // save plans (save.go); nil without a durable backend
	owner      string         // owner id of the plan records

	doc      document
	baseline map[string]string // path → text loaded at start or last written to the folder
	rendered int64             // newest acknowledged document revision, -1 before the first
	errRev   int64             // document revision the preview reported an error for, -1 none
	errMsg   string
}

// newSurface builds the session state over a hydrated (and, with a folder, imported) manager.
// The document starts as the original's after hydration: revision 1, the active file (the
// first text file when the active one is an asset), scenario success.
func newSurface(m *workspace.Manager, port preview.Port, examples bool) *surface {
	s := &surface{m: m, port: port, ackTimeout: studio.PreviewAckTimeout, examples: examples,
		baseline: map[string]string{}, rendered: -1, errRev: -1}
	snap := m.Snapshot()
	file := ""
	for _, f := range snap.Files {
		if f.Kind == workspace.KindAsset {
			continue
		}
		s.baseline[f.Path] = f.Source
		if file == "" || f.Path == snap.ActivePath {
			file = f.Path
		}
	}
	if file != "" && file != snap.ActivePath {
		_, _ = m.OpenFile(context.Background(), file)
	}
	s.doc = document{exampleID: exampleIDFor(file, examples), file: file, source: s.baseline[file], scenario: ScenarioSuccess, revision: 1}
	return s
}

// PreviewInfo is the acknowledged preview of a document revision: {"state", "revision",
// "runtime", "message"?}. State: rendered (a page ran the revision and acknowledged it),
// compiled (a headless host compiled it and ran nothing; what the headless preview gives as
// its acknowledgement), pending (not acknowledged), error (the preview reported an error for
// the current revision). Revision is the newest acknowledged document revision (−1 before
// the first), or the errored one.
type PreviewInfo struct {
	State    string `json:"state"`
	Revision int64  `json:"revision"`
	Runtime  string `json:"runtime"`
	Message  string `json:"message,omitempty"`
}

// Preview states.
const (
	StateRendered = "rendered"
	StateCompiled = "compiled"
	StatePending  = "pending"
	StateError    = "error"
)

func (s *surface) ackState() string {
	if s.port.Runtime() == preview.RuntimeHeadless {
		return StateCompiled
	}
	return StateRendered
}

// previewLocked is getPreviewStatus (live reference, section 1.1) with our states.
func (s *surface) previewLocked() PreviewInfo {
	info := PreviewInfo{Revision: s.rendered, Runtime: s.port.Runtime(), State: StatePending}
	switch {
	case s.errRev >= 0 && s.errRev == s.doc.revision:
		info.State, info.Revision, info.Message = StateError, s.errRev, s.errMsg
	case s.rendered >= s.doc.revision:
		info.State = s.ackState()
	}
	return info
}

// record is studio.SyncMount's report of an acknowledgement or an error (live reference,
// section 1.1 markRendered / markError).
func (s *surface) record(rev int64, status, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch status {
	case workspace.PreviewSynced:
		if rev < s.rendered || (s.errRev == rev) {
			return // an older ack, or an errored revision that can never become rendered
		}
		s.rendered = rev
		if s.errRev <= rev {
			s.errRev, s.errMsg = -1, ""
		}
	case workspace.PreviewError:
		if rev < s.doc.revision {
			return
		}
		s.errRev, s.errMsg = rev, mcp.Bound(message, workspace.MaxMessageChars)
	}
}

// executeLocked reports whether the document previews in execute mode: the workspace has an
// HTML entry and, in the examples workspace, the document is one of the web starter's files
// (live reference, section 2.7). Otherwise the preview is the text projection.
func (s *surface) executeLocked(files []*workspace.File) bool {
	hasEntry := false
	for _, f := range files {
		if f.Language == "html" {
			hasEntry = true
			break
		}
	}
	if !hasEntry {
		return false
	}
	if !s.examples {
		return true
	}
	switch s.doc.file {
	case IndexPath, StylePath, ScriptPath:
		return true
	}
	return false
}

// mountLocked is the preview mount of the current document revision: the workspace's files in
// execute mode, else one generated page that shows the document as text (exampleId, file,
// revision, scenario and the escaped source; no script: the code is never run).
func (s *surface) mountLocked() preview.Mount {
	files := s.m.Files()
	if s.executeLocked(files) {
		return preview.Mount{Revision: s.doc.revision, Files: studio.PreviewFiles(files)}
	}
	return preview.Mount{Revision: s.doc.revision, Files: []preview.File{{Path: ProjectionPath, Language: "html",
		Kind: workspace.KindText, MimeType: "text/html", Source: projection(s.doc)}}}
}

// ProjectionPath is the path of the generated text-projection page in a preview mount.
const ProjectionPath = "index.html"

// projection is the text-projection page of d (live reference, section 1.7, execute=false).
func projection(d document) string {
	colour := map[string]string{ScenarioSuccess: "#15803d", ScenarioInvalid: "#b45309", ScenarioBlocked: "#b91c1c"}[d.scenario]
	return "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + html.EscapeString(d.file) +
		"</title>\n<style>body{margin:0;font:14px system-ui,sans-serif}header{padding:.5rem 1rem;color:#fff;background:" + colour +
		"}pre{margin:0;padding:1rem;white-space:pre-wrap;font:13px ui-monospace,monospace}</style>\n</head>\n<body data-scenario=\"" +
		html.EscapeString(d.scenario) + "\">\n<header>" + html.EscapeString(d.exampleID) + " · " + html.EscapeString(d.file) +
		" · revision " + strconv.FormatInt(d.revision, 10) + " · scenario " + html.EscapeString(d.scenario) +
		" · safe runner: shown, not run</header>\n<pre>" + html.EscapeString(d.source) + "</pre>\n</body>\n</html>\n"
}

// dirtyLocked returns the paths whose text differs from their baseline, in workspace order.
func (s *surface) dirtyLocked(files []*workspace.File) []string {
	out := []string{}
	for _, f := range files {
		if f.Kind == workspace.KindAsset {
			continue
		}
		if base, ok := s.baseline[f.Path]; !ok || base != f.Source {
			out = append(out, f.Path)
		}
	}
	return out
}

// DocumentResult is editor.getDocument's result and, with Preview, the result of every
// document mutation (openFile, setDocument, applyPatch (+ replacements), setScenario,
// resetDocument). Revision and DocumentRevision are the document clock; WorkspaceRevision
// the workspace clock after the call.
type DocumentResult struct {
	ExampleID         string       `json:"exampleId"`
	File              string       `json:"file"`
	Source            string       `json:"source"`
	Scenario          string       `json:"scenario"`
	Revision          int64        `json:"revision"`
	ActivePath        string       `json:"activePath"`
	WorkspaceRevision int64        `json:"workspaceRevision"`
	DocumentRevision  int64        `json:"documentRevision"`
	Preview           *PreviewInfo `json:"preview,omitempty"`
	Replacements      int          `json:"replacements,omitempty"`
}

func (s *surface) documentLocked() DocumentResult {
	snap := s.m.Snapshot()
	return DocumentResult{ExampleID: s.doc.exampleID, File: s.doc.file, Source: s.doc.source, Scenario: s.doc.scenario,
		Revision: s.doc.revision, ActivePath: snap.ActivePath, WorkspaceRevision: snap.Revision, DocumentRevision: s.doc.revision}
}

// revisionConflict is a stale expectedRevision on the document clock:
// WORKSPACE_REVISION_CONFLICT (retryable), details {expectedRevision, currentRevision, clock:
// "document", operation}; nothing changed.
func revisionConflict(expected, current int64, operation string) *mcp.ToolError {
	return mcp.NewError(mcp.CodeWorkspaceRevisionConflict, true,
		map[string]any{"expectedRevision": expected, "currentRevision": current, "clock": "document", "operation": operation},
		"Expected document revision %d, but the document is at revision %d; re-read the document (editor.getDocument) and retry.", expected, current)
}

// mutate runs one document mutation (live reference, section 2.5 "mutation helper"): under
// the lock it refuses a cancelled call and a stale expectedRevision (document clock), runs
// change (which edits s.doc and, through the manager, the workspace), adds one document
// revision; then it mounts the new revision and waits for its acknowledgement
// (studio.SyncMount: PREVIEW_ACK_TIMEOUT, PREVIEW_REVISION_SUPERSEDED, PREVIEW_RUNTIME_ERROR
// with applied true; nothing is rolled back). The result is the document as the change left
// it, with the acknowledged preview.
func (s *surface) mutate(ctx context.Context, operation string, expected *int64, change func() (int, error)) (any, error) {
	s.mu.Lock()
	if err := ctx.Err(); err != nil {
		s.mu.Unlock()
		return nil, err
	}
	if expected != nil && *expected != s.doc.revision {
		s.mu.Unlock()
		return nil, revisionConflict(*expected, s.doc.revision, operation)
	}
	replacements, err := change()
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	s.doc.revision++
	rev := s.doc.revision
	if s.errRev >= 0 && s.errRev < rev {
		s.errRev, s.errMsg = -1, ""
	}
	out := s.documentLocked()
	out.Replacements = replacements
	mount := s.mountLocked()
	s.mu.Unlock()
	if err := studio.SyncMount(ctx, s.port, s.ackTimeout, mount, rev, true, s.record); err != nil {
		return nil, err
	}
	out.Preview = &PreviewInfo{State: s.ackState(), Revision: rev, Runtime: s.port.Runtime()}
	return out, nil
}

// syncStart mounts the starting document (revision 1) once, as a page renders it on load. A
// failure leaves the preview pending; it is not an error of the session.
func (s *surface) syncStart(ctx context.Context) {
	s.mu.Lock()
	mount, rev := s.mountLocked(), s.doc.revision
	s.mu.Unlock()
	_ = studio.SyncMount(ctx, s.port, s.ackTimeout, mount, rev, false, s.record)
}
