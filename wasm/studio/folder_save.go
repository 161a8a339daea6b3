package studio

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/jsonrpc"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/workspace"
)

// Durable folder saves (REFERENCE §2.1 saveAll "durable variant", SPEC §2.4). With a durable
// backend (Ports.Durable: IndexedDB "web-coding-operations" in the browser) every write and
// delete of workspace.saveAll runs through a durable.Runner under the key
// "workspace.saveAll:<scopeId>:<revision>:<write|delete>:<path>" with the fingerprint
// "workspace.saveAll:<op>:<path>:<sha256:hex|delete>", claimed as Ports.DurableOwnerID:
//
//   - a completed record replays (the file is never written twice, e.g. on the retry after a
//     crash);
//   - a failure confirmed before anything was written (stale root, permission, a directory in
//     the way, a path escaping the root) is recorded failed and keeps its code; a failed record
//     is a definite non-execution, so a retry removes it (compare-and-set on its fence) and
//     claims again;
//   - anything else is unknown: WORKSPACE_SIDE_EFFECT_UNKNOWN, and saves stay blocked until
//     reconcileSaves settled it by hash.
//
// reconcileSaves runs before every durable save and whenever a folder is (re)linked: it lists
// the scope's records and settles each unknown one — and each pending one this owner left
// behind (a page reload in the middle of a save: the owner id lives in sessionStorage, so the
// reloaded tab finishes its own claims instead of waiting for their lease) — by reading the
// folder back: bytes equal to the planned sha256 → completed; the file absent, or still the
// bytes from before the save → failed (safe to retry); anything else stays unknown until the
// user chooses (MethodResolveSave).

// saveDiagnostic is the diagnostic stored with an unknown save record.
type saveDiagnostic struct {
	Operation    string `json:"operation"`
	Path         string `json:"path"`
	ScopeID      string `json:"scopeId"`
	Revision     int64  `json:"revision"`
	SourceLength int    `json:"sourceLength,omitempty"`
	SourceHash   string `json:"sourceHash,omitempty"`
	PreviousHash string `json:"previousHash,omitempty"`
}

// failedClass is the result stored with a failed save record: which confirmed failure it was.
type failedClass struct {
	Class string `json:"class"`
}

var classErrors = map[string]error{
	"stale":      workspace.ErrFolderStale,
	"permission": workspace.ErrFolderPermission,
	"escapes":    workspace.ErrFolderPathEscapes,
	"not-a-file": workspace.ErrFolderNotAFile,
	"missing":    workspace.ErrFolderFileMissing,
}

func classOf(err error) string {
	for c, s := range classErrors {
		if errors.Is(err, s) {
			return c
		}
	}
	return ""
}

// saver is the durable side of the session's saves, built on first use.
type saver struct {
	once   sync.Once
	runner *durable.Runner
	err    error

	mu       sync.Mutex
	inflight map[string]bool // keys this session is running now
	// clean is true once a reconciliation of the linked scope left nothing unknown and no save
	// of this session ended unknown since: saves then skip listing the records.
	clean      bool
	cleanScope string
}

// markUnclean makes the next save reconcile first.
func (e *studioSession) markUnclean() {
	e.save.mu.Lock()
	e.save.clean = false
	e.save.mu.Unlock()
}

func (e *studioSession) durableRunner() (*durable.Runner, error) {
	e.save.once.Do(func() {
		if e.p.Durable == nil {
			return
		}
		store, err := durable.New(e.p.Durable, durable.Options{Clock: e.p.Clock})
		if err != nil {
			e.save.err = err
			return
		}
		owner := e.p.DurableOwnerID
		if owner == "" {
			var b [8]byte
			_, _ = rand.Read(b[:])
			owner = "studio:" + hex.EncodeToString(b[:])
		}
		e.save.runner, e.save.err = durable.NewRunner(store, owner)
		e.save.inflight = map[string]bool{}
	})
	return e.save.runner, e.save.err
}

