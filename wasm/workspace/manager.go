package workspace

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// StorageMode says where the workspace is persisted (REFERENCE §2, persistence meta P).
type StorageMode string

// Storage modes.
const (
	StorageLoading   StorageMode = "loading"    // before Hydrate finished
	StorageIndexedDB StorageMode = "indexed-db" // the Repository accepted every change so far
	StorageMemory    StorageMode = "memory"     // no Repository, or it failed (see storageError)
)

// Preview statuses (REFERENCE §2.2).
const (
	PreviewWaiting = "waiting"
	PreviewSynced  = "synced"
	PreviewError   = "error"
)

// Bounds (REFERENCE §4).
const (
	MaxMessageChars      = 240              // storageError and preview error message, code points
	MaxHistory           = 100              // history checkpoints kept (oldest dropped)
	CoalesceWindow       = 30 * time.Second // a typing burst coalesces into one checkpoint for at most this long from its first flush (long sessions still get an undo point every 30 s)
	MaxPatchSearchChars  = 20_000           // applyPatch search, code points (1..20,000)
	MaxPatchReplaceChars = 20_000           // applyPatch replace, code points (0..20,000)
)

// Fallback storage error texts (REFERENCE §2.2) used when the Repository error has no text.
const (
	FallbackRestoreError = "IndexedDB could not restore the browser workspace."
	FallbackPersistError = "IndexedDB could not persist the latest browser workspace change."
)

// PreviewState is the preview's status for a revision: {"revision", "status", "message"?}.
type PreviewState struct {
	Revision int64  `json:"revision"`
	Status   string `json:"status"`
	Message  string `json:"message,omitempty"`
}

// Call carries who asks for a mutation: the tool name and call id recorded in the history
// checkpoint (SPEC §2.12), the optional expectedRevision guard, and an optional coalescing key.
//
// CoalesceKey is for direct typing only (the editor passes e.g. "type:index.html"): a change
// whose key equals the newest checkpoint's key, less than CoalesceWindow after the first change
// of that burst, replaces that checkpoint instead of adding one (a burst older than that starts
// a new checkpoint, so continuous typing gets one undo point per window). Tool and agent calls
// leave it empty and never coalesce.
type Call struct {
	Tool             string
	CallID           string
	ExpectedRevision *int64
	CoalesceKey      string
}

// Rev returns a pointer to r, for Call.ExpectedRevision literals.
func Rev(r int64) *int64 { return &r }

// Options configure a Manager. The zero value is usable: no Repository (memory mode), the
// real clock, the built-in Seed.
//
// After is the revision of the session this Manager replaces over the same preview (a session
// rebuild in the same page): Hydrate starts above it, so the preview never sees a revision
// number twice. 0 for a fresh page.
//
// OnCommit, when set, is called with the committed state (what Snapshot would return) of
// every incremental change (an edit that becomes a new revision and is written with
// Repository.SaveChanges), after the change is committed in memory and before that write
// starts. It runs on the mutating call's goroutine with the manager's lock held, so it must
// not call the Manager; the write waits for it. The mutation still returns only after the
// write, and a failed write is reported exactly as without the hook (storage mode "memory"
// with storageError). The studio starts the preview mount from it, so the document compiles
// and loads while the IndexedDB write is awaited (docs/performance.md, "Edit → ack A/B
// (2026-12-06)").
type Options struct {
	Repository Repository
	Now        func() time.Time
	Seed       func() Snapshot
	After      int64
	OnCommit   func(Snapshot)
}

