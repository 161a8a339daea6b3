package livesurface

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/jsonrpc"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/workspace"
)

// MethodRecoverSave settles a keyed editor.saveFile / editor.saveAll whose durable record is
// unknown by reading the folder back (live reference, section 2.6 "Recovery"); it never writes.
//
//	params {"tool": "editor.saveFile"|"editor.saveAll", "idempotencyKey": 1..256 characters,
//	        "sessionId"?: the call's session, "expectedSource"?: saveFile only, the text the
//	        caller saved}
//	result RecoverResult
//
// The record is read first (status-first, registry.RecoverOperation): no record → "missing";
// a record that is not unknown → its state, nothing read. An unknown record is resolved only
// when the folder holds what the save planned: for saveFile the bytes equal expectedSource
// (when given; it must also be what the plan recorded) or the plan's digest and length; for
// saveAll every planned file's sha256 digest and byte length equal the manifest's. Then the
// record becomes completed with a result in the tool's output shape (later calls with the key
// replay it, nothing is written again) and every recovered path whose current text is what
// was saved leaves dirtyPaths. Otherwise the record stays unknown and Mismatches lists each
// file that is missing, different or unreadable.
const MethodRecoverSave = "editor/recoverSave"

// Mismatch is one planned file the folder does not hold as planned.
type Mismatch struct {
	Path   string `json:"path"`
	Reason string `json:"reason"` // "missing", "different" or "unreadable"
}

// RecoverResult is editor/recoverSave's result: Status "completed" (resolved now, or already),
// "missing" (no record for the key), "unknown" (the folder does not match; Mismatches says
// why), "failed" or "pending" (the record's state, untouched).
type RecoverResult struct {
	Status         string                    `json:"status"`
	RecoveredPaths []string                  `json:"recoveredPaths"`
	Mismatches     []Mismatch                `json:"mismatches"`
	Message        string                    `json:"message,omitempty"`
	Operation      *rpcsession.OperationView `json:"operation,omitempty"`
}

func (s *surface) recoverMethod(r *registry.Registry) rpcsession.Method {
	return func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
		bad := func(msg string) *jsonrpc.Error {
			return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: MethodRecoverSave + ": " + msg}
		}
		fields, err := mcp.DecodeObject(bytes.TrimSpace(params), []string{"tool", "idempotencyKey", "sessionId", "expectedSource"}, nil)
		if err != nil {
			return nil, bad(err.Error())
		}
		var tool, key, session string
		var expected *string
		if json.Unmarshal(fields["tool"], &tool) != nil || (tool != ToolSaveFile && tool != ToolSaveAll) {
			return nil, bad("tool must be editor.saveFile or editor.saveAll")
		}
		if json.Unmarshal(fields["idempotencyKey"], &key) != nil || key == "" || len([]rune(key)) > mcp.MaxIdempotencyKeyChars {
			return nil, bad("idempotencyKey must be a string of 1..256 characters")
		}
		if raw, ok := fields["sessionId"]; ok && (json.Unmarshal(raw, &session) != nil || len([]rune(session)) > mcp.MaxSessionIDChars) {
			return nil, bad("sessionId must be a string of at most 256 characters")
		}
		if raw, ok := fields["expectedSource"]; ok {
			var v string
			if tool != ToolSaveFile || json.Unmarshal(raw, &v) != nil {
				return nil, bad("expectedSource is a string, for editor.saveFile only")
			}
			expected = &v
		}
		out, err := s.recoverSave(ctx, r, tool, key, session, expected)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: MethodRecoverSave + ": " + err.Error()}
		}
		return out, nil
	}
}

// errMismatch is the resolver's refusal when the folder does not hold the planned bytes.
var errMismatch = errors.New("the folder does not hold what the save planned")