func durableUnavailable(it workspace.SaveItem, reason string) *mcp.ToolError {
	return mcp.NewError(mcp.CodeWorkspaceDurableStateUnavailable, true, map[string]any{
		"operation": "save", "path": it.Path, "revision": it.Revision, "scopeId": it.ScopeID, "reason": bound(reason, 512)},
		"The durable save record for %q is unavailable (%s); nothing was written.", it.Path, bound(reason, 512))
}

// unknownError is the WORKSPACE_SIDE_EFFECT_UNKNOWN of a save item in durable state state.
func unknownError(it workspace.SaveItem, state, reason string) *mcp.ToolError {
	diag := map[string]any{"operation": it.Op, "path": it.Path, "scopeId": it.ScopeID, "revision": it.Revision}
	if it.Op == workspace.SaveOpWrite {
		diag["sourceLength"] = it.SourceLength
		diag["sourceHash"] = it.SourceHash
	}
	reason = bound(reason, 512)
	return mcp.NewError(mcp.CodeWorkspaceSideEffectUnknown, state == "pending", map[string]any{
		"operation": "save", "path": it.Path, "revision": it.Revision, "state": state, "reason": reason,
		"diagnostic": diag, "operationKey": it.OperationKey(),
	}, "The folder %s of %q did not reach a confirmed outcome (%s). Reconcile the folder before retrying.", it.Op, it.Path, reason)
}

// saveOptions returns the SaveAll options of this session: durable when a backend is configured.
// previous maps a path to the hash the folder held before the save (stored as diagnostic).
func (e *studioSession) saveOptions(previous func(path string) string) (workspace.SaveOptions, error) {
	runner, err := e.durableRunner()
	if err != nil {
		return workspace.SaveOptions{}, mcp.NewError(mcp.CodeWorkspaceDurableStateUnavailable, true,
			map[string]any{"operation": "save", "reason": bound(err.Error(), 512)}, "The durable save store is unavailable: %s", bound(err.Error(), 512))
	}
	if runner == nil {
		return workspace.SaveOptions{}, nil
	}
	var plan sync.Once
	return workspace.SaveOptions{Perform: func(ctx context.Context, it workspace.SaveItem, do func(context.Context) error) error {
		plan.Do(func() { e.notePlan(ctx, runner, it.ScopeID, it.Revision, previous) })
		return e.performDurable(ctx, runner, it, previous(it.Path), do)
	}}, nil
}

func (e *studioSession) performDurable(ctx context.Context, runner *durable.Runner, it workspace.SaveItem, prev string, do func(context.Context) error) error {
	if it.ScopeID == "" {
		return durableUnavailable(it, "the linked folder has no scope id")
	}
	key := it.OperationKey()
	e.save.mu.Lock()
	e.save.inflight[key] = true
	e.save.mu.Unlock()
	defer func() {
		e.save.mu.Lock()
		delete(e.save.inflight, key)
		e.save.mu.Unlock()
	}()
	diag, _ := json.Marshal(saveDiagnostic{Operation: it.Op, Path: it.Path, ScopeID: it.ScopeID, Revision: it.Revision,
		SourceLength: it.SourceLength, SourceHash: it.SourceHash, PreviousHash: prev})
	var execErr error
	req := durable.RunRequest{Key: key, Fingerprint: it.Fingerprint(), AbortDiagnostic: diag,
		Execute: func(ctx context.Context) (durable.Outcome, error) {
			if err := do(ctx); err != nil {
				execErr = err
				return durable.Outcome{}, err
			}
			return durable.Completed(nil), nil
		},
		Classify: func(err error) durable.Outcome {
			if c := classOf(err); c != "" && c != "missing" {
				raw, _ := json.Marshal(failedClass{Class: c})
				return durable.Failed(err.Error(), raw)
			}
			return durable.Unknown(err.Error(), diag)
		},
	}
	for attempt := 0; ; attempt++ {
		res, err := runner.Run(ctx, req)
		if err != nil && res.Status == "" {
			return durableUnavailable(it, err.Error())
		}
		switch res.Status {
		case durable.StatusCompleted:
			return nil // the write happened; a store error recording it is repaired by reconciliation
		case durable.StatusFailed:
			if execErr != nil {
				return execErr
			}
			return fmt.Errorf("%s", res.Reason)
		case durable.StatusReplayed:
			if res.Record.State == durable.StateCompleted {
				return nil
			}
			// A failed record: nothing was written. Remove it and claim again (once).
			if attempt > 0 {
				return replayedFailure(res)
			}
			fence := res.Record.Fence()
			if ok, err := runner.Store().Backend().CompareAndSet(ctx, key, &fence, nil); err != nil || !ok {
				return replayedFailure(res)
			}
			continue
		case durable.StatusCancelled:
			return mcp.NewError(mcp.CodeToolCancelled, true, nil, "Folder save cancelled.")
		case durable.StatusPending:
			e.markUnclean()
			return unknownError(it, "pending", "another save holds this operation")
		case durable.StatusConflict:
			return unknownError(it, "unknown", "the operation key was used with other content")
		default: // unknown
			reason := res.Reason
			if reason == "" {
				reason = durable.ReasonUnknownDefault
			}
			e.markUnclean()
			return fmt.Errorf("durable state unknown: %s", reason)
		}
	}
}

