package studio

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/foldersave"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/workspace"
)

// Ports are the host adapters. The zero value uses in-memory implementations: an in-memory
// workspace (no Repository), no linked folder (browser-only mode), the headless preview, and
// no download target.
type Ports struct {
	// Log receives diagnostic lines (never protocol bytes) with a level: 0 information, 1 a
	// notice (something skipped or adjusted), 2 a warning (something failed). Nil discards them.
	Log func(level int, msg string)
	// Observer receives every tool-call lifecycle event. Nil discards them.
	Observer func(audit.ToolCallEvent)
	// Clock returns the current time (nil: time.Now).
	Clock func() time.Time

	// Repository persists the workspace (IndexedDB in the browser, host state headless). Nil:
	// memory only. Each session build hydrates a fresh Manager from it, so with a real
	// Repository the workspace (and its revision) survives session/configure.
	Repository workspace.Repository
	// Folder is the linked local folder (the CLI's --dir). Nil: no folder (browser-only
	// mode). Each session build imports it (ImportFolder): the folder's files replace the
	// hydrated workspace and saveAll/reloadFolder work against it. Skipped entries are
	// logged. If the import fails (no supported file, permission, stale root): with
	// FolderRequired no session is built (every request answers rpcsession.CodeSessionUnavailable
	// with the reason); without it the session starts on the hydrated workspace, unlinked,
	// and the failure is logged (the browser then offers "Grant folder access").
	Folder workspace.FolderAdapter
	// FolderRequired makes a failing Folder import fatal for the session (headless hosts,
	// where --dir was asked for explicitly: never work on something else silently).
	FolderRequired bool
	// Preview is the preview port (the sandboxed iframe in the browser). Nil: a fresh
	// HeadlessPreview per session build. A port given here outlives session rebuilds, so the
	// workspace revision must keep increasing across them (a real Repository does that).
	Preview preview.Port
	// Folders is the page's folder host behind the folder session methods (folder_ops.go:
	// open/link a picked folder, reconnect a persisted one, grant access, the directory-upload
	// fallback). Nil: those methods answer TOOL_EXECUTION_FAILED {reason:"no-folder-host"}
	// (headless hosts link their --dir through Folder instead). The linked folder can change at
	// runtime through these methods; Folder stays the one imported at each session build.
	Folders FolderHost
	// DurableOwnerID is the owner id workspace.saveAll claims its durable side effects with
	// (wasm/foldersave; the browser keeps one per tab in sessionStorage so a reload finishes
	// its own claims). "": a random id per session build.
	DurableOwnerID string
	// DurableSoleOwner is true when no other live session can hold workspace.saveAll claims
	// in the same durable store: the browser sets it in the tab that holds the workspace Web
	// Lock (every saving tab needs it, and a dead tab's lock is released). A pending save
	// record of another owner is then a claim its dead owner never finished, and the folder
	// reconciliation settles it by reading the folder back at once instead of blocking saves
	// of that path until its lease (durable.DefaultLease) ends (foldersave.Options.SoleOwner).
	// False: such claims are left to their owner or to the lease takeover.
	DurableSoleOwner bool
	// Downloads delivers workspace.downloadFile: the file name (last path segment), its MIME
	// type and bytes. Nil: downloadFile fails with TOOL_EXECUTION_FAILED, details
	// {operation:"download", path, reason:"no-download-target"} (see ReasonNoDownloadTarget).
	Downloads func(name, mimeType string, data []byte) error
	// Durable is the durable-operation backend (IndexedDB in the browser, Redis or PostgreSQL
	// through host functions headless). Non-nil: every session claims idempotent calls in it
	// (rpcsession.DurableStore). Nil: the session's "durable" config decides ("memory" builds an
	// in-module store per session; absent means in-memory idempotency only). With a durable
	// store the session also answers operations/get and operations/reconcile.
	Durable durable.Backend

	// last is the workspace of the newest session Builder built (set by Builder): a rebuilt
	// session starts above its revision, since the preview port outlives the session.
	last *lastWorkspace
	// revisionAfter is the session configuration's rpcsession.Config.RevisionAfter (set by
	// Builder per build): the workspace starts above it as well.
	revisionAfter int64
}

