package studio

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/workspace"
)

// workspaceEffects locates the effects of the studio's mutating tools (registry.Effects,
// issue 14 item 4) in the session's workspace Manager:
//   - an edit's effect is the fingerprint of every path it changed (the files before and after
//     the handler, compared by identity: files are immutable) plus the paths its result names
//     (path, fromPath), in the workspace instance it ran in;
//   - a save's effect (workspace.saveAll / saveCheckpoint with a linked folder) is the
//     fingerprint of each saved path on disk and "" for each deleted one; checking it reads the
//     folder back.
type workspaceEffects struct{ m *workspace.Manager }

var _ registry.Effects = workspaceEffects{}

func (w workspaceEffects) Capture() any { return w.m.Files() }

func (w workspaceEffects) Stamp(_ context.Context, call *registry.Call, before any, sc json.RawMessage) (*registry.Effect, error) {
	var named struct {
		Path         string   `json:"path"`
		FromPath     string   `json:"fromPath"`
		SavedPaths   []string `json:"savedPaths"`
		DeletedPaths []string `json:"deletedPaths"`
	}
	_ = json.Unmarshal(sc, &named)
	inst := w.m.Instance()
	if (call.Name == "workspace.saveAll" || call.Name == "workspace.saveCheckpoint") && w.m.FolderLinked() &&
		len(named.SavedPaths)+len(named.DeletedPaths) > 0 {
		paths := map[string]string{}
		for _, p := range named.SavedPaths {
			paths[p] = w.m.OnDiskHash(p)
		}
		for _, p := range named.DeletedPaths {
			paths[p] = ""
		}
		return &registry.Effect{Instance: inst, Scope: registry.EffectFolder, Paths: paths}, nil
	}
	prev := map[string]*workspace.File{}
	if fs, ok := before.([]*workspace.File); ok {
		for _, f := range fs {
			prev[f.Path] = f
		}
	}
	var touched []string
	for _, f := range w.m.Files() {
		if prev[f.Path] != f {
			touched = append(touched, f.Path)
		}
		delete(prev, f.Path)
	}
	for p := range prev { // removed
		touched = append(touched, p)
	}
	for _, p := range []string{named.Path, named.FromPath} {
		if p != "" && !slices.Contains(touched, p) {
			touched = append(touched, p)
		}
	}
	return &registry.Effect{Instance: inst, Scope: registry.EffectWorkspace, Paths: w.m.Fingerprints(touched)}, nil
}

func (w workspaceEffects) Check(ctx context.Context, e registry.Effect) (registry.EffectCheck, error) {
	paths := make([]string, 0, len(e.Paths))
	for p := range e.Paths {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var now map[string]string
	if e.Scope == registry.EffectFolder {
		var err error
		if now, err = w.m.FolderFingerprints(ctx, paths); err != nil {
			return registry.EffectCheck{}, err
		}
	} else {
		now = w.m.Fingerprints(paths)
	}
	c := registry.EffectCheck{SameInstance: e.Instance == w.m.Instance()}
	for _, p := range paths {
		if now[p] != e.Paths[p] {
			c.Changed = append(c.Changed, p)
		}
	}
	return c, nil
}