// Manager is the workspace document manager (REFERENCE §2.2 WorkspaceDocumentManager): the
// files, the active path, the monotonic revision, the preview status, the edit history, the
// saved baseline and pending deletions, the storage mode and the linked folder.
//
// # Concurrency
//
// A Manager is safe for concurrent use. One mutex guards all state; every operation holds it
// for its whole duration, including the Repository write that persists the change, so
// mutations are serialized and each is durable (or memory mode is reported) when it returns.
// The folder operations (SaveAll, ReloadFolder, ImportFolder) release the lock around folder
// I/O and re-check the revision afterwards, so edits made meanwhile are detected
// (WORKSPACE_REVISION_CONFLICT) rather than blocked.
type Manager struct {
	mu sync.Mutex
	// saveMu serializes SaveAll: two saves in flight would interleave their folder writes and
	// their on-disk bookkeeping, so the record of what the folder holds could name the bytes
	// of the save whose write landed first (found by TestConcurrentUse under -race).
	saveMu sync.Mutex
	repo   Repository
	now    func() time.Time
	seed   func() Snapshot
	after  int64
	commit func(Snapshot) // Options.OnCommit

	instance     string // workspace instance id (effects.go)
	rootName     string
	files        []*File // immutable slice: replaced, never modified in place
	active       string
	revision     int64
	preview      PreviewState
	deleted      []string // immutable slice, pending folder deletions in queue order
	baseline     map[string]*File
	history      []*checkpoint
	histIndex    int
	storageMode  StorageMode
	storageError string

	folder  FolderAdapter
	unknown *unknownSave // a folder write whose outcome is not known; blocks saves until reconciled
	// onDisk maps a path to the SourceHash of the bytes the linked folder is known to hold
	// there: set from the import, updated by every save write and delete (whatever the
	// revision). SaveAll compares the folder with it before each item. nil without a folder.
	onDisk map[string]string
	// notImported: Metadata.NotImported of the last import or reload (immutable slice).
	notImported []Skipped
}

// checkpoint is one history entry. files and deleted are shared with the manager and other
// checkpoints (never modified), so a checkpoint costs a slice of pointers, not file bodies.
type checkpoint struct {
	files          []*File
	active         string
	deleted        []string
	preserveActive bool // a source edit: undo/redo keeps the current tab when it still exists
	tool, callID   string
	coalesceKey    string
	at             time.Time
	burstAt        time.Time // the first change of a coalesced typing burst (at, when not coalesced)
	revision       int64     // the revision the checkpoint was made at (unique in a session)
}

// New returns a Manager holding the seed at revision 1 with storage mode "loading" (or
// "memory" without a Repository). Call Hydrate before serving tools.
func New(opts Options) *Manager {
	m := &Manager{repo: opts.Repository, now: opts.Now, seed: opts.Seed, after: opts.After, commit: opts.OnCommit, instance: newInstanceID()}
	if m.now == nil {
		m.now = time.Now
	}
	if m.seed == nil {
		m.seed = Seed
	}
	s := m.seed()
	m.loadLocked(s, 1, Call{Tool: "seed"})
	m.storageMode = StorageLoading
	if m.repo == nil {
		m.storageMode = StorageMemory
	}
	return m
}

// loadLocked replaces the whole state with s at revision rev: clean baseline, one history
// checkpoint, preview waiting.
func (m *Manager) loadLocked(s Snapshot, rev int64, call Call) {
	m.rootName = s.RootName
	m.files = slices.Clip(append([]*File(nil), s.Files...))
	m.active = s.ActivePath
	if m.find(m.active) < 0 {
		m.active = ChooseActivePath(m.files)
	}
	m.deleted = slices.Clip(append([]string(nil), s.DeletedPaths...))
	m.notImported = slices.Clip(append([]Skipped(nil), s.NotImported...))
	m.baseline = make(map[string]*File, len(m.files))
	for _, f := range m.files {
		m.baseline[f.Path] = f
	}
	m.revision = rev
	m.preview = PreviewState{Revision: rev, Status: PreviewWaiting}
	m.history = []*checkpoint{{files: m.files, active: m.active, deleted: m.deleted, tool: call.Tool, callID: call.CallID, at: m.now(), revision: rev}}
	m.histIndex = 0
}