// lastWorkspace remembers the newest session's Manager across session rebuilds of one
// Builder.
type lastWorkspace struct {
	mu sync.Mutex
	m  *workspace.Manager
}

// revision returns the remembered Manager's current revision (0 before the first build).
func (l *lastWorkspace) revision() int64 {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	m := l.m
	l.mu.Unlock()
	if m == nil {
		return 0
	}
	return m.Revision()
}

func (l *lastWorkspace) set(m *workspace.Manager) {
	if l == nil {
		return
	}
	l.mu.Lock()
	l.m = m
	l.mu.Unlock()
}

// Catalog names accepted in rpcsession.Config.Catalog.
const (
	CatalogStudio      = "studio"
	CatalogDemo        = "demo"
	CatalogConformance = "conformance"
)

// catalogFunc registers a catalog's tools on r and returns the session's extra JSON-RPC
// methods (nil for none).
type catalogFunc func(ctx context.Context, r *registry.Registry, p Ports) (map[string]rpcsession.Method, error)

// catalogs maps a catalog name to the function that registers its tools. Build-tagged files
// add entries (the conformance catalogs exist only in builds with the conformance tag,
// SPEC §2.17).
var catalogs = map[string]catalogFunc{
	CatalogStudio: registerStudio,
	CatalogDemo: func(_ context.Context, r *registry.Registry, p Ports) (map[string]rpcsession.Method, error) {
		return nil, registerDemo(r, p)
	},
}

// DefaultCatalog is the catalog of a session configured without one: the 26-tool studio
// catalog (REFERENCE §2, SPEC §5.13).
var DefaultCatalog = CatalogStudio

// Assemble builds the core over the given ports and returns its ABI handler. Each
// session/configure rebuilds the registry with the same ports.
func Assemble(ctx context.Context, p Ports) *rpcsession.Handler {
	return rpcsession.New(ctx, Builder(p))
}

// Builder returns the rpcsession.Builder of the studio over p.
func Builder(p Ports) rpcsession.Builder {
	p.last = &lastWorkspace{}
	return func(ctx context.Context, cfg rpcsession.Config) (*rpcsession.Session, error) {
		name := cfg.Catalog
		if name == "" {
			name = DefaultCatalog
		}
		register, ok := catalogs[name]
		if !ok {
			return nil, fmt.Errorf("studio: catalog %q is not in this build", name)
		}
		opts, queue := rpcsession.RegistryOptions(cfg)
		if err := opts.Validate(); err != nil {
			return nil, err
		}
		opts.Observer = p.Observer
		opts.Clock = p.Clock
		if p.Log != nil && opts.Validation == registry.ValidationWarn {
			opts.Warn = func(name string, issues []schemaIssue) {
				p.Log(1, fmt.Sprintf("arguments for %s do not match its schema: %v", name, issues))
			}
		}
		store, err := rpcsession.DurableStore(cfg, p.Durable, p.Clock)
		if err != nil {
			return nil, err
		}
		cp := p // per build: never write to the captured Ports
		cp.revisionAfter = cfg.RevisionAfter
		if store != nil {
			opts.Durable = store
			cp.Durable = store.Backend() // the catalog sees the session's backend
		}
		r := registry.New(opts)
		methods, err := register(ctx, r, cp)
		if err != nil {
			return nil, err
		}
		if store != nil {
			if methods == nil {
				methods = map[string]rpcsession.Method{}
			}
			for name, m := range rpcsession.OperationMethods(r) {
				methods[name] = m
			}
		}
		return &rpcsession.Session{Registry: r, Approvals: queue, Methods: methods}, nil
	}
}

// registerStudio registers the 26 studio tools over a freshly hydrated workspace and returns
// the session methods (agent/run, preview/compile, preview/export).
func registerStudio(ctx context.Context, r *registry.Registry, p Ports) (map[string]rpcsession.Method, error) {
	e, err := newStudioSession(ctx, p)
	if err != nil {
		return nil, err
	}
	for _, t := range e.studioTools() {
		if err := r.Register(t); err != nil {
			return nil, err
		}
	}
	r.SetEffects(workspaceEffects{m: e.m})
	methods := e.methods(r)
	for name, m := range e.historyMethods(p) { // workspace/history, /checkpoint, /restoreCheckpoint
		methods[name] = m
	}
	methods[MethodPageView] = e.pageViewMethod() // the page's untraced refresh read (page_view.go)
	for name, m := range e.diffMethods() {       // workspace/diffCall, /diffCheckpoint (diff_ops.go)
		methods[name] = m
	}
	// workspace/archive, workspace/upload (transfer.go)
	e.transferMethods(methods, p)
	for name, m := range e.folderMethods() { // workspace/openFolder, /reconnectFolder, … (folder_ops.go)
		methods[name] = m
	}
	return methods, nil
}

