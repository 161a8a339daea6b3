package foldersave

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/workspace"
)

// Choices of Resolve (the params of workspace/resolveSave).
const (
	// ChoiceKeepFolder keeps the folder's version: the caller then takes the folder's bytes
	// into the workspace.
	ChoiceKeepFolder = "keep-folder"
	// ChoiceWriteOurs keeps the workspace's version: the next save writes it.
	ChoiceWriteOurs = "write-ours"
)

// eachRecord calls fn for every record of backend whose key starts with prefix, page by page
// (200 records a page) as they are listed. It returns the first listing error.
func eachRecord(ctx context.Context, b durable.Backend, prefix string, fn func(durable.Record)) error {
	cursor := prefix
	for {
		page, next, err := b.ListPage(ctx, cursor, 200)
		if err != nil {
			return err
		}
		for _, rec := range page {
			if !strings.HasPrefix(rec.Key, prefix) {
				return nil
			}
			fn(rec)
		}
		if next == "" {
			return nil
		}
		cursor = next
	}
}

// Reconcile settles the unknown save records of f's scope (and the pending ones this owner left
// behind; with Options.SoleOwner also another owner's pending ones) by reading the folder back; it returns the paths still unknown afterwards (never
// nil). Without a backend, a folder or a scope id it does nothing.
//
// Errors: WORKSPACE_DURABLE_STATE_UNAVAILABLE when the store cannot be listed or written;
// WORKSPACE_FOLDER_STALE / WORKSPACE_FOLDER_PERMISSION_DENIED when the folder cannot be read.
func (s *Saver) Reconcile(ctx context.Context, f workspace.FolderAdapter) ([]string, error) {
	unresolved := []string{}
	runner, err := s.durableRunner()
	if runner == nil || err != nil || f == nil || f.ScopeID() == "" {
		return unresolved, nil
	}
	store := runner.Store()
	scope := f.ScopeID()
	unavailable := func(err error) *mcp.ToolError {
		return mcp.NewError(mcp.CodeWorkspaceDurableStateUnavailable, true, map[string]any{"operation": "save", "scopeId": scope,
			"reason": mcp.Bound(err.Error(), maxReasonChars)}, "The durable save records could not be reconciled: %s", mcp.Bound(err.Error(), maxReasonChars))
	}
	var records []durable.Record
	plans := map[string]map[string]string{}
	if err := eachRecord(ctx, store.Backend(), saveKeyPrefix(scope), func(rec durable.Record) { records = append(records, rec) }); err != nil {
		return unresolved, unavailable(err)
	}
	for _, rec := range records {
		op, path, ok := parseSaveKey(rec.Key, scope)
		if !ok {
			continue
		}
		s.mu.Lock()
		running := s.inflight[rec.Key]
		s.mu.Unlock()
		if running {
			continue
		}
		if rec.State == durable.StatePending {
			switch {
			case rec.OwnerID == runner.OwnerID():
				// Our own claim from before a reload: the write may or may not have landed.
				if _, err := store.MarkUnknown(ctx, rec.Key, runner.OwnerID(), rec.Fence(), "the page stopped while the folder write was in flight", nil); err != nil {
					if errors.Is(err, durable.ErrLeaseExpired) {
						continue // the lease ended: the next claim takes it over
					}
					return unresolved, unavailable(err)
				}
			case s.opts.SoleOwner:
				// A claim of a session that is gone (a closed or killed tab): no one will
				// finish it, so settle it now rather than block this path for its lease.
				if _, err := store.Abandon(ctx, rec.Key, runner.OwnerID(), rec.Fence(), "the tab that claimed it closed while the folder write was in flight"); err != nil {
					if errors.Is(err, durable.ErrNotPending) || errors.Is(err, durable.ErrStaleFence) || errors.Is(err, durable.ErrFenceChanged) {
						continue // moved on since the listing
					}
					return unresolved, unavailable(err)
				}
			default:
				continue // another session's live claim (or its lease will end)
			}
		} else if rec.State != durable.StateUnknown {
			continue
		}
		state, reason, terr := judge(ctx, f, op, path, rec, previousHash(ctx, store, scope, rec.Key, path, plans))
		if terr != nil {
			return unresolved, terr
		}
		if state == "" {
			unresolved = append(unresolved, path)
			continue
		}
		resolution := durable.Resolution{State: state, Reason: reason}
		if state == durable.StateCompleted {
			resolution.Result = json.RawMessage(`{"reconciled":true}`)
		} else {
			resolution.Result, _ = json.Marshal(failedClass{Class: "reconciled"})
		}
		if _, err := runner.Recover(ctx, rec.Key, func(context.Context, durable.RecoverContext) (durable.Resolution, error) {
			return resolution, nil
		}, durable.RecoverOptions{}); err != nil {
			return unresolved, unavailable(err)
		}
	}
	if len(unresolved) == 0 {
		s.mu.Lock()
		s.clean, s.cleanScope = true, scope
		s.mu.Unlock()
	}
	return unresolved, nil
}

