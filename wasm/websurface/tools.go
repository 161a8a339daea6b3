package websurface

import (
	"context"
	"strings"
	"time"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/workspace"
)

// Tool names of the realtime surface (live reference, section 3.4), in tools/list order.
const (
	ToolGetWorkspace = "web.getWorkspace"
	ToolReadFile     = "web.readFile"
	ToolWriteFile    = "web.writeFile"
	ToolApplyPatch   = "web.applyPatch"
	ToolSetTheme     = "web.setTheme"
	ToolAddFeature   = "web.addFeature"
	ToolUpdateHero   = "web.updateHero"
	ToolRunPreview   = "web.runPreview"
)

// ToolNames returns the eight tool names in tools/list order (a fresh slice).
func ToolNames() []string {
	return []string{ToolGetWorkspace, ToolReadFile, ToolWriteFile, ToolApplyPatch, ToolSetTheme,
		ToolAddFeature, ToolUpdateHero, ToolRunPreview}
}

// Limits in code points (SPEC §2.14). Paths and the visual tools' texts keep the original's
// bounds (live reference, section 3.4); the source budget is the project's one budget,
// workspace.MaxSourceChars (80,000; the original allowed 100,000), and the patch bounds are
// the studio's (the same as the original's).
const (
	MaxPathChars               = 240
	MaxFeatureTitleChars       = 80
	MaxFeatureDescriptionChars = 180
	MaxHeroTitleChars          = 100
	MaxHeroSubtitleChars       = 220
)

// Preview states of a result's preview object: rendered (the page ran and acknowledged the
// revision), compiled (a headless host compiled the document and ran nothing, SPEC §2.6),
// pending (not acknowledged yet), error (the preview reported a runtime error).
const (
	StateRendered = "rendered"
	StateCompiled = "compiled"
	StatePending  = "pending"
	StateError    = "error"
)

// PreviewInfo is the preview object of every mutation result and of web.runPreview:
// {"state", "revision", "runtime", "message"?}.
type PreviewInfo struct {
	State    string `json:"state"`
	Revision int64  `json:"revision"`
	Runtime  string `json:"runtime"`
	Message  string `json:"message,omitempty"`
}

// FileEntry is one file of web.getWorkspace: {"path", "isText", "size"}; size is the UTF-8
// byte length of a text file's source (the original's unit) and the byte length of an asset.
type FileEntry struct {
	Path   string `json:"path"`
	IsText bool   `json:"isText"`
	Size   int    `json:"size"`
}

// WorkspaceInfo is web.getWorkspace's result {"activePath", "rootName", "revision", "files"}.
type WorkspaceInfo struct {
	ActivePath string      `json:"activePath"`
	RootName   string      `json:"rootName"`
	Revision   int64       `json:"revision"`
	Files      []FileEntry `json:"files"`
}

// MutationResult is the result of every web.* mutation: {"path", "activePath", "revision",
// "preview"} plus the tool's own field (replacements, theme or title).
type MutationResult struct {
	Path         string      `json:"path"`
	ActivePath   string      `json:"activePath"`
	Revision     int64       `json:"revision"`
	Preview      PreviewInfo `json:"preview"`
	Replacements int         `json:"replacements,omitempty"`
	Theme        string      `json:"theme,omitempty"`
	Title        string      `json:"title,omitempty"`
}

// surface is one session of the realtime surface: its workspace and preview port.
type surface struct {
	m          *workspace.Manager
	port       preview.Port
	ackTimeout time.Duration
}

func (s *surface) workspaceInfo() WorkspaceInfo {
	snap := s.m.Snapshot()
	files := make([]FileEntry, len(snap.Files))
	for i, f := range snap.Files {
		size := len(f.Source)
		if f.Kind == workspace.KindAsset {
			size = len(f.Data)
		}
		files[i] = FileEntry{Path: f.Path, IsText: f.Kind != workspace.KindAsset, Size: size}
	}
	return WorkspaceInfo{ActivePath: snap.ActivePath, RootName: snap.RootName, Revision: snap.Revision, Files: files}
}