// Hydrate loads the workspace from the Repository (REFERENCE §2.2 ensureWorkspace). A stored
// workspace continues at its stored revision with its pending deletions; its files form the
// saved baseline. Loading writes nothing and makes no new revision (issue 14: a reload must not
// create history; this overrides SPEC §2.12's stored+1): the one history checkpoint ("hydrate")
// is the loaded state at the stored revision, or at Options.After+1 when that is higher (a
// session rebuild in the same page, kept in memory until the next edit persists it). An empty
// Repository is seeded with the current (seed) state at revision 2. Success sets storage mode
// "indexed-db"; a failure sets "memory" with a storageError (fallback FallbackRestoreError) and
// keeps the seed. Without a Repository it only moves to revision 2 in memory mode.
//
// A Repository whose Load panics (a JavaScript getter that throws, issue 14) is a failure like
// any other: memory mode with the panic's text as storageError.
func (m *Manager) Hydrate(ctx context.Context) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.repo == nil {
		m.loadLocked(m.snapshotLocked(), max(m.revision, m.after)+1, Call{Tool: "hydrate"})
		return
	}
	s, err := safeLoad(ctx, m.repo)
	switch {
	case errors.Is(err, ErrNoWorkspace):
		m.loadLocked(m.snapshotLocked(), max(m.revision, m.after)+1, Call{Tool: "hydrate"})
		if err := m.repo.SaveSnapshot(ctx, m.snapshotLocked()); err != nil {
			m.fail(err, FallbackRestoreError)
			return
		}
	case err != nil:
		m.loadLocked(m.snapshotLocked(), max(m.revision, m.after)+1, Call{Tool: "hydrate"})
		m.fail(err, FallbackRestoreError)
		return
	default:
		RepairSnapshot(&s)
		if len(s.Files) == 0 {
			s = m.seed()
		}
		if s.Instance != "" {
			m.instance = s.Instance // a reload is the same instance (effects.go); a new id is stored with the next write
		}
		m.loadLocked(s, max(s.Revision, m.after+1), Call{Tool: "hydrate"})
	}
	m.storageMode = StorageIndexedDB
	m.storageError = ""
}

// safeLoad calls r.Load and turns a panic into an error.
func safeLoad(ctx context.Context, r Repository) (s Snapshot, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("the stored workspace could not be read: %v", v)
		}
	}()
	return r.Load(ctx)
}

func (m *Manager) fail(err error, fallback string) {
	m.storageMode = StorageMemory
	msg := boundText(err.Error(), MaxMessageChars)
	if msg == "" {
		msg = fallback
	}
	m.storageError = msg
}

func (m *Manager) metaLocked() Metadata {
	return Metadata{RootName: m.rootName, ActivePath: m.active, Revision: m.revision,
		DeletedPaths: append([]string(nil), m.deleted...), Instance: m.instance, NotImported: m.notImported}
}

func (m *Manager) snapshotLocked() Snapshot {
	return Snapshot{Metadata: m.metaLocked(), Files: append([]*File(nil), m.files...)}
}

// persistChanges writes one change through the Repository. After a failure the manager stays
// in memory mode and skips incremental writes (the store would be missing earlier changes);
// a later whole-snapshot save (import, reset, undo/redo) resynchronizes it.
func (m *Manager) persistChanges(ctx context.Context, put []*File, del []string) {
	if m.repo == nil || m.storageMode == StorageMemory {
		return
	}
	if err := m.repo.SaveChanges(ctx, m.metaLocked(), put, del); err != nil {
		m.fail(err, FallbackPersistError)
	}
}

func (m *Manager) persistSnapshot(ctx context.Context) {
	if m.repo == nil || m.storageMode == StorageLoading {
		return
	}
	if err := m.repo.SaveSnapshot(ctx, m.snapshotLocked()); err != nil {
		m.fail(err, FallbackPersistError)
		return
	}
	m.storageMode, m.storageError = StorageIndexedDB, ""
}

// Writable reports whether the workspace accepts edits: nil, or WORKSPACE_READ_ONLY when the
// Repository's WriteGate refuses (issue 14; agent/run asks before it starts a run).
func (m *Manager) Writable() error {
	if g, ok := m.repo.(WriteGate); ok {
		if err := g.Writable(); err != nil {
			return ReadOnly(err, "")
		}
	}
	return nil
}

// guard is the check before every mutation: the Repository's WriteGate (WORKSPACE_READ_ONLY,
// issue 14), then the expectedRevision check of REFERENCE §2.1.
func (m *Manager) guard(call Call, operation string) error {
	if g, ok := m.repo.(WriteGate); ok {
		if err := g.Writable(); err != nil {
			return ReadOnly(err, operation)
		}
	}
	if call.ExpectedRevision != nil && *call.ExpectedRevision != m.revision {
		return RevisionConflict(*call.ExpectedRevision, m.revision, operation)
	}
	return nil
}

func (m *Manager) find(p string) int {
	for i, f := range m.files {
		if f.Path == p {
			return i
		}
	}
	return -1
}

