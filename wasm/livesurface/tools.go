package livesurface

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/workspace"
)

// Tool names of the Live Code Editor (live reference, section 2.3), in tools/list order.
const (
	ToolGetStatus        = "editor.getStatus"
	ToolListFiles        = "editor.listFiles"
	ToolOpenFile         = "editor.openFile"
	ToolSaveFile         = "editor.saveFile"
	ToolSaveAll          = "editor.saveAll"
	ToolGetDocument      = "editor.getDocument"
	ToolGetPreviewStatus = "editor.getPreviewStatus"
	ToolSetDocument      = "editor.setDocument"
	ToolApplyPatch       = "editor.applyPatch"
	ToolSetScenario      = "editor.setScenario"
	ToolResetDocument    = "editor.resetDocument"
)

// ToolNames returns the eleven tool names in tools/list order (a fresh slice).
func ToolNames() []string {
	return []string{ToolGetStatus, ToolListFiles, ToolOpenFile, ToolSaveFile, ToolSaveAll, ToolGetDocument,
		ToolGetPreviewStatus, ToolSetDocument, ToolApplyPatch, ToolSetScenario, ToolResetDocument}
}

// Limits in code points (SPEC §2.14). Paths keep the original's 2,000; the source budget is
// the project's one budget, workspace.MaxSourceChars (80,000; the original's editor allowed
// 100,000, docs/design.md §5.27); the patch bounds are the studio's (the original's too).
const (
	MaxPathChars = 2000
	// MaxSaveFiles bounds one editor.saveAll (the original's save manifest limit).
	MaxSaveFiles = 200
)

// StorageMemory is storageMode without a Repository (headless) or after the Repository
// failed: the session keeps its workspace in memory. With the page's IndexedDB database
// storageMode is the workspace's own ("indexed-db", workspace.StorageIndexedDB).
const StorageMemory = "memory"

// Filesystem modes of editor.getStatus.
const (
	FilesystemLocalFolder = "local-folder"
	FilesystemBrowserOnly = "browser-only"
)

// SavedToFilesystem is editor.saveFile's savedTo.
const SavedToFilesystem = "filesystem"

var (
	inPath     = studio.StringSchema(1, MaxPathChars)
	inRevision = studio.SchemaRevision
	inScenario = studio.EnumSchema(ScenarioSuccess, ScenarioInvalid, ScenarioBlocked)
	outPreview = studio.ObjectSchema([]studio.Prop{
		studio.P("state", studio.EnumSchema(StateRendered, StateCompiled, StatePending, StateError)),
		studio.P("revision", `{"type":"integer","minimum":-1}`),
		studio.P("runtime", studio.SchemaString),
		studio.P("message", studio.StringSchema(0, workspace.MaxMessageChars)),
	}, "state", "revision", "runtime")
	outPaths = studio.ArraySchema(studio.SchemaString)
)

// documentProps are getDocument's fields; documentOut adds the preview (mutations) and extra.
func documentProps() []studio.Prop {
	P := studio.P
	return []studio.Prop{P("exampleId", studio.SchemaString), P("file", studio.SchemaString), P("source", studio.SchemaString),
		P("scenario", inScenario), P("revision", studio.SchemaRevision), P("activePath", studio.SchemaString),
		P("workspaceRevision", studio.SchemaRevision), P("documentRevision", studio.SchemaRevision)}
}

var documentRequired = []string{"exampleId", "file", "source", "scenario", "revision", "activePath", "workspaceRevision", "documentRevision"}

func documentOut(mutation bool, extra ...studio.Prop) json.RawMessage {
	props, req := documentProps(), append([]string(nil), documentRequired...)
	if mutation {
		props = append(props, studio.P("preview", outPreview))
		req = append(req, "preview")
	}
	for _, e := range extra {
		props = append(props, e)
		req = append(req, e.Name())
	}
	return studio.OutputSchema(props, req...)
}

// guardText ends the description of every document mutation.
const guardText = " expectedRevision: optional document revision (editor.getDocument's revision); when given and not current the call fails with WORKSPACE_REVISION_CONFLICT before anything changes. The call adds one document revision and waits for the preview to acknowledge it."