// executed reports whether the port runs the page (a browser's iframe) rather than only
// compiling it.
func (s *surface) executed() bool { return s.port.Runtime() != preview.RuntimeHeadless }

// previewInfo maps the workspace's preview status to the result's preview object.
func (s *surface) previewInfo() PreviewInfo {
	ps := s.m.Preview()
	info := PreviewInfo{Revision: ps.Revision, Runtime: s.port.Runtime(), Message: ps.Message}
	switch ps.Status {
	case workspace.PreviewSynced:
		info.State = StateCompiled
		if s.executed() {
			info.State = StateRendered
		}
	case workspace.PreviewError:
		info.State = StateError
	default:
		info.State = StatePending
	}
	return info
}

// checkChars is the handlers' guard of a text bound (the schema states the same bound; the
// guard holds when a session validates in "warn" or "silent" mode): TOOL_VALIDATION_FAILED
// {field}.
func checkChars(field, s string, minChars, maxChars int) error {
	if n := workspace.CharCount(s); n < minChars || n > maxChars {
		return mcp.NewError(mcp.CodeToolValidationFailed, false, map[string]any{"field": field},
			"%s must be %d..%s characters.", field, minChars, studio.Thousands(maxChars))
	}
	return nil
}

// finish waits for the preview of an applied mutation (studio.SyncPreview: the typed
// PREVIEW_* errors with applied true, SPEC §2.13) and builds the result.
func (s *surface) finish(ctx context.Context, res workspace.Result, out MutationResult) (any, error) {
	if err := studio.SyncPreview(ctx, s.m, s.port, s.ackTimeout, res.Revision, true, false); err != nil {
		return nil, err
	}
	out.Path, out.ActivePath, out.Revision = res.Path, res.ActivePath, res.Revision
	out.Preview = s.previewInfo()
	return out, nil
}

func wcall(c *registry.Call, expected *int64) workspace.Call {
	return workspace.Call{Tool: c.Name, CallID: c.ToolCallID, ExpectedRevision: expected}
}

func (s *surface) getWorkspace(ctx context.Context, c *registry.Call) (any, error) {
	return s.workspaceInfo(), nil
}

