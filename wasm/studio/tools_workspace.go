package studio

import (
	"context"
	"path"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/workspace"
)

// Inputs of the workspace.* tools (decoded after strict schema validation).
type (
	inNone  struct{}
	inGuard struct {
		ExpectedRevision *int64 `json:"expectedRevision"`
	}
	inPathOnly struct {
		Path string `json:"path"`
	}
	inPathGuard struct {
		Path             string `json:"path"`
		ExpectedRevision *int64 `json:"expectedRevision"`
	}
	inSourceArgs struct {
		Path             string `json:"path"`
		Source           string `json:"source"`
		ExpectedRevision *int64 `json:"expectedRevision"`
	}
	inRename struct {
		FromPath         string `json:"fromPath"`
		ToPath           string `json:"toPath"`
		ExpectedRevision *int64 `json:"expectedRevision"`
	}
	inPatch struct {
		Path             string `json:"path"`
		Search           string `json:"search"`
		Replace          string `json:"replace"`
		Occurrence       string `json:"occurrence"`
		ExpectedRevision *int64 `json:"expectedRevision"`
	}
)

// Results of the workspace.* tools; each embeds the persistence meta P.
type (
	statusOut struct {
		workspace.Status
	}
	importOut struct {
		RootName   string `json:"rootName"`
		ActivePath string `json:"activePath"`
		FileCount  int    `json:"fileCount"`
		Revision   int64  `json:"revision"`
		Preview    string `json:"preview"`
		persist
	}
	listOut struct {
		workspace.Listing
		persist
	}
	readOut struct {
		workspace.ReadResult
		persist
	}
	downloadOut struct {
		Path string `json:"path"`
		Kind string `json:"kind"`
		Size int    `json:"size"`
		persist
	}
	openOut struct {
		Path       string `json:"path"`
		ActivePath string `json:"activePath"`
		Revision   int64  `json:"revision"`
		persist
	}
	createOut struct {
		Path       string `json:"path"`
		ActivePath string `json:"activePath"`
		Revision   int64  `json:"revision"`
		Preview    string `json:"preview"`
		Language   string `json:"language"`
		persist
	}
	renameOut struct {
		FromPath   string `json:"fromPath"`
		ToPath     string `json:"toPath"`
		ActivePath string `json:"activePath"`
		Revision   int64  `json:"revision"`
		Preview    string `json:"preview"`
		persist
	}
	pathSyncOut struct {
		Path       string `json:"path"`
		ActivePath string `json:"activePath"`
		Revision   int64  `json:"revision"`
		Preview    string `json:"preview"`
		persist
	}
	saveOut struct {
		workspace.SaveResult
		persist
	}
	reloadOut struct {
		RootName   string                    `json:"rootName"`
		ActivePath string                    `json:"activePath"`
		FileCount  int                       `json:"fileCount"`
		Skipped    []workspace.Skipped       `json:"skipped"`
		Revision   int64                     `json:"revision"`
		Preview    string                    `json:"preview"`
		Filesystem workspace.FilesystemState `json:"filesystem"`
		// NameCollisions: imported files whose names collide (issue 14 item 12); absent when none.
		NameCollisions []workspace.NameCollision `json:"nameCollisions,omitempty"`
		persist
	}
	disconnectOut struct {
		ActivePath string                    `json:"activePath"`
		Revision   int64                     `json:"revision"`
		Filesystem workspace.FilesystemState `json:"filesystem"`
		persist
	}
	patchOut struct {
		Path         string `json:"path"`
		ActivePath   string `json:"activePath"`
		Revision     int64  `json:"revision"`
		Preview      string `json:"preview"`
		Replacements int    `json:"replacements"`
		persist
	}
	historyOut struct {
		Direction  string `json:"direction"`
		Changed    bool   `json:"changed"`
		ActivePath string `json:"activePath"`
		Revision   int64  `json:"revision"`
		Preview    string `json:"preview"`
		persist
	}
)

// decode is registry.Call.Decode for a typed input.
func decode[T any](c *registry.Call) (T, error) {
	var v T
	err := c.Decode(&v)
	return v, err
}

// Handlers of the workspace.* tools. Each is thin: it calls the Manager, waits for the
// preview ack when the tool "syncs" (REFERENCE §2), and adds the persistence meta.

func (e *studioSession) getStatus(ctx context.Context, c *registry.Call) (any, error) {
	s := e.m.Status(ctx)
	s.Preview = e.shownPreview(s.Preview)
	return statusOut{s}, nil
}

// shownPreview is st corrected by what the preview shows now, when its port knows better
// (preview.RuntimeObserver.Shown: a pending mount, a runtime error after the
// acknowledgement, a discarded frame, a navigation away), so workspace.getStatus,
// preview.getStatus and the status line agree (design.md §5.30).
func (e *studioSession) shownPreview(st workspace.PreviewState) workspace.PreviewState {
	if ro, ok := e.preview.(preview.RuntimeObserver); ok {
		if status, msg, shown := ro.Shown(st.Revision); shown {
			st.Status, st.Message = status, mcp.Bound(msg, workspace.MaxMessageChars)
		}
	}
	return st
}