// tools returns the eleven tools in live reference, section 2.3's order, bound to s.
func (s *surface) tools() []registry.Tool {
	P, str, itoa := studio.P, studio.StringSchema, studio.Thousands
	noArgs := studio.InputSchema(nil)
	ro := mcp.ToolAnnotations{ReadOnlyHint: true}
	budget := itoa(workspace.MaxSourceChars)
	return []registry.Tool{
		{Name: ToolGetStatus, Annotations: ro, Handler: s.getStatus,
			Description: "Report the editor: the active path, both revision clocks (workspaceRevision: files; documentRevision: the open document), the document's path and exampleId, root name, storage mode, file count, dirty paths, whether a local folder is linked for saving, and the preview's acknowledgement. Call it first.",
			InputSchema: noArgs,
			OutputSchema: studio.OutputSchema([]studio.Prop{
				P("activePath", studio.SchemaString), P("workspaceRevision", studio.SchemaRevision), P("documentRevision", studio.SchemaRevision),
				P("documentPath", studio.SchemaString), P("documentExampleId", studio.SchemaString), P("rootName", studio.SchemaString),
				P("storageMode", studio.SchemaString), P("fileCount", studio.IntSchema(0, 0)), P("dirtyPaths", outPaths),
				P("filesystem", studio.ObjectSchema([]studio.Prop{P("mode", studio.EnumSchema(FilesystemLocalFolder, FilesystemBrowserOnly)),
					P("folderLinked", studio.SchemaBool), P("saveAllAvailable", studio.SchemaBool)}, "mode", "folderLinked", "saveAllAvailable")),
				P("preview", outPreview)},
				"activePath", "workspaceRevision", "documentRevision", "documentPath", "documentExampleId", "rootName", "storageMode",
				"fileCount", "dirtyPaths", "filesystem", "preview")},
		{Name: ToolListFiles, Annotations: ro, Handler: s.listFiles,
			Description: "List the workspace files (isText, mimeType, path, size in UTF-8 bytes) with the active path, the workspace revision, the dirty paths, root name and storage mode.",
			InputSchema: noArgs,
			OutputSchema: studio.OutputSchema([]studio.Prop{
				P("activePath", studio.SchemaString), P("workspaceRevision", studio.SchemaRevision), P("dirtyPaths", outPaths),
				P("rootName", studio.SchemaString), P("storageMode", studio.SchemaString),
				P("files", studio.ArraySchema(studio.ObjectSchema([]studio.Prop{P("isText", studio.SchemaBool), P("mimeType", studio.SchemaString),
					P("path", studio.SchemaString), P("size", studio.IntSchema(0, 0))}, "isText", "mimeType", "path", "size")))},
				"activePath", "workspaceRevision", "dirtyPaths", "rootName", "storageMode", "files")},
		{Name: ToolOpenFile, Handler: s.openFile,
			Description:  "Open a text file as the document: it becomes the active file, the document takes its path, text and exampleId (the scenario is kept). path: 1.." + itoa(MaxPathChars) + " characters; an asset cannot be opened. The workspace revision does not change." + guardText,
			InputSchema:  studio.InputSchema([]studio.Prop{P("path", inPath), P("expectedRevision", inRevision)}, "path"),
			OutputSchema: documentOut(true)},
		{Name: ToolSaveFile, Annotations: mcp.ToolAnnotations{DestructiveHint: true, IdempotentHint: true}, Handler: s.saveFile,
			Description: "Write one text file's current text to the linked local folder (needs a folder; model and MCP calls need approval). path: 1.." + itoa(MaxPathChars) + " characters. Neither revision changes; the path leaves dirtyPaths. Pass _meta.idempotencyKey (one per session and path) so a retry replays instead of writing twice; an interrupted save is recovered by reading the folder back (editor/recoverSave).",
			InputSchema: studio.InputSchema([]studio.Prop{P("path", inPath)}, "path"),
			OutputSchema: studio.OutputSchema([]studio.Prop{P("path", studio.SchemaString), P("activePath", studio.SchemaString),
				P("savedTo", studio.ConstSchema(SavedToFilesystem)), P("dirtyPaths", outPaths),
				P("workspaceRevision", studio.SchemaRevision), P("documentRevision", studio.SchemaRevision)},
				"path", "activePath", "savedTo", "dirtyPaths", "workspaceRevision", "documentRevision")},
		{Name: ToolSaveAll, Annotations: mcp.ToolAnnotations{DestructiveHint: true, IdempotentHint: true}, Handler: s.saveAll,
			Description: "Write every dirty text file (at most " + itoa(MaxSaveFiles) + ", in path order) to the linked local folder (needs a folder; model and MCP calls need approval). Neither revision changes. A save interrupted after some files fails with TOOL_EXECUTION_UNKNOWN (retryable; details list the planned and completed files); with _meta.idempotencyKey it is recovered by reading the folder back against the save's manifest of digests and lengths (editor/recoverSave), never by writing again.",
			InputSchema: noArgs,
			OutputSchema: studio.OutputSchema([]studio.Prop{P("savedPaths", outPaths), P("activePath", studio.SchemaString), P("dirtyPaths", outPaths),
				P("workspaceRevision", studio.SchemaRevision), P("documentRevision", studio.SchemaRevision)},
				"savedPaths", "activePath", "dirtyPaths", "workspaceRevision", "documentRevision")},
		{Name: ToolGetDocument, Annotations: ro, Handler: s.getDocument,
			Description:  "Read the document: exampleId, file, source, scenario, revision (the document clock; documentRevision repeats it), the active path and the workspace revision.",
			InputSchema:  noArgs,
			OutputSchema: documentOut(false)},
		{Name: ToolGetPreviewStatus, Annotations: ro, Handler: s.getPreviewStatus,
			Description:  "Read the preview's acknowledgement of the document: state rendered (a page ran the current revision), compiled (a headless host compiled it and ran nothing), pending or error (with the message); revision is the newest acknowledged document revision (-1 before the first).",
			InputSchema:  noArgs,
			OutputSchema: studio.OutputSchema([]studio.Prop{P("state", studio.EnumSchema(StateRendered, StateCompiled, StatePending, StateError)), P("revision", `{"type":"integer","minimum":-1}`), P("runtime", studio.SchemaString), P("message", studio.SchemaString)}, "state", "revision", "runtime")},
		{Name: ToolSetDocument, Annotations: mcp.ToolAnnotations{IdempotentHint: true}, Handler: s.setDocument,
			Description:  "Replace the document's text (and its scenario when given). The safe runner never executes it; only the web starter's index.html, style.css and script.js run, in the sandboxed preview (other documents are shown as text). source: 1.." + budget + " characters. New text adds one workspace revision and marks the file dirty; the same text changes only the document clock." + guardText,
			InputSchema:  studio.InputSchema([]studio.Prop{P("source", str(1, workspace.MaxSourceChars)), P("scenario", inScenario), P("expectedRevision", inRevision)}, "source"),
			OutputSchema: documentOut(true)},
		{Name: ToolApplyPatch, Handler: s.applyPatch,
			Description: "Replace literal text in the document (no regular expressions). search: 1.." + itoa(workspace.MaxPatchSearchChars) + " characters; replace: 0.." + itoa(workspace.MaxPatchReplaceChars) + "; occurrence: first or all. The patched text must stay within " + budget + " characters; a miss fails with WORKSPACE_PATCH_NOT_FOUND. Adds one document and one workspace revision." + guardText,
			InputSchema: studio.InputSchema([]studio.Prop{P("search", str(1, workspace.MaxPatchSearchChars)), P("replace", str(0, workspace.MaxPatchReplaceChars)),
				P("occurrence", studio.EnumSchema(workspace.OccurrenceFirst, workspace.OccurrenceAll)), P("expectedRevision", inRevision)}, "search", "replace", "occurrence"),
			OutputSchema: documentOut(true, P("replacements", studio.IntSchema(1, 0)))},
		{Name: ToolSetScenario, Annotations: mcp.ToolAnnotations{IdempotentHint: true}, Handler: s.setScenario,
			Description:  "Set the document's scenario for the safe runner: success, invalid or blocked (a label, not code; the runner simulates and never executes the document). Only the document clock moves." + guardText,
			InputSchema:  studio.InputSchema([]studio.Prop{P("scenario", inScenario), P("expectedRevision", inRevision)}, "scenario"),
			OutputSchema: documentOut(true)},
		{Name: ToolResetDocument, Annotations: mcp.ToolAnnotations{DestructiveHint: true}, Handler: s.resetDocument,
			Description:  "Return the document to its file's baseline (the text loaded when the session started or last saved to the folder), keeping the scenario. The workspace revision moves only when the text changes." + guardText,
			InputSchema:  studio.InputSchema([]studio.Prop{P("expectedRevision", inRevision)}),
			OutputSchema: documentOut(true)},
	}
}