func (s *surface) readFile(ctx context.Context, c *registry.Call) (any, error) {
	var in struct {
		Path string `json:"path"`
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if err := checkChars("path", in.Path, 1, MaxPathChars); err != nil {
		return nil, err
	}
	return s.m.ReadFile(in.Path)
}

// writeFile replaces a text file, or creates it when the path is new (web.writeFile doubles
// as create, live reference, section 3.4; the new file becomes the active one, as createFile does).
func (s *surface) writeFile(ctx context.Context, c *registry.Call) (any, error) {
	var in struct {
		Path             string `json:"path"`
		Source           string `json:"source"`
		ExpectedRevision *int64 `json:"expectedRevision"`
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if err := checkChars("path", in.Path, 1, MaxPathChars); err != nil {
		return nil, err
	}
	wc := wcall(c, in.ExpectedRevision)
	res, err := s.m.WriteFile(ctx, wc, in.Path, in.Source)
	if terr := mcp.ToolErrorOf(err); terr != nil && terr.Code == mcp.CodeWorkspaceFileNotFound {
		res, err = s.m.CreateFile(ctx, wc, in.Path, in.Source)
	}
	if err != nil {
		return nil, err
	}
	return s.finish(ctx, res, MutationResult{})
}

func (s *surface) applyPatch(ctx context.Context, c *registry.Call) (any, error) {
	var in struct {
		Path             string `json:"path"`
		Search           string `json:"search"`
		Replace          string `json:"replace"`
		Occurrence       string `json:"occurrence"`
		ExpectedRevision *int64 `json:"expectedRevision"`
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if err := checkChars("path", in.Path, 1, MaxPathChars); err != nil {
		return nil, err
	}
	res, err := s.m.ApplyPatch(ctx, wcall(c, in.ExpectedRevision), in.Path, in.Search, in.Replace, in.Occurrence)
	if err != nil {
		return nil, err
	}
	return s.finish(ctx, res, MutationResult{Replacements: res.Replacements})
}

func (s *surface) setTheme(ctx context.Context, c *registry.Call) (any, error) {
	var in struct {
		Theme            string `json:"theme"`
		ExpectedRevision *int64 `json:"expectedRevision"`
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if _, ok := themeColors[in.Theme]; !ok {
		return nil, mcp.NewError(mcp.CodeToolValidationFailed, false, map[string]any{"field": "theme"},
			"theme must be one of %s.", strings.Join(ThemeNames, ", "))
	}
	res, err := s.m.TransformFile(ctx, wcall(c, in.ExpectedRevision), StylePath, "setTheme", func(p, src string) (string, error) {
		return setTheme(p, src, in.Theme)
	})
	if err != nil {
		return nil, err
	}
	return s.finish(ctx, res, MutationResult{Theme: in.Theme})
}

func (s *surface) addFeature(ctx context.Context, c *registry.Call) (any, error) {
	var in struct {
		Title            string `json:"title"`
		Description      string `json:"description"`
		ExpectedRevision *int64 `json:"expectedRevision"`
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if err := checkChars("title", in.Title, 1, MaxFeatureTitleChars); err != nil {
		return nil, err
	}
	if err := checkChars("description", in.Description, 1, MaxFeatureDescriptionChars); err != nil {
		return nil, err
	}
	res, err := s.m.TransformFile(ctx, wcall(c, in.ExpectedRevision), IndexPath, "addFeature", func(p, src string) (string, error) {
		return addFeature(p, src, in.Title, in.Description)
	})
	if err != nil {
		return nil, err
	}
	return s.finish(ctx, res, MutationResult{Title: in.Title})
}

func (s *surface) updateHero(ctx context.Context, c *registry.Call) (any, error) {
	var in struct {
		Title            string `json:"title"`
		Subtitle         string `json:"subtitle"`
		ExpectedRevision *int64 `json:"expectedRevision"`
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if err := checkChars("title", in.Title, 1, MaxHeroTitleChars); err != nil {
		return nil, err
	}
	if err := checkChars("subtitle", in.Subtitle, 1, MaxHeroSubtitleChars); err != nil {
		return nil, err
	}
	res, err := s.m.TransformFile(ctx, wcall(c, in.ExpectedRevision), IndexPath, "updateHero", func(p, src string) (string, error) {
		return updateHero(p, src, in.Title, in.Subtitle)
	})
	if err != nil {
		return nil, err
	}
	return s.finish(ctx, res, MutationResult{Title: in.Title})
}

// RunPreviewResult is web.runPreview's result: the workspace (web.getWorkspace's shape), the
// preview status of the current revision, and the compiler's diagnostics for it.
type RunPreviewResult struct {
	Workspace   WorkspaceInfo        `json:"workspace"`
	Preview     PreviewInfo          `json:"preview"`
	Entry       string               `json:"entry"`
	Diagnostics []preview.Diagnostic `json:"diagnostics"`
	Note        string               `json:"note,omitempty"`
}

// HeadlessNote is web.runPreview's note on a host that only compiles the page.
const HeadlessNote = "This host compiled the page and ran nothing: scripts did not run and nothing was rendered."

// runPreview reads: it compiles the current files (a pure function, no mount) for the
// diagnostics and reports the preview status the port acknowledged; it never remounts.
func (s *surface) runPreview(ctx context.Context, c *registry.Call) (any, error) {
	snap := s.m.Snapshot()
	res := preview.Compile(studio.PreviewSnapshotFiles(snap), preview.Options{Revision: snap.Revision, Nonce: studio.HeadlessNonce, Bridge: true})
	out := RunPreviewResult{Workspace: s.workspaceInfo(), Preview: s.previewInfo(), Entry: res.Entry, Diagnostics: res.Diagnostics}
	if out.Diagnostics == nil {
		out.Diagnostics = []preview.Diagnostic{}
	}
	if !s.executed() {
		out.Note = HeadlessNote
	}
	return out, nil
}
