package foldersave

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/workspace"
)

// Options configures a Saver.
type Options struct {
	// Backend is the durable-operation backend (IndexedDB "web-coding-operations" in the
	// browser). Nil: saves are not durable and the Saver does nothing.
	Backend durable.Backend
	// Clock returns the current time (nil: time.Now).
	Clock func() time.Time
	// OwnerID is the owner id the save items are claimed as; "" draws a random
	// "studio:<16 hex>" on first use.
	OwnerID string
	// SoleOwner is true when no other live session can hold save claims in Backend (the
	// browser: this tab holds the workspace Web Lock, which every saving tab needs and a dead
	// tab releases). Reconcile then settles another owner's pending claim — one its closed or
	// killed tab never finished — by reading the folder back (durable.Store.Abandon) instead
	// of leaving it to block the path until its lease ends.
	SoleOwner bool
}

// Saver is the durable side of one session's folder saves; its runner is built on first use.
type Saver struct {
	opts Options

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

// New returns the Saver of one session.
func New(opts Options) *Saver { return &Saver{opts: opts} }

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

// maxReasonChars bounds the reasons quoted in errors (code points).
const maxReasonChars = 512

// markUnclean makes the next save reconcile first.
func (s *Saver) markUnclean() {
	s.mu.Lock()
	s.clean = false
	s.mu.Unlock()
}

// durableRunner returns the session's runner: nil without a backend.
func (s *Saver) durableRunner() (*durable.Runner, error) {
	s.once.Do(func() {
		if s.opts.Backend == nil {
			return
		}
		store, err := durable.New(s.opts.Backend, durable.Options{Clock: s.opts.Clock})
		if err != nil {
			s.err = err
			return
		}
		owner := s.opts.OwnerID
		if owner == "" {
			var b [8]byte
			_, _ = rand.Read(b[:])
			owner = "studio:" + hex.EncodeToString(b[:])
		}
		s.runner, s.err = durable.NewRunner(store, owner)
		s.inflight = map[string]bool{}
	})
	return s.runner, s.err
}

func durableUnavailable(it workspace.SaveItem, reason string) *mcp.ToolError {
	return mcp.NewError(mcp.CodeWorkspaceDurableStateUnavailable, true, map[string]any{
		"operation": "save", "path": it.Path, "revision": it.Revision, "scopeId": it.ScopeID, "reason": mcp.Bound(reason, maxReasonChars)},
		"The durable save record for %q is unavailable (%s); nothing was written.", it.Path, mcp.Bound(reason, maxReasonChars))
}

// unknownError is the WORKSPACE_SIDE_EFFECT_UNKNOWN of a save item in durable state state.
func unknownError(it workspace.SaveItem, state, reason string) *mcp.ToolError {
	diag := map[string]any{"operation": it.Op, "path": it.Path, "scopeId": it.ScopeID, "revision": it.Revision}
	if it.Op == workspace.SaveOpWrite {
		diag["sourceLength"] = it.SourceLength
		diag["sourceHash"] = it.SourceHash
	}
	reason = mcp.Bound(reason, maxReasonChars)
	return mcp.NewError(mcp.CodeWorkspaceSideEffectUnknown, state == "pending", map[string]any{
		"operation": "save", "path": it.Path, "revision": it.Revision, "state": state, "reason": reason,
		"diagnostic": diag, "operationKey": it.OperationKey(),
	}, "The folder %s of %q did not reach a confirmed outcome (%s). Reconcile the folder before retrying.", it.Op, it.Path, reason)
}

// Prepare returns the SaveAll options of one workspace.saveAll over m. Without a backend they
// are the zero options (plain writes). With one it first reconciles the linked folder's save
// records (unless this session reconciled the scope and nothing ended unknown since), then
// returns the durable Perform; the folder's hashes before the save (m.OnDiskHash) go into the
// save's plan record.
//
// Errors: WORKSPACE_SIDE_EFFECT_UNKNOWN (details state "unknown", unresolvedPaths) when a path
// stays unknown after reconciliation; WORKSPACE_DURABLE_STATE_UNAVAILABLE when the store cannot
// be opened, listed or written; Reconcile's folder errors.
func (s *Saver) Prepare(ctx context.Context, m *workspace.Manager) (workspace.SaveOptions, error) {
	if s.opts.Backend == nil {
		return workspace.SaveOptions{}, nil
	}
	if f := m.Folder(); f != nil && f.Permission(ctx) == workspace.PermissionGranted && !s.reconciled(f.ScopeID()) {
		unresolved, terr := s.Reconcile(ctx, f)
		if terr != nil {
			return workspace.SaveOptions{}, terr
		}
		if len(unresolved) > 0 {
			rev := m.Revision()
			it := workspace.SaveItem{Op: workspace.SaveOpWrite, Path: unresolved[0], Revision: rev, ScopeID: f.ScopeID()}
			te := unknownError(it, "unknown", "the folder holds other bytes than the interrupted save planned; choose which version to keep")
			te.Details.(map[string]any)["unresolvedPaths"] = unresolved
			return workspace.SaveOptions{}, te
		}
	}
	return s.saveOptions(m, m.OnDiskHash)
}

// saveOptions returns the durable SaveAll options (the zero options without a backend).
// previous maps a path to the hash the folder held before the save (stored as diagnostic).
func (s *Saver) saveOptions(m *workspace.Manager, previous func(path string) string) (workspace.SaveOptions, error) {
	runner, err := s.durableRunner()
	if err != nil {
		return workspace.SaveOptions{}, mcp.NewError(mcp.CodeWorkspaceDurableStateUnavailable, true,
			map[string]any{"operation": "save", "reason": mcp.Bound(err.Error(), maxReasonChars)}, "The durable save store is unavailable: %s", mcp.Bound(err.Error(), maxReasonChars))
	}
	if runner == nil {
		return workspace.SaveOptions{}, nil
	}
	var plan sync.Once
	return workspace.SaveOptions{Perform: func(ctx context.Context, it workspace.SaveItem, do func(context.Context) error) error {
		plan.Do(func() { notePlan(ctx, m, runner, it.ScopeID, it.Revision, previous) })
		return s.performDurable(ctx, runner, it, previous(it.Path), do)
	}}, nil
}

func (s *Saver) performDurable(ctx context.Context, runner *durable.Runner, it workspace.SaveItem, prev string, do func(context.Context) error) error {
	if it.ScopeID == "" {
		return durableUnavailable(it, "the linked folder has no scope id")
	}
	key := it.OperationKey()
	s.mu.Lock()
	s.inflight[key] = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.inflight, key)
		s.mu.Unlock()
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
			s.markUnclean()
			return unknownError(it, "pending", "another save holds this operation")
		case durable.StatusConflict:
			return unknownError(it, "unknown", "the operation key was used with other content")
		default: // unknown
			reason := res.Reason
			if reason == "" {
				reason = durable.ReasonUnknownDefault
			}
			s.markUnclean()
			return fmt.Errorf("durable state unknown: %s", reason)
		}
	}
}

// notePlan records the pre-save hashes of the save at (scope, rev) under PlanKey (best effort:
// without it a crashed write whose file still holds the old bytes stays unknown until the user
// chooses).
func notePlan(ctx context.Context, m *workspace.Manager, runner *durable.Runner, scope string, rev int64, previous func(string) string) {
	st := m.Status(ctx)
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
	pk := PlanKey(scope, rev)
	c, err := store.Claim(ctx, pk, "workspace.saveAll.plan:"+workspace.SourceHash(raw), runner.OwnerID(), 0)
	if err != nil || c.Outcome != durable.ClaimOwner {
		return
	}
	_, _ = store.Complete(ctx, pk, runner.OwnerID(), c.Fence, raw)
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

// reconciled reports whether scope was reconciled with nothing left unknown since the last
// unknown outcome of this session.
func (s *Saver) reconciled(scope string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clean && s.cleanScope == scope
}