// checkChars is the handlers' guard of a bound the schema states (it holds when a session
// validates in "warn" or "silent" mode): TOOL_VALIDATION_FAILED {field}.
func checkChars(field, v string, minChars, maxChars int) error {
	if n := workspace.CharCount(v); n < minChars || n > maxChars {
		return mcp.NewError(mcp.CodeToolValidationFailed, false, map[string]any{"field": field},
			"%s must be %d..%s characters.", field, minChars, studio.Thousands(maxChars))
	}
	return nil
}

func checkScenario(v string) error {
	for _, s := range ScenarioNames() {
		if v == s {
			return nil
		}
	}
	return mcp.NewError(mcp.CodeToolValidationFailed, false, map[string]any{"field": "scenario"},
		"scenario must be one of %s.", strings.Join(ScenarioNames(), ", "))
}

func wcall(c *registry.Call) workspace.Call {
	return workspace.Call{Tool: c.Name, CallID: c.ToolCallID}
}

// StatusResult is editor.getStatus's result.
type StatusResult struct {
	ActivePath        string      `json:"activePath"`
	WorkspaceRevision int64       `json:"workspaceRevision"`
	DocumentRevision  int64       `json:"documentRevision"`
	DocumentPath      string      `json:"documentPath"`
	DocumentExampleID string      `json:"documentExampleId"`
	RootName          string      `json:"rootName"`
	StorageMode       string      `json:"storageMode"`
	FileCount         int         `json:"fileCount"`
	DirtyPaths        []string    `json:"dirtyPaths"`
	Filesystem        Filesystem  `json:"filesystem"`
	Preview           PreviewInfo `json:"preview"`
}