func (e *studioSession) reset(ctx context.Context, c *registry.Call) (any, error) {
	in, err := decode[inGuard](c)
	if err != nil {
		return nil, err
	}
	res, terr := e.m.Reset(ctx, wcall(c, in.ExpectedRevision))
	if terr != nil {
		return nil, terr
	}
	if err := e.sync(ctx, res.Revision, true, false); err != nil {
		return nil, err
	}
	return importOut{RootName: res.RootName, ActivePath: res.ActivePath, FileCount: res.FileCount,
		Revision: res.Revision, Preview: workspace.PreviewSynced, persist: e.meta(ctx)}, nil
}

func (e *studioSession) listFiles(ctx context.Context, c *registry.Call) (any, error) {
	return listOut{e.m.ListFiles(), e.meta(ctx)}, nil
}

func (e *studioSession) readFile(ctx context.Context, c *registry.Call) (any, error) {
	in, err := decode[inPathOnly](c)
	if err != nil {
		return nil, err
	}
	res, terr := e.m.ReadFile(in.Path)
	if terr != nil {
		return nil, terr
	}
	return readOut{res, e.meta(ctx)}, nil
}

func (e *studioSession) downloadFile(ctx context.Context, c *registry.Call) (any, error) {
	in, err := decode[inPathOnly](c)
	if err != nil {
		return nil, err
	}
	f, terr := e.m.File(in.Path)
	if terr != nil {
		return nil, terr
	}
	data, mime := f.Data, f.MimeType
	if f.Kind != workspace.KindAsset {
		data = []byte(f.Source)
	}
	if mime == "" {
		mime = "text/plain"
	}
	if e.downloads == nil {
		return nil, noDownloadTarget(f.Path)
	}
	if err := e.downloads(path.Base(f.Path), mime, data); err != nil {
		return nil, err
	}
	return downloadOut{Path: f.Path, Kind: f.Kind, Size: len(data), persist: e.meta(ctx)}, nil
}

func (e *studioSession) openFile(ctx context.Context, c *registry.Call) (any, error) {
	in, err := decode[inPathOnly](c)
	if err != nil {
		return nil, err
	}
	res, terr := e.m.OpenFile(ctx, in.Path)
	if terr != nil {
		return nil, terr
	}
	return openOut{Path: res.Path, ActivePath: res.ActivePath, Revision: res.Revision, persist: e.meta(ctx)}, nil
}

// synced waits for the ack of a mutation's result and returns it when synced.
func (e *studioSession) synced(ctx context.Context, res workspace.Result) error {
	return e.sync(ctx, res.Revision, res.Changed, false)
}

func (e *studioSession) createFile(ctx context.Context, c *registry.Call) (any, error) {
	in, err := decode[inSourceArgs](c)
	if err != nil {
		return nil, err
	}
	res, terr := e.m.CreateFile(ctx, wcall(c, in.ExpectedRevision), in.Path, in.Source)
	if terr != nil {
		return nil, terr
	}
	if err := e.synced(ctx, res); err != nil {
		return nil, err
	}
	return createOut{Path: res.Path, ActivePath: res.ActivePath, Revision: res.Revision,
		Preview: workspace.PreviewSynced, Language: res.Language, persist: e.meta(ctx)}, nil
}

func (e *studioSession) renameFile(ctx context.Context, c *registry.Call) (any, error) {
	in, err := decode[inRename](c)
	if err != nil {
		return nil, err
	}
	res, terr := e.m.RenameFile(ctx, wcall(c, in.ExpectedRevision), in.FromPath, in.ToPath)
	if terr != nil {
		return nil, terr
	}
	if err := e.synced(ctx, res); err != nil {
		return nil, err
	}
	return renameOut{FromPath: res.FromPath, ToPath: res.Path, ActivePath: res.ActivePath, Revision: res.Revision,
		Preview: workspace.PreviewSynced, persist: e.meta(ctx)}, nil
}

// pathSync runs a path mutation and returns the common {path, activePath, revision, preview}.
func (e *studioSession) pathSync(ctx context.Context, res workspace.Result, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	if err := e.synced(ctx, res); err != nil {
		return nil, err
	}
	return pathSyncOut{Path: res.Path, ActivePath: res.ActivePath, Revision: res.Revision,
		Preview: workspace.PreviewSynced, persist: e.meta(ctx)}, nil
}

func (e *studioSession) deleteFile(ctx context.Context, c *registry.Call) (any, error) {
	in, err := decode[inPathGuard](c)
	if err != nil {
		return nil, err
	}
	res, terr := e.m.DeleteFile(ctx, wcall(c, in.ExpectedRevision), in.Path)
	return e.pathSync(ctx, res, terr)
}