// HydrateWorkspace is the workspace of one session build of a surface catalog (issue 18): a
// Manager over seed, persisted in p.Repository when the host gave one (the surface pages'
// IndexedDB databases, never the studio's) and hydrated from it, starting above the revision
// of the session it replaces over the same preview port exactly as the studio's own catalog
// does (issue 14). Without a Repository it is the seed in memory (revision 1, hydrated to 2, or
// above the session configuration's revisionAfter when a host that lost its instance gives one).
func HydrateWorkspace(ctx context.Context, p Ports, seed func() workspace.Snapshot) *workspace.Manager {
	after := p.revisionAfter
	if p.Repository != nil {
		after = max(after, p.last.revision())
	}
	m := workspace.New(workspace.Options{Repository: p.Repository, Now: p.Clock, Seed: seed, After: after})
	m.Hydrate(ctx)
	p.last.set(m)
	return m
}

// newStudioSession creates the session's Manager (hydrated from p.Repository, then p.Folder imported
// and linked) and resolves the preview port. A folder that cannot be imported (no supported
// file, permission, stale root) is an error: the session is not built rather than silently
// working on something else. Every file the import skipped is logged (level 1, warning).
func newStudioSession(ctx context.Context, p Ports) (*studioSession, error) {
	// A rebuilt session (session/configure) that hydrates the same stored workspace starts
	// above the session it replaces: reloading the page creates no revision, rebuilding within
	// it never reuses one (issue 14). Without a Repository the rebuilt session is a new
	// workspace (a fresh seed), whose revisions start again like any new workspace's, unless
	// the host names the highest revision a lost instance handed out
	// (rpcsession.Config.RevisionAfter): then it starts above that.
	after := p.revisionAfter
	if p.Repository != nil {
		after = max(after, p.last.revision())
	}
	port := p.Preview
	if port == nil {
		port = NewHeadlessPreview()
	}
	early := &earlyMount{port: port}
	m := workspace.New(workspace.Options{Repository: p.Repository, Now: p.Clock, After: after, OnCommit: early.mount})
	m.Hydrate(ctx)
	p.last.set(m)
	if p.Folder != nil {
		res, terr := m.ImportFolder(ctx, workspace.Call{Tool: "session.linkFolder"}, p.Folder)
		switch {
		case terr != nil && p.FolderRequired:
			return nil, fmt.Errorf("the folder %s could not be opened as the workspace: %s", p.Folder.Name(), terr.Error())
		case terr != nil && p.Log != nil:
			p.Log(2, "studio: the folder "+p.Folder.Name()+" could not be linked: "+terr.Error())
		case terr == nil:
			logSkipped(p, res.Skipped)
			if note := workspace.CollisionNote(res.NameCollisions); note != "" && p.Log != nil {
				p.Log(1, "studio: the folder "+p.Folder.Name()+": "+note)
			}
		}
	}
	save := foldersave.New(foldersave.Options{Backend: p.Durable, Clock: p.Clock, OwnerID: p.DurableOwnerID, SoleOwner: p.DurableSoleOwner})
	return &studioSession{m: m, preview: port, downloads: p.Downloads, ackTimeout: PreviewAckTimeout, p: p, save: save, early: early}, nil
}

// logSkipped reports, through p.Log, every entry the folder import skipped (a limit, a hidden
// or ignored folder, a file that is too large or not text), so a user never works on a partial
// folder without knowing it.
func logSkipped(p Ports, skipped []workspace.Skipped) {
	if p.Log == nil {
		return
	}
	for _, s := range skipped {
		path := s.Path
		if path == "" {
			path = "(import limit)"
		}
		msg := s.Message
		if msg == "" {
			msg = s.Reason
		}
		p.Log(1, fmt.Sprintf("studio: skipped %s: %s", path, msg))
	}
}