// Filesystem is editor.getStatus's filesystem object; both booleans say a folder is linked.
type Filesystem struct {
	Mode             string `json:"mode"`
	FolderLinked     bool   `json:"folderLinked"`
	SaveAllAvailable bool   `json:"saveAllAvailable"`
}

func (s *surface) getStatus(ctx context.Context, c *registry.Call) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap := s.m.Snapshot()
	linked := s.m.Folder() != nil
	fs := Filesystem{Mode: FilesystemBrowserOnly}
	if linked {
		fs = Filesystem{Mode: FilesystemLocalFolder, FolderLinked: true, SaveAllAvailable: true}
	}
	return StatusResult{ActivePath: snap.ActivePath, WorkspaceRevision: snap.Revision, DocumentRevision: s.doc.revision,
		DocumentPath: s.doc.file, DocumentExampleID: s.doc.exampleID, RootName: snap.RootName, StorageMode: string(s.m.Status(ctx).StorageMode),
		FileCount: len(snap.Files), DirtyPaths: s.dirtyLocked(snap.Files), Filesystem: fs, Preview: s.previewLocked()}, nil
}

// FileEntry is one file of editor.listFiles.
type FileEntry struct {
	IsText   bool   `json:"isText"`
	MimeType string `json:"mimeType"`
	Path     string `json:"path"`
	Size     int    `json:"size"`
}

// ListResult is editor.listFiles's result; files are in path order.
type ListResult struct {
	ActivePath        string      `json:"activePath"`
	WorkspaceRevision int64       `json:"workspaceRevision"`
	DirtyPaths        []string    `json:"dirtyPaths"`
	RootName          string      `json:"rootName"`
	StorageMode       string      `json:"storageMode"`
	Files             []FileEntry `json:"files"`
}

func (s *surface) listFiles(ctx context.Context, c *registry.Call) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap := s.m.Snapshot()
	files := make([]FileEntry, 0, len(snap.Files))
	for _, f := range snap.Files {
		e := FileEntry{IsText: f.Kind != workspace.KindAsset, MimeType: f.MimeType, Path: f.Path, Size: len(f.Source)}
		if !e.IsText {
			e.Size = len(f.Data)
		}
		files = append(files, e)
	}
	sortEntries(files)
	return ListResult{ActivePath: snap.ActivePath, WorkspaceRevision: snap.Revision, DirtyPaths: s.dirtyLocked(snap.Files),
		RootName: snap.RootName, StorageMode: string(s.m.Status(ctx).StorageMode), Files: files}, nil
}