// planKey is the key of the record that keeps the pre-save hashes of one save:
// "workspace.saveAll.plan:<scope>:<revision>", a completed record whose result is
// {"previousHashes": {path: "sha256:…"}} for every dirty or deleted path the folder held. It is
// written once, before the save's first item is claimed, so a page that stops in the middle of
// a write can still tell "the folder holds the bytes from before the save" (failed, safe to
// retry) from "the folder holds other bytes" (unknown) when it reconciles.
func planKey(scope string, rev int64) string {
	return "workspace.saveAll.plan:" + scope + ":" + strconv.FormatInt(rev, 10)
}

// notePlan records the pre-save hashes of the save at (scope, rev) (best effort: without it a
// crashed write whose file still holds the old bytes stays unknown until the user chooses).
func (e *studioSession) notePlan(ctx context.Context, runner *durable.Runner, scope string, rev int64, previous func(string) string) {
	st := e.m.Status(ctx)
	hashes := map[string]string{}
	for _, p := range append(st.DirtyPaths, st.DeletedPaths...) {
		if h := previous(p); h != "" {
			hashes[p] = h
		}
	}
	if len(hashes) == 0 || scope == "" {
		return
	}
	raw, _ := json.Marshal(map[string]any{"previousHashes": hashes})
	store := runner.Store()
	pk := planKey(scope, rev)
	c, err := store.Claim(ctx, pk, "workspace.saveAll.plan:"+workspace.SourceHash(raw), runner.OwnerID(), 0)
	if err != nil || c.Outcome != durable.ClaimOwner {
		return
	}
	_, _ = store.Complete(ctx, pk, runner.OwnerID(), c.Fence, raw)
}

// previousHash returns the pre-save hash noted for path in the save of key ("" when none);
// plans caches the plan records read during one reconciliation.
func previousHash(ctx context.Context, store *durable.Store, scope, key, path string, plans map[string]map[string]string) string {
	rest, ok := strings.CutPrefix(key, saveKeyPrefix(scope))
	if !ok {
		return ""
	}
	rev, _, _ := strings.Cut(rest, ":")
	m, seen := plans[rev]
	if !seen {
		m = map[string]string{}
		if rec, found, err := store.Get(ctx, "workspace.saveAll.plan:"+scope+":"+rev); err == nil && found && rec.State == durable.StateCompleted {
			var v struct {
				PreviousHashes map[string]string `json:"previousHashes"`
			}
			if json.Unmarshal(rec.Result, &v) == nil && v.PreviousHashes != nil {
				m = v.PreviousHashes
			}
		}
		plans[rev] = m
	}
	return m[path]
}

// replayedFailure turns a replayed failed record back into the error class it stored.
func replayedFailure(res durable.RunResult) error {
	var fc failedClass
	if json.Unmarshal(res.Result, &fc) == nil {
		if s := classErrors[fc.Class]; s != nil {
			return fmt.Errorf("%w: %s", s, res.Reason)
		}
	}
	return fmt.Errorf("folder save failed earlier: %s", res.Reason)
}

