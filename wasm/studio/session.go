package studio

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/webcoding/studio/wasm/foldersave"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/workspace"
)

// studioSession is one assembled studio session: the workspace manager and the ports its tools use.
type studioSession struct {
	m          *workspace.Manager
	preview    preview.Port
	downloads  func(name, mimeType string, data []byte) error
	ackTimeout time.Duration
	p          Ports             // the session's ports (folder host, durable backend, observer: folder_ops.go)
	save       *foldersave.Saver // durable folder saves and their reconciliation (wasm/foldersave)
	early      *earlyMount       // the mount started at each commit (workspace.Options.OnCommit)
}

// earlyMount mounts every committed incremental change in the preview from the manager's
// commit hook (workspace.Options.OnCommit), before the change's IndexedDB write starts: the
// document compiles and the frame loads while the write is awaited, instead of after it.
// The tool still returns only after the write (its result's storageMode/storageError are read
// after it, as before) and after the frame's bridge acknowledged the revision (sync below).
// Measured: docs/performance.md, "Edit → ack A/B (2026-12-06)".
//
// A mount error is kept for its revision and reported by sync exactly as a mount error of
// its own (PREVIEW_RUNTIME_ERROR). The hook runs with the manager's lock held, so mounts
// happen in commit order.
type earlyMount struct {
	port preview.Port
	mu   sync.Mutex
	rev  int64 // the revision of the last early mount (0: none)
	err  error // its error
}

func (em *earlyMount) mount(s workspace.Snapshot) {
	err := em.port.Mount(context.Background(), preview.Mount{Revision: s.Revision, Files: snapshotPreviewFiles(s)})
	em.mu.Lock()
	em.rev, em.err = s.Revision, err
	em.mu.Unlock()
}

// mounted reports whether the last early mount was of rev, and its error.
func (em *earlyMount) mounted(rev int64) (bool, error) {
	if em == nil {
		return false, nil
	}
	em.mu.Lock()
	defer em.mu.Unlock()
	return em.rev == rev && rev != 0, em.err
}

// persist is the persistence meta P of every result: {"storageMode", "storageError"?}.
type persist struct {
	StorageMode  workspace.StorageMode `json:"storageMode"`
	StorageError string                `json:"storageError,omitempty"`
}

func (e *studioSession) meta(ctx context.Context) persist {
	s := e.m.Status(ctx)
	return persist{StorageMode: s.StorageMode, StorageError: s.StorageError}
}

// wcall turns a registry call into the manager's call record (tool and call id go into the
// history checkpoint, SPEC §2.12).
func wcall(c *registry.Call, expected *int64) workspace.Call {
	return workspace.Call{Tool: c.Name, CallID: c.ToolCallID, ExpectedRevision: expected}
}

// sync mounts the current workspace in the preview and waits for the acknowledgement of rev
// (REFERENCE §2 "sync", SPEC §2.13). applied says whether the calling tool changed the
// workspace; it is reported in the error details so callers never re-run an applied change.
//
// # Errors (details always carry revision and applied)
//   - PREVIEW_ACK_TIMEOUT (retryable): {revision, timeoutMs, applied}
//   - PREVIEW_REVISION_SUPERSEDED (retryable): {requestedRevision, actualRevision, revision, applied}
//   - PREVIEW_RUNTIME_ERROR: {revision, applied}; the port reported a runtime error (or could
//     not mount)
//   - the caller cancelled (or the call's deadline passed) while mounting or waiting for the
//     acknowledgement: when nothing was applied, ctx's error (the registry maps it to
//     TOOL_CANCELLED / TOOL_TIMEOUT); when the change was applied, a TOOL_CANCELLED (or
//     TOOL_TIMEOUT) error whose details say so — {revision, applied: true, phase:
//     "preview-ack"} — and whose message says the change was applied, then cancelled while
//     waiting for the preview (SPEC §2.13: an applied mutation is never reported as not done)
//
// When the commit of rev already mounted it (earlyMount), only the acknowledgement is awaited
// here (a failed early mount is reported as a failed mount); a remount always mounts.
func (e *studioSession) sync(ctx context.Context, rev int64, applied, remount bool) error {
	if done, err := e.early.mounted(rev); done && !remount {
		record := func(r int64, status, message string) { e.m.SetPreviewStatus(r, status, message) }
		if err != nil {
			return mountFailed(ctx, err, rev, applied, record)
		}
		return awaitAck(ctx, e.preview, e.ackTimeout, rev, applied, record)
	}
	return SyncPreview(ctx, e.m, e.preview, e.ackTimeout, rev, applied, remount)
}

// SyncPreview is the one preview synchronisation of every surface (studioSession.sync above):
// it mounts m's current files in port, waits up to ackTimeout for the acknowledgement of rev,
// records the outcome with m.SetPreviewStatus and returns the typed error described at sync.
// The realtime surface (wasm/websurface) calls it so both surfaces report preview failures
// with the same codes and details.
func SyncPreview(ctx context.Context, m *workspace.Manager, port preview.Port, ackTimeout time.Duration, rev int64, applied, remount bool) error {
	s := m.Snapshot()
	return SyncMount(ctx, port, ackTimeout, preview.Mount{Revision: s.Revision, Files: snapshotPreviewFiles(s), Remount: remount}, rev, applied,
		func(r int64, status, message string) { m.SetPreviewStatus(r, status, message) })
}