func (m *Manager) get(p string) *File {
	if i := m.find(p); i >= 0 {
		return m.files[i]
	}
	return nil
}

func (m *Manager) dirty(f *File) bool { return !sameContent(m.baseline[f.Path], f) }

// edit is one applied change: the new files, active path and deletions, plus what to persist.
type edit struct {
	files          []*File
	active         string
	deleted        []string
	put            []*File
	del            []string
	preserveActive bool
}

// apply commits e: revision+1, preview waiting, a history checkpoint (or a coalesced one),
// Options.OnCommit, and persistence. It returns the new revision.
func (m *Manager) apply(ctx context.Context, call Call, e edit) int64 {
	m.files, m.active, m.deleted = e.files, e.active, e.deleted
	m.revision++
	m.preview = PreviewState{Revision: m.revision, Status: PreviewWaiting}
	now := m.now()
	cp := &checkpoint{files: m.files, active: m.active, deleted: m.deleted, preserveActive: e.preserveActive,
		tool: call.Tool, callID: call.CallID, coalesceKey: call.CoalesceKey, at: now, burstAt: now, revision: m.revision}
	top := m.history[m.histIndex]
	if call.CoalesceKey != "" && m.histIndex > 0 && m.histIndex == len(m.history)-1 &&
		top.coalesceKey == call.CoalesceKey && now.Sub(top.burstAt) < CoalesceWindow {
		cp.burstAt = top.burstAt
		m.history[m.histIndex] = cp
	} else {
		// The history slice is never shared, so the redo branch is overwritten in place.
		m.history = append(m.history[:m.histIndex+1], cp)
		if len(m.history) > MaxHistory {
			n := copy(m.history, m.history[len(m.history)-MaxHistory:])
			clear(m.history[n:])
			m.history = m.history[:n]
		}
		m.histIndex = len(m.history) - 1
	}
	if m.commit != nil {
		m.commit(m.snapshotLocked())
	}
	m.persistChanges(ctx, e.put, e.del)
	return m.revision
}

// replaceFile returns a copy of files with index i replaced by f (the pointer slice is copied,
// file bodies are shared).
func replaceFile(files []*File, i int, f *File) []*File {
	out := slices.Clone(files)
	out[i] = f
	return out
}

func removeFile(files []*File, i int) []*File {
	out := make([]*File, 0, len(files)-1)
	out = append(out, files[:i]...)
	return append(out, files[i+1:]...)
}

func withPath(list []string, p string) []string {
	if slices.Contains(list, p) {
		return list
	}
	return append(slices.Clone(list), p)
}

func withoutPath(list []string, p string) []string {
	if !slices.Contains(list, p) {
		return list
	}
	out := make([]string, 0, len(list))
	for _, q := range list {
		if q != p {
			out = append(out, q)
		}
	}
	return out
}

// Revision returns the current workspace revision.
func (m *Manager) Revision() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.revision
}

// Preview returns the preview status of the current revision.
func (m *Manager) Preview() PreviewState {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.preview
}

// SetPreviewStatus records the preview's ack for rev (status "synced" or "error", message
// bounded to 240 code points). It is ignored, returning false, unless rev is the current
// revision and not older than the recorded preview revision (REFERENCE §2.2).
func (m *Manager) SetPreviewStatus(rev int64, status, message string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if rev != m.revision || rev < m.preview.Revision {
		return false
	}
	switch status {
	case PreviewWaiting, PreviewSynced, PreviewError:
	default:
		return false
	}
	m.preview = PreviewState{Revision: rev, Status: status, Message: boundText(message, MaxMessageChars)}
	return true
}

// RefreshPreview marks the current revision "waiting" again (preview.refresh) and returns it
// with the active path. The revision does not change.
func (m *Manager) RefreshPreview() (activePath string, revision int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.preview = PreviewState{Revision: m.revision, Status: PreviewWaiting}
	return m.active, m.revision
}

// Files returns the current files in workspace order. The values are shared and must not be
// modified.
func (m *Manager) Files() []*File {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.files)
}

// Snapshot returns the current state as a Snapshot (files shared, read-only).
func (m *Manager) Snapshot() Snapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.snapshotLocked()
}