// saveKeyPrefix is the key prefix of the scope's save records.
func saveKeyPrefix(scope string) string { return "workspace.saveAll:" + scope + ":" }

// parseSaveKey splits "workspace.saveAll:<scope>:<revision>:<op>:<path>" (the scope may hold
// ":" only before the revision; the path may hold ":").
func parseSaveKey(key, scope string) (op, path string, ok bool) {
	rest, found := strings.CutPrefix(key, saveKeyPrefix(scope))
	if !found {
		return "", "", false
	}
	_, rest, found = strings.Cut(rest, ":") // revision
	if !found {
		return "", "", false
	}
	op, path, found = strings.Cut(rest, ":")
	if !found || (op != workspace.SaveOpWrite && op != workspace.SaveOpDelete) || path == "" {
		return "", "", false
	}
	return op, path, true
}

// plannedHash returns the sha256 a write's fingerprint names.
func plannedHash(fp string) string {
	if i := strings.LastIndex(fp, ":sha256:"); i >= 0 {
		return fp[i+1:]
	}
	return ""
}

// reconcileSaves settles the scope's unknown save records (and the pending ones this owner
// left behind) by reading the folder back; it returns the paths still unknown afterwards.
// Without a durable backend it does nothing.
//
// Errors: WORKSPACE_DURABLE_STATE_UNAVAILABLE when the store cannot be listed or written;
// WORKSPACE_FOLDER_STALE / WORKSPACE_FOLDER_PERMISSION_DENIED when the folder cannot be read.
func (e *studioSession) reconcileSaves(ctx context.Context, f workspace.FolderAdapter) ([]string, error) {
	unresolved := []string{}
	runner, err := e.durableRunner()
	if runner == nil || err != nil || f == nil || f.ScopeID() == "" {
		return unresolved, nil
	}
	store := runner.Store()
	scope := f.ScopeID()
	prefix := saveKeyPrefix(scope)
	unavailable := func(err error) *mcp.ToolError {
		return mcp.NewError(mcp.CodeWorkspaceDurableStateUnavailable, true, map[string]any{"operation": "save", "scopeId": scope,
			"reason": bound(err.Error(), 512)}, "The durable save records could not be reconciled: %s", bound(err.Error(), 512))
	}
	var records []durable.Record
	plans := map[string]map[string]string{}
	cursor := prefix
	for {
		page, next, err := store.Backend().ListPage(ctx, cursor, 200)
		if err != nil {
			return unresolved, unavailable(err)
		}
		stop := false
		for _, rec := range page {
			if !strings.HasPrefix(rec.Key, prefix) {
				stop = true
				break
			}
			records = append(records, rec)
		}
		if stop || next == "" {
			break
		}
		cursor = next
	}
	for _, rec := range records {
		op, path, ok := parseSaveKey(rec.Key, scope)
		if !ok {
			continue
		}
		e.save.mu.Lock()
		running := e.save.inflight[rec.Key]
		e.save.mu.Unlock()
		if running {
			continue
		}
		if rec.State == durable.StatePending {
			if rec.OwnerID != runner.OwnerID() {
				continue // another tab's live claim (or its lease will end)
			}
			// Our own claim from before a reload: the write may or may not have landed.
			if _, err := store.MarkUnknown(ctx, rec.Key, runner.OwnerID(), rec.Fence(), "the page stopped while the folder write was in flight", nil); err != nil {
				if errors.Is(err, durable.ErrLeaseExpired) {
					continue // the lease ended: the next claim takes it over
				}
				return unresolved, unavailable(err)
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
		e.save.mu.Lock()
		e.save.clean, e.save.cleanScope = true, scope
		e.save.mu.Unlock()
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

func (e *studioSession) resolveSave(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	m, perr := decodeParams(params, "path", "choice")
	if perr != nil {
		return nil, perr
	}
	var path, choice string
	if json.Unmarshal(m["path"], &path) != nil || path == "" {
		return nil, invalidParams("path must be a non-empty string")
	}
	if json.Unmarshal(m["choice"], &choice) != nil || (choice != "keep-folder" && choice != "write-ours") {
		return nil, invalidParams(`choice must be "keep-folder" or "write-ours"`)
	}
	done := ObserveOperation(e.p, MethodResolveSave, map[string]any{"path": path, "choice": choice})
	f := e.m.Folder()
	runner, _ := e.durableRunner()
	if f == nil {
		return finish(done, opError(workspace.FolderNotConnected("resolve")))
	}
	resolved := 0
	if runner != nil {
		prefix := saveKeyPrefix(f.ScopeID())
		cursor := prefix
		for {
			page, next, err := runner.Store().Backend().ListPage(ctx, cursor, 200)
			if err != nil {
				return finish(done, opError(mcp.NewError(mcp.CodeWorkspaceDurableStateUnavailable, true,
					map[string]any{"operation": "resolve", "reason": bound(err.Error(), 512)}, "%s", bound(err.Error(), 512))))
			}
			stop := false
			for _, rec := range page {
				if !strings.HasPrefix(rec.Key, prefix) {
					stop = true
					break
				}
				if _, p, ok := parseSaveKey(rec.Key, f.ScopeID()); !ok || p != path || rec.State != durable.StateUnknown {
					continue
				}
				raw, _ := json.Marshal(failedClass{Class: "user-" + choice})
				if _, err := runner.Recover(ctx, rec.Key, func(context.Context, durable.RecoverContext) (durable.Resolution, error) {
					return durable.Resolution{State: durable.StateFailed, Reason: "resolved by the user: " + choice, Result: raw}, nil
				}, durable.RecoverOptions{}); err == nil {
					resolved++
				}
			}
			if stop || next == "" {
				break
			}
			cursor = next
		}
	}
	if choice == "keep-folder" {
		data, err := f.ReadFile(ctx, path)
		if err == nil {
			if _, terr := e.m.WriteFile(ctx, workspace.Call{Tool: MethodResolveSave}, path, string(data)); terr != nil {
				return finish(done, opError(mcp.ToolErrorOf(terr)))
			}
		}
	}
	// Re-read the folder as the baseline: the kept file is clean, ours stays dirty.
	if _, terr := e.m.LinkFolder(ctx, f); terr != nil {
		return finish(done, opError(mcp.ToolErrorOf(terr)))
	}
	return finish(done, folderOpResult{"path": path, "choice": choice, "resolved": resolved})
}

// reconciled reports whether scope was reconciled with nothing left unknown since the last
// unknown outcome of this session.
func (e *studioSession) reconciled(scope string) bool {
	e.save.mu.Lock()
	defer e.save.mu.Unlock()
	return e.save.clean && e.save.cleanScope == scope
}

// folderSaveOptions prepares workspace.saveAll: with a durable backend it first reconciles the
// linked folder's save records (a path left unknown blocks the save with
// WORKSPACE_SIDE_EFFECT_UNKNOWN, details state "unknown"), then returns the durable Perform.
func (e *studioSession) folderSaveOptions(ctx context.Context) (workspace.SaveOptions, error) {
	if e.p.Durable == nil {
		return workspace.SaveOptions{}, nil
	}
	if f := e.m.Folder(); f != nil && f.Permission(ctx) == workspace.PermissionGranted && !e.reconciled(f.ScopeID()) {
		unresolved, terr := e.reconcileSaves(ctx, f)
		if terr != nil {
			return workspace.SaveOptions{}, terr
		}
		if len(unresolved) > 0 {
			rev := e.m.Revision()
			it := workspace.SaveItem{Op: workspace.SaveOpWrite, Path: unresolved[0], Revision: rev, ScopeID: f.ScopeID()}
			te := unknownError(it, "unknown", "the folder holds other bytes than the interrupted save planned; choose which version to keep")
			te.Details.(map[string]any)["unresolvedPaths"] = unresolved
			return workspace.SaveOptions{}, te
		}
	}
	return e.saveOptions(e.m.OnDiskHash)
}