func (s *surface) getDocument(ctx context.Context, c *registry.Call) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.documentLocked(), nil
}

func (s *surface) getPreviewStatus(ctx context.Context, c *registry.Call) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.previewLocked(), nil
}

func (s *surface) openFile(ctx context.Context, c *registry.Call) (any, error) {
	var in struct {
		Path             string `json:"path"`
		ExpectedRevision *int64 `json:"expectedRevision"`
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if err := checkChars("path", in.Path, 1, MaxPathChars); err != nil {
		return nil, err
	}
	return s.mutate(ctx, ToolOpenFile, in.ExpectedRevision, func() (int, error) {
		f, err := s.m.File(in.Path)
		if err != nil {
			return 0, err
		}
		if f.Kind == workspace.KindAsset {
			return 0, workspace.TypeConflict(f.Path, "open", workspace.KindAsset, workspace.KindText)
		}
		if _, err := s.m.OpenFile(ctx, f.Path); err != nil {
			return 0, err
		}
		s.doc.exampleID, s.doc.file, s.doc.source = exampleIDFor(f.Path, s.examples), f.Path, f.Source
		return 0, nil
	})
}

// writeDocLocked writes src to the document's file when it differs (one workspace revision)
// and makes it the document's text.
func (s *surface) writeDocLocked(ctx context.Context, c *registry.Call, src string) error {
	if src != s.doc.source {
		if _, err := s.m.WriteFile(ctx, wcall(c), s.doc.file, src); err != nil {
			return err
		}
	}
	s.doc.source = src
	return nil
}

func (s *surface) setDocument(ctx context.Context, c *registry.Call) (any, error) {
	var in struct {
		Source           string  `json:"source"`
		Scenario         *string `json:"scenario"`
		ExpectedRevision *int64  `json:"expectedRevision"`
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if workspace.CharCount(in.Source) > workspace.MaxSourceChars {
		return nil, workspace.SourceLimit("Source", workspace.CharCount(in.Source))
	}
	if err := checkChars("source", in.Source, 1, workspace.MaxSourceChars); err != nil {
		return nil, err
	}
	if in.Scenario != nil {
		if err := checkScenario(*in.Scenario); err != nil {
			return nil, err
		}
	}
	return s.mutate(ctx, ToolSetDocument, in.ExpectedRevision, func() (int, error) {
		if err := s.writeDocLocked(ctx, c, in.Source); err != nil {
			return 0, err
		}
		if in.Scenario != nil {
			s.doc.scenario = *in.Scenario
		}
		return 0, nil
	})
}

func (s *surface) applyPatch(ctx context.Context, c *registry.Call) (any, error) {
	var in struct {
		Search           string `json:"search"`
		Replace          string `json:"replace"`
		Occurrence       string `json:"occurrence"`
		ExpectedRevision *int64 `json:"expectedRevision"`
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	return s.mutate(ctx, ToolApplyPatch, in.ExpectedRevision, func() (int, error) {
		res, err := s.m.ApplyPatch(ctx, wcall(c), s.doc.file, in.Search, in.Replace, in.Occurrence)
		if err != nil {
			return 0, err
		}
		f, err := s.m.File(s.doc.file)
		if err != nil {
			return 0, err
		}
		s.doc.source = f.Source
		return res.Replacements, nil
	})
}

func (s *surface) setScenario(ctx context.Context, c *registry.Call) (any, error) {
	var in struct {
		Scenario         string `json:"scenario"`
		ExpectedRevision *int64 `json:"expectedRevision"`
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if err := checkScenario(in.Scenario); err != nil {
		return nil, err
	}
	return s.mutate(ctx, ToolSetScenario, in.ExpectedRevision, func() (int, error) {
		s.doc.scenario = in.Scenario
		return 0, nil
	})
}

func (s *surface) resetDocument(ctx context.Context, c *registry.Call) (any, error) {
	var in struct {
		ExpectedRevision *int64 `json:"expectedRevision"`
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	return s.mutate(ctx, ToolResetDocument, in.ExpectedRevision, func() (int, error) {
		base, ok := s.baseline[s.doc.file]
		if !ok {
			return 0, workspace.FileNotFound(s.doc.file)
		}
		return 0, s.writeDocLocked(ctx, c, base)
	})
}