func (e *studioSession) writeFile(ctx context.Context, c *registry.Call) (any, error) {
	in, err := decode[inSourceArgs](c)
	if err != nil {
		return nil, err
	}
	call := wcall(c, in.ExpectedRevision)
	if c.Source == mcp.SourceLocal && c.Mode == mcp.ModeDirect {
		// The page's editor marks one typing burst with _meta.coalesceKey; its flushes fold
		// into one checkpoint. Agent, model and MCP writes never coalesce.
		call.CoalesceKey = c.CoalesceKey
	}
	res, terr := e.m.WriteFile(ctx, call, in.Path, in.Source)
	return e.pathSync(ctx, res, terr)
}

func (e *studioSession) revertFile(ctx context.Context, c *registry.Call) (any, error) {
	in, err := decode[inPathGuard](c)
	if err != nil {
		return nil, err
	}
	res, terr := e.m.RevertFile(ctx, wcall(c, in.ExpectedRevision), in.Path)
	return e.pathSync(ctx, res, terr)
}

func (e *studioSession) saveAll(ctx context.Context, c *registry.Call) (any, error) {
	in, err := decode[inGuard](c)
	if err != nil {
		return nil, err
	}
	opts, terr := e.save.Prepare(ctx, e.m) // durable writes + reconciliation (wasm/foldersave)
	if terr != nil {
		return nil, terr
	}
	res, terr := e.m.SaveAll(ctx, wcall(c, in.ExpectedRevision), opts)
	if terr != nil {
		return nil, terr
	}
	return saveOut{res, e.meta(ctx)}, nil
}

func (e *studioSession) saveCheckpoint(ctx context.Context, c *registry.Call) (any, error) {
	in, err := decode[inGuard](c)
	if err != nil {
		return nil, err
	}
	res, terr := e.m.SaveCheckpoint(ctx, wcall(c, in.ExpectedRevision))
	if terr != nil {
		return nil, terr
	}
	return saveOut{res, e.meta(ctx)}, nil
}

func (e *studioSession) reloadFolder(ctx context.Context, c *registry.Call) (any, error) {
	in, err := decode[inGuard](c)
	if err != nil {
		return nil, err
	}
	res, terr := e.m.ReloadFolder(ctx, wcall(c, in.ExpectedRevision))
	if terr != nil {
		return nil, terr
	}
	if err := e.sync(ctx, res.Revision, true, false); err != nil {
		return nil, err
	}
	st := e.m.Status(ctx)
	return reloadOut{RootName: res.RootName, ActivePath: res.ActivePath, FileCount: res.FileCount, Skipped: res.Skipped,
		Revision: res.Revision, Preview: workspace.PreviewSynced, Filesystem: st.Filesystem, NameCollisions: res.NameCollisions,
		persist: persist{StorageMode: st.StorageMode, StorageError: st.StorageError}}, nil
}

func (e *studioSession) disconnectFolder(ctx context.Context, c *registry.Call) (any, error) {
	res := e.m.DisconnectFolder(ctx)
	st := e.m.Status(ctx)
	return disconnectOut{ActivePath: res.ActivePath, Revision: res.Revision, Filesystem: st.Filesystem,
		persist: persist{StorageMode: st.StorageMode, StorageError: st.StorageError}}, nil
}

func (e *studioSession) applyPatch(ctx context.Context, c *registry.Call) (any, error) {
	in, err := decode[inPatch](c)
	if err != nil {
		return nil, err
	}
	res, terr := e.m.ApplyPatch(ctx, wcall(c, in.ExpectedRevision), in.Path, in.Search, in.Replace, in.Occurrence)
	if terr != nil {
		return nil, terr
	}
	if err := e.synced(ctx, res); err != nil {
		return nil, err
	}
	return patchOut{Path: res.Path, ActivePath: res.ActivePath, Revision: res.Revision, Preview: workspace.PreviewSynced,
		Replacements: res.Replacements, persist: e.meta(ctx)}, nil
}

func (e *studioSession) history(direction string) registry.Handler {
	return func(ctx context.Context, c *registry.Call) (any, error) {
		in, err := decode[inGuard](c)
		if err != nil {
			return nil, err
		}
		step := e.m.Undo
		if direction == workspace.DirectionRedo {
			step = e.m.Redo
		}
		res, terr := step(ctx, wcall(c, in.ExpectedRevision))
		if terr != nil {
			return nil, terr
		}
		if err := e.sync(ctx, res.Revision, true, false); err != nil {
			return nil, err
		}
		return historyOut{Direction: res.Direction, Changed: true, ActivePath: res.ActivePath, Revision: res.Revision,
			Preview: workspace.PreviewSynced, persist: e.meta(ctx)}, nil
	}
}