// judge decides an unknown save record by reading the folder: ("", …) when it stays unknown.
func judge(ctx context.Context, f workspace.FolderAdapter, op, path string, rec durable.Record, prev string) (durable.State, string, error) {
	var diag saveDiagnostic
	if _, d, err := durable.Payload(rec); err == nil && d != nil {
		_ = json.Unmarshal(d, &diag)
	}
	if diag.PreviousHash == "" {
		diag.PreviousHash = prev
	}
	data, err := f.ReadFile(ctx, path)
	missing := errors.Is(err, workspace.ErrFolderFileMissing) || errors.Is(err, workspace.ErrFolderNotAFile)
	switch {
	case err != nil && !missing:
		if errors.Is(err, workspace.ErrFolderStale) {
			return "", "", workspace.FolderStale("save", f.Name(), err)
		}
		if errors.Is(err, workspace.ErrFolderPermission) {
			return "", "", workspace.FolderPermissionDenied("save", f.Permission(ctx))
		}
		return "", "", nil // cannot tell yet
	case op == workspace.SaveOpDelete && missing:
		return durable.StateCompleted, "", nil
	case op == workspace.SaveOpDelete:
		return durable.StateFailed, "reconciled: the file is still in the folder", nil
	case missing:
		return durable.StateFailed, "reconciled: the file is absent from the folder", nil
	}
	h := workspace.SourceHash(data)
	switch {
	case h == plannedHash(rec.Fingerprint):
		return durable.StateCompleted, "", nil
	case diag.PreviousHash != "" && h == diag.PreviousHash:
		return durable.StateFailed, "reconciled: the folder still holds the bytes from before the save", nil
	}
	return "", "", nil
}

// Resolve settles, by the user's choice (ChoiceKeepFolder or ChoiceWriteOurs), the save records
// of path in scope whose outcome stayed unknown: each is resolved failed ("resolved by the
// user: <choice>"), so the next save claims it again. It returns how many it resolved (a record
// that cannot be recovered is skipped); without a backend it resolves none. Taking the folder's
// bytes for ChoiceKeepFolder and re-reading the baseline are the caller's.
//
// Errors: WORKSPACE_DURABLE_STATE_UNAVAILABLE (operation "resolve") when the records cannot be
// listed; records of earlier pages may already be resolved then.
func (s *Saver) Resolve(ctx context.Context, scope, path, choice string) (int, error) {
	runner, _ := s.durableRunner()
	if runner == nil {
		return 0, nil
	}
	resolved := 0
	err := eachRecord(ctx, runner.Store().Backend(), saveKeyPrefix(scope), func(rec durable.Record) {
		if _, p, ok := parseSaveKey(rec.Key, scope); !ok || p != path || rec.State != durable.StateUnknown {
			return
		}
		raw, _ := json.Marshal(failedClass{Class: "user-" + choice})
		if _, err := runner.Recover(ctx, rec.Key, func(context.Context, durable.RecoverContext) (durable.Resolution, error) {
			return durable.Resolution{State: durable.StateFailed, Reason: "resolved by the user: " + choice, Result: raw}, nil
		}, durable.RecoverOptions{}); err == nil {
			resolved++
		}
	})
	if err != nil {
		return resolved, mcp.NewError(mcp.CodeWorkspaceDurableStateUnavailable, true,
			map[string]any{"operation": "resolve", "reason": mcp.Bound(err.Error(), maxReasonChars)}, "%s", mcp.Bound(err.Error(), maxReasonChars))
	}
	return resolved, nil
}
