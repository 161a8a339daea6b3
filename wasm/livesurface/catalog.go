package livesurface

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/jsonrpc"
	"github.com/webcoding/studio/wasm/planner"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/workspace"
)

// Catalog is the name that selects this surface in rpcsession.Config.Catalog.
const Catalog = "live"

// DurableDatabase is the IndexedDB database a page of this surface keeps its durable records
// in: never the studio's (adapters/idb.DurableName, "web-coding-operations"; the original
// shared one name between its editor storage and its operation records, live reference,
// section 1.4). Headless hosts share one backend per process (memory, Redis or PostgreSQL)
// and keep the surfaces apart by key: every record of this surface is keyed by an editor.*
// tool name (registry.OperationKey) or starts with "editor.savePlan:" (PlanKey).
const DurableDatabase = "web-coding-live-editor-operations"

// WorkspaceDatabase is the IndexedDB database the page of this surface keeps its workspace in
// (Ports.Repository): never the studio's ("web-coding-studio") nor the realtime page's.
const WorkspaceDatabase = "web-coding-live-editor"

// Install makes Catalog selectable in every studio.Builder of this process
// (studio.RegisterCatalog). Entries that serve the surface call it once at start-up
// (wasm/cmd/reactor); the page module does not, so it does not carry the surface. Calling it
// again does nothing.
func Install() { installOnce.Do(func() { studio.RegisterCatalog(Catalog, register) }) }

var installOnce sync.Once

// Session methods besides MethodRecoverSave.
const (
	// MethodAgentRun is the surface's local agent (planner.RunEditor), the studio's method name
	// so the CLI's `agent` command serves every surface:
	//
	//	params {"prompt": non-blank string, "sessionId"?: 1..256 characters} → planner.Report
	MethodAgentRun = "agent/run"
	// MethodRunScenario is the safe runner (live reference, section 2.7): the fixed event list
	// of the document's current scenario. It reads the document and never executes it.
	//
	//	params {} → {"scenario", "documentRevision", "events": [{"step", "passed"}], "runtime": "safe-runner"}
	MethodRunScenario = "editor/runScenario"
)

// register builds one session of the surface: the built-in examples
// (studio.HydrateWorkspace: persisted in Ports.Repository when the host gave one) or, when the
// host linked a folder (the CLI's --dir), the folder's files, saved back to it; the host's
// preview port (a headless one when the host gave none); the eleven tools; and the session
// methods. With a durable backend (Ports.Durable) keyed saves record their plan there. The
// document clock starts at 1 in every build, so Ports.Preview must be nil (a fresh headless
// port per build) or a port that is not shared across builds (docs/design.md §5.27).
func register(ctx context.Context, r *registry.Registry, p studio.Ports) (map[string]rpcsession.Method, error) {
	m := studio.HydrateWorkspace(ctx, p, Seed)
	// A folder whose name is the stored workspace's root is the one imported before (the page
	// reconnects it after a reload): it is linked without replacing the files, so edits made
	// since the last save stay and are dirty against the folder (workspace.Manager.LinkFolder).
	// Any other folder is imported and replaces the workspace.
	var relinked []string
	if p.Folder != nil {
		if p.Folder.Name() == m.Snapshot().RootName {
			res, err := m.LinkFolder(ctx, p.Folder)
			if err != nil {
				return nil, err
			}
			relinked = res.DirtyPaths
		} else if _, err := m.ImportFolder(ctx, workspace.Call{Tool: "session.linkFolder"}, p.Folder); err != nil {
			return nil, err
		}
	}
	s := newSurface(m, studio.PreviewPortOf(p), p.Folder == nil)
	// The save baseline of a relinked folder is the folder's text: a file that differs from it
	// (or that the folder lacks) stays dirty, and resetDocument goes back to the folder's text.
	for _, path := range relinked {
		if b, err := p.Folder.ReadFile(ctx, path); err == nil {
			s.baseline[path] = string(b)
		} else {
			delete(s.baseline, path)
		}
	}
	if p.Durable != nil {
		store, err := durable.New(p.Durable, durable.Options{Clock: p.Clock})
		if err != nil {
			return nil, err
		}
		s.plans, s.owner = store, "live-editor:"+r.DurableOwnerID()
	}
	for _, t := range s.tools() {
		if err := r.Register(t); err != nil {
			return nil, err
		}
	}
	s.syncStart(ctx)
	return map[string]rpcsession.Method{
		MethodAgentRun:    s.agentRun(r),
		MethodRunScenario: s.runScenario,
		MethodRecoverSave: s.recoverMethod(r),
	}, nil
}

// ScenarioRun is editor/runScenario's result.
type ScenarioRun struct {
	Scenario         string     `json:"scenario"`
	DocumentRevision int64      `json:"documentRevision"`
	Events           []RunEvent `json:"events"`
	Runtime          string     `json:"runtime"`
}

// RuntimeSafeRunner names the safe runner in ScenarioRun.Runtime.
const RuntimeSafeRunner = "safe-runner"

func (s *surface) runScenario(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	if t := bytes.TrimSpace(params); len(t) > 0 && string(t) != "{}" && string(t) != "null" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: MethodRunScenario + ": takes no params"}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return ScenarioRun{Scenario: s.doc.scenario, DocumentRevision: s.doc.revision, Events: SafeRun(s.doc.scenario), Runtime: RuntimeSafeRunner}, nil
}

func (s *surface) agentRun(r *registry.Registry) rpcsession.Method {
	return func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
		prompt, session, _, jerr := studio.DecodeAgentRun(params)
		if jerr != nil {
			return nil, jerr
		}
		ctx = registry.WithRun(ctx, MethodAgentRun)
		return planner.RunEditor(ctx, r.Call, prompt, planner.EditorRunOptions{SessionID: session,
			PreviewExecuted: s.port.Runtime() != preview.RuntimeHeadless}), nil
	}
}