func (s *surface) recoverSave(ctx context.Context, r *registry.Registry, tool, key, session string, expected *string) (RecoverResult, error) {
	out := RecoverResult{RecoveredPaths: []string{}, Mismatches: []Mismatch{}}
	var recovered []ManifestEntry
	resolver := func(ctx context.Context, rec durable.Record) (registry.Reconciliation, error) {
		if s.plans == nil {
			return registry.Reconciliation{}, errors.New("this session has no durable store")
		}
		folder, err := s.folderFor("recover a save")
		if err != nil {
			return registry.Reconciliation{}, err
		}
		plan, err := s.loadPlan(ctx, PlanKey(session, tool, key))
		if err != nil {
			return registry.Reconciliation{}, err
		}
		if expected != nil && (len(plan.Entries) != 1 || entryFor(plan.Entries[0].Path, *expected) != plan.Entries[0]) {
			return registry.Reconciliation{}, errors.New("expectedSource is not the text this save planned to write")
		}
		for _, e := range plan.Entries {
			data, rerr := folder.ReadFile(ctx, e.Path)
			switch {
			case errors.Is(rerr, workspace.ErrFolderFileMissing):
				out.Mismatches = append(out.Mismatches, Mismatch{e.Path, "missing"})
			case rerr != nil:
				out.Mismatches = append(out.Mismatches, Mismatch{e.Path, "unreadable"})
			case expected != nil && !bytes.Equal(data, []byte(*expected)):
				out.Mismatches = append(out.Mismatches, Mismatch{e.Path, "different"})
			case digest(data) != e.SourceHash || len(data) != e.SourceLength:
				out.Mismatches = append(out.Mismatches, Mismatch{e.Path, "different"})
			}
		}
		if len(out.Mismatches) > 0 {
			return registry.Reconciliation{}, errMismatch
		}
		recovered = plan.Entries
		sc, err := json.Marshal(s.recoveredResult(tool, plan.Entries))
		if err != nil {
			return registry.Reconciliation{}, err
		}
		return registry.Reconciliation{State: durable.StateCompleted, StructuredContent: sc}, nil
	}
	rr, err := r.RecoverOperation(ctx, session, tool, key, resolver)
	switch {
	case errors.Is(err, errMismatch):
		out.Status, out.Message = string(durable.StatusUnknown), "The folder does not hold what the save planned; the save stays unknown. Reconcile the files by hand."
		// What the folder does not hold is unsaved again, so the next save writes it (a file the
		// interrupted save wrote had become clean; new-user finding).
		s.mu.Lock()
		for _, mm := range out.Mismatches {
			delete(s.baseline, mm.Path)
		}
		s.mu.Unlock()
		return out, nil
	case err != nil && rr.Status == durable.StatusUnknown:
		out.Status, out.Message, out.Mismatches = string(durable.StatusUnknown), err.Error(), []Mismatch{}
		return out, nil
	case err != nil:
		return out, err
	}
	switch rr.Status {
	case durable.StatusMissing:
		out.Status, out.Message = string(durable.StatusMissing), "No durable record exists for this save (was it called with this idempotencyKey and sessionId?)."
		return out, nil
	case durable.StatusResolved:
		out.Status = string(durable.StatusCompleted)
		for _, e := range recovered {
			out.RecoveredPaths = append(out.RecoveredPaths, e.Path)
			s.markRecovered(e)
		}
	default:
		out.Status = string(rr.Status)
	}
	view := rpcsession.ViewOperation(rr.Record)
	out.Operation = &view
	return out, nil
}

// markRecovered makes e's saved text the baseline when the file still holds it; a file edited
// since keeps its baseline and stays dirty (the saved text is known only by its digest).
func (s *surface) markRecovered(e ManifestEntry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, err := s.m.File(e.Path); err == nil && entryFor(f.Path, f.Source) == e {
		s.baseline[e.Path] = f.Source
	}
}

// recoveredResult is the synthetic result a recovered save stores (the tool's output shape).
func (s *surface) recoveredResult(tool string, entries []ManifestEntry) any {
	active, ws, doc, dirty := s.clocks()
	paths := make([]string, len(entries))
	gone := map[string]bool{}
	for i, e := range entries {
		paths[i] = e.Path
		gone[e.Path] = true
	}
	// The paths recovered now leave dirtyPaths when their text is what was saved (markRecovered).
	s.mu.Lock()
	kept := []string{}
	for _, p := range dirty {
		if f, err := s.m.File(p); gone[p] && err == nil && s.planned(entries, f) {
			continue
		}
		kept = append(kept, p)
	}
	s.mu.Unlock()
	if tool == ToolSaveFile {
		return SaveFileResult{Path: paths[0], ActivePath: active, SavedTo: SavedToFilesystem, DirtyPaths: kept, WorkspaceRevision: ws, DocumentRevision: doc}
	}
	return SaveAllResult{SavedPaths: paths, ActivePath: active, DirtyPaths: kept, WorkspaceRevision: ws, DocumentRevision: doc}
}

func (s *surface) planned(entries []ManifestEntry, f *workspace.File) bool {
	for _, e := range entries {
		if e.Path == f.Path {
			return entryFor(f.Path, f.Source) == e
		}
	}
	return false
}

// loadPlan reads the manifest a keyed save recorded.
func (s *surface) loadPlan(ctx context.Context, key string) (Manifest, error) {
	rec, found, err := s.plans.Get(ctx, key)
	if err != nil {
		return Manifest{}, err
	}
	if !found || rec.State != durable.StateCompleted {
		return Manifest{}, fmt.Errorf("no save plan is recorded under %s, so the folder cannot be checked", key)
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(rec.Result))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil || len(m.Entries) == 0 || len(m.Entries) > MaxSaveFiles {
		return Manifest{}, fmt.Errorf("the save plan %s does not decode", key)
	}
	seen := map[string]bool{}
	for _, e := range m.Entries {
		if e.Path == "" || seen[e.Path] || e.SourceLength < 0 {
			return Manifest{}, fmt.Errorf("the save plan %s has a bad entry", key)
		}
		seen[e.Path] = true
	}
	return m, nil
}