// SyncMount is SyncPreview over a mount the caller built: it mounts mount in port, waits up to
// ackTimeout for the acknowledgement of rev and reports each outcome to record (revision,
// workspace.PreviewSynced or workspace.PreviewError, message). Its errors are SyncPreview's.
// The Live Code Editor (wasm/livesurface) calls it with its document clock and the mount of
// its document, so every surface reports preview failures with the same codes.
func SyncMount(ctx context.Context, port preview.Port, ackTimeout time.Duration, mount preview.Mount, rev int64, applied bool, record func(rev int64, status, message string)) error {
	if err := port.Mount(ctx, mount); err != nil {
		return mountFailed(ctx, err, rev, applied, record)
	}
	return awaitAck(ctx, port, ackTimeout, rev, applied, record)
}

// awaitAck is SyncMount after the mount: it waits up to ackTimeout for the acknowledgement of
// rev and reports the outcome (errors: sync's).
func awaitAck(ctx context.Context, port preview.Port, ackTimeout time.Duration, rev int64, applied bool, record func(rev int64, status, message string)) error {
	ack, err := port.Await(ctx, rev, ackTimeout)
	switch {
	case errors.Is(err, preview.ErrAckTimeout):
		ms := ackTimeout.Milliseconds()
		advice := "Refresh the preview."
		if applied {
			advice = "The change was applied: refresh the preview; do not repeat the change."
		}
		return mcp.NewError(mcp.CodePreviewAckTimeout, true, map[string]any{"revision": rev, "timeoutMs": ms, "applied": applied},
			"Preview did not acknowledge revision %d within %d ms. %s", rev, ms, advice)
	case err != nil && ctx.Err() != nil:
		return appliedThenCancelled(ctx, rev, applied)
	case err != nil:
		return err
	case ack.Revision > rev:
		record(ack.Revision, ack.Status, ack.Message)
		return mcp.NewError(mcp.CodePreviewRevisionSuperseded, true,
			map[string]any{"requestedRevision": rev, "actualRevision": ack.Revision, "revision": rev, "applied": applied},
			"Preview revision %d was superseded by revision %d before it was acknowledged.", rev, ack.Revision)
	case ack.Status == workspace.PreviewError:
		record(rev, workspace.PreviewError, ack.Message)
		msg := ack.Message
		if msg == "" {
			msg = "Preview runtime error"
		}
		return mcp.NewError(mcp.CodePreviewRuntimeError, false, map[string]any{"revision": rev, "applied": applied},
			"Preview reported a runtime error at revision %d: %s", rev, mcp.Bound(msg, maxMessageChars))
	}
	record(rev, workspace.PreviewSynced, "")
	return nil
}

// mountFailed is sync's error when the port could not mount rev (err): the caller's
// cancellation (appliedThenCancelled), else PREVIEW_RUNTIME_ERROR {revision, applied}, recorded
// as the revision's preview error.
func mountFailed(ctx context.Context, err error, rev int64, applied bool, record func(rev int64, status, message string)) error {
	if ctx.Err() != nil {
		return appliedThenCancelled(ctx, rev, applied)
	}
	record(rev, workspace.PreviewError, err.Error())
	return mcp.NewError(mcp.CodePreviewRuntimeError, false, map[string]any{"revision": rev, "applied": applied},
		"Preview could not mount revision %d: %s", rev, err.Error())
}

// appliedThenCancelled is sync's error when ctx ended while the preview was mounting or being
// awaited. Without an applied change it is ctx's error (the registry's usual TOOL_CANCELLED /
// TOOL_TIMEOUT). With one it is a typed error that says the change landed: TOOL_CANCELLED
// (retryable; ctx cancelled) or TOOL_TIMEOUT (retryable; ctx's deadline passed), details
// {revision, applied: true, phase: "preview-ack"}, message "Revision N was applied, then
// cancelled while waiting for the preview; do not repeat the change." (SPEC §2.13).
func appliedThenCancelled(ctx context.Context, rev int64, applied bool) error {
	if !applied {
		return ctx.Err()
	}
	d := map[string]any{"revision": rev, "applied": true, "phase": "preview-ack"}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return mcp.NewError(mcp.CodeToolTimeout, true, d,
			"Revision %d was applied, then timed out while waiting for the preview; refresh the preview, do not repeat the change.", rev)
	}
	return mcp.NewError(mcp.CodeToolCancelled, true, d,
		"Revision %d was applied, then cancelled while waiting for the preview; do not repeat the change.", rev)
}

// noDownloadTarget is the error of workspace.downloadFile on a host without a download target
// (Ports.Downloads nil; the headless CLI without --downloads, SPEC §3): TOOL_EXECUTION_FAILED,
// not retryable, details {operation:"download", path, reason:"no-download-target"}.
func noDownloadTarget(path string) *mcp.ToolError {
	return mcp.NewError(mcp.CodeToolExecutionFailed, false,
		map[string]any{"operation": "download", "path": path, "reason": ReasonNoDownloadTarget},
		"This host has no download target, so %s was not downloaded.", path)
}

// ReasonNoDownloadTarget is details.reason of a workspace.downloadFile refused because the
// host has no download target.
const ReasonNoDownloadTarget = "no-download-target"
