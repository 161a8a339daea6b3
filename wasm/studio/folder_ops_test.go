package studio

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/memstore"
	"github.com/webcoding/studio/wasm/foldersave"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/workspace"
)

// fakeHost is a FolderHost over MemFolders.
type fakeHost struct {
	picks   []workspace.FolderAdapter
	saved   workspace.FolderAdapter
	grant   func(f workspace.FolderAdapter) workspace.Permission
	upload  []workspace.ImportEntry
	upRoot  string
	remembs int
}

func (h *fakeHost) Pick(context.Context) (workspace.FolderAdapter, error) {
	if len(h.picks) == 0 {
		return nil, nil
	}
	f := h.picks[0]
	h.picks = h.picks[1:]
	return f, nil
}
func (h *fakeHost) Saved(context.Context) (workspace.FolderAdapter, error) { return h.saved, nil }
func (h *fakeHost) Remember(_ context.Context, f workspace.FolderAdapter) error {
	h.saved = f
	h.remembs++
	return nil
}
func (h *fakeHost) RequestPermission(_ context.Context, f workspace.FolderAdapter) workspace.Permission {
	if h.grant != nil {
		return h.grant(f)
	}
	return f.Permission(context.Background())
}
func (h *fakeHost) TakeUpload(context.Context) (string, []workspace.ImportEntry, bool) {
	if h.upload == nil {
		return "", nil, false
	}
	e := h.upload
	h.upload = nil
	return h.upRoot, e, true
}

func folderMethod(t *testing.T, s *rpcsession.Session, name string, params any) map[string]any {
	t.Helper()
	raw, _ := json.Marshal(params)
	m := s.Methods[name]
	if m == nil {
		t.Fatalf("no method %s", name)
	}
	res, jerr := m(context.Background(), raw)
	if jerr != nil {
		t.Fatalf("%s: %v", name, jerr.Message)
	}
	b, _ := json.Marshal(res)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

func folderSession(t *testing.T, host *fakeHost, backend durable.Backend, owner string) *rpcsession.Session {
	t.Helper()
	return session(t, Ports{Folders: host, Durable: backend, DurableOwnerID: owner}, rpcsession.Config{})
}

func project() *workspace.MemFolder {
	return workspace.NewMemFolder("proj", map[string]string{
		"index.html":    `<!doctype html><link rel="stylesheet" href="styles.css"><script type="module" src="app.js"></script><h1>Hi</h1>`,
		"styles.css":    "h1 { color: red; }",
		"app.js":        "import './lib/util.js';",
		"lib/util.js":   "export const x = 1;",
		".git/config":   "[core]",
		"notes 100%.md": "# notes",
	})
}

func records(t *testing.T, b durable.Backend) map[string]durable.Record {
	t.Helper()
	recs, _, err := b.ListPage(context.Background(), "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]durable.Record{}
	for _, r := range recs {
		out[r.Key] = r
	}
	return out
}

func TestOpenFolderThenDurableSave(t *testing.T) {
	folder := project()
	host := &fakeHost{picks: []workspace.FolderAdapter{folder}}
	backend := memstore.New()
	s := folderSession(t, host, backend, "tab-1")
	res := folderMethod(t, s, MethodOpenFolder, map[string]any{})
	if res["error"] != nil || res["rootName"] != "proj" || res["fileCount"].(float64) != 5 {
		t.Fatalf("open: %v", res)
	}
	if host.saved != folder {
		t.Fatal("the link was not remembered")
	}
	ok(t, call(t, s.Registry, "workspace.writeFile", map[string]any{"path": "styles.css", "source": "h1 { color: blue; }"}))
	ok(t, call(t, s.Registry, "workspace.renameFile", map[string]any{"fromPath": "lib/util.js", "toPath": "lib/Util.js"}))
	out := ok(t, call(t, s.Registry, "workspace.saveAll", nil))
	if got, _ := folder.Content("styles.css"); got != "h1 { color: blue; }" {
		t.Fatalf("styles.css in the folder: %q", got)
	}
	if _, found := folder.Content("lib/util.js"); found {
		t.Fatal("the renamed-from file is still in the folder")
	}
	if got, _ := folder.Content("lib/Util.js"); got != "export const x = 1;" {
		t.Fatalf("lib/Util.js: %q", got)
	}
	if len(out["savedPaths"].([]any)) != 2 || len(out["deletedPaths"].([]any)) != 1 {
		t.Fatalf("save result %v", out)
	}
	n := 0
	for k, r := range records(t, backend) {
		if strings.HasPrefix(k, "workspace.saveAll.plan:") {
			continue
		}
		if !strings.HasPrefix(k, "workspace.saveAll:"+folder.ScopeID()+":") || r.State != durable.StateCompleted || r.OwnerID != "tab-1" {
			t.Fatalf("record %s: %+v", k, r)
		}
		n++
	}
	if n != 5 { // styles.css, and the case-only rename through its temporary copy (4 items)
		t.Fatalf("%d records, want 5", n)
	}
	if _, found := folder.Content("lib/Util.js" + workspace.CaseRenameSuffix); found {
		t.Fatal("the temporary copy of the case-only rename is left")
	}
	// An empty folder is refused and the workspace stays.
	host.picks = []workspace.FolderAdapter{workspace.NewMemFolder("empty", nil)}
	res = folderMethod(t, s, MethodOpenFolder, map[string]any{})
	if e, _ := res["error"].(map[string]any); e == nil || e["code"] != string(mcp.CodeWorkspaceNoSupportedFiles) {
		t.Fatalf("empty folder: %v", res)
	}
	st := ok(t, call(t, s.Registry, "workspace.getStatus", nil))
	if st["rootName"] != "proj" || st["filesystem"].(map[string]any)["folderLinked"] != true {
		t.Fatalf("the refused import touched the workspace: %v", st)
	}
}

func TestInterruptedSaveReplaysAndReconciles(t *testing.T) {
	folder := project()
	host := &fakeHost{picks: []workspace.FolderAdapter{folder}}
	backend := memstore.New()
	s := folderSession(t, host, backend, "tab-1")
	folderMethod(t, s, MethodOpenFolder, map[string]any{})
	ok(t, call(t, s.Registry, "workspace.writeFile", map[string]any{"path": "index.html", "source": "<h1>one</h1>"}))
	ok(t, call(t, s.Registry, "workspace.writeFile", map[string]any{"path": "styles.css", "source": "h1{}"}))
	writes := 0
	folder.FailWrite = func(op, path string) error {
		writes++
		if writes == 2 {
			return errors.New("disk went away")
		}
		return nil
	}
	e := fails(t, call(t, s.Registry, "workspace.saveAll", nil), mcp.CodeWorkspaceSideEffectUnknown)
	if !strings.Contains(e.Message, "Folder save completed 1 item(s)") {
		t.Fatalf("message: %s", e.Message)
	}
	states := map[durable.State]int{}
	for k, r := range records(t, backend) {
		if strings.HasPrefix(k, "workspace.saveAll.plan:") {
			continue
		}
		states[r.State]++
	}
	if states[durable.StateCompleted] != 1 || states[durable.StateUnknown] != 1 {
		t.Fatalf("record states %v", states)
	}
	folder.FailWrite = nil
	before := len(folder.Writes)
	ok(t, call(t, s.Registry, "workspace.saveAll", nil))
	if got := folder.Writes[before:]; !slices.Equal(got, []string{"write:styles.css"}) {
		t.Fatalf("retry wrote %v, want only styles.css (index.html was completed)", got)
	}
	for k, r := range records(t, backend) {
		if r.State != durable.StateCompleted && !strings.HasPrefix(k, "workspace.saveAll.plan:") {
			t.Fatalf("after the retry %s is %s", k, r.State)
		}
	}
}

// A page reload in the middle of a save: the record is pending under this tab's owner id; the
// reloaded session (same owner) reconciles it by hash when the folder is reconnected. The same
// holds for a tab killed in the middle of a save (issue 14, TestFolderSaveFaultInjection): its
// claim, under another owner id and with a live lease, is settled by the next tab that is the
// sole owner (Ports.DurableSoleOwner) instead of blocking the path until the lease ends.
func TestReloadMidSaveReconcilesOwnClaim(t *testing.T) {
	for _, claimant := range []struct{ name, owner string }{{"reloaded tab", "tab-1"}, {"killed tab", "tab-dead"}} {
		t.Run(claimant.name, func(t *testing.T) { reconcileInterruptedClaim(t, claimant.owner) })
	}
}

// reconcileInterruptedClaim: a pending claim of owner on styles.css (plus the save's plan),
// the folder in one of four states, then a session of "tab-1" (the sole owner) reconnects.
func reconcileInterruptedClaim(t *testing.T, owner string) {
	for _, tc := range []struct {
		name, onDisk string
		want         durable.State
		unresolved   bool
	}{
		{"landed", "h1{color:green}", durable.StateCompleted, false},
		{"absent", "", durable.StateFailed, false},
		{"other bytes", "something else", durable.StateUnknown, true},
		{"pre-save bytes", "h1 { color: red; }", durable.StateFailed, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			folder := project()
			backend := memstore.New()
			store, _ := durable.New(backend, durable.Options{})
			it := workspace.SaveItem{Op: workspace.SaveOpWrite, Path: "styles.css", Revision: 7, ScopeID: folder.ScopeID(),
				SourceHash: workspace.SourceHash([]byte("h1{color:green}"))}
			if _, err := store.Claim(context.Background(), it.OperationKey(), it.Fingerprint(), owner, time.Minute); err != nil {
				t.Fatal(err)
			}
			// The plan record written before the claim names the pre-save bytes.
			prev := workspace.SourceHash([]byte("h1 { color: red; }"))
			pk := foldersave.PlanKey(folder.ScopeID(), 7)
			pc, err := store.Claim(context.Background(), pk, "workspace.saveAll.plan:x", owner, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := store.Complete(context.Background(), pk, owner, pc.Fence, json.RawMessage(`{"previousHashes":{"styles.css":"`+prev+`"}}`)); err != nil {
				t.Fatal(err)
			}
			switch tc.onDisk {
			case "":
				_ = folder.DeleteFile(context.Background(), "styles.css")
			default:
				_ = folder.WriteFile(context.Background(), "styles.css", []byte(tc.onDisk))
			}
			host := &fakeHost{saved: folder}
			s := session(t, Ports{Folders: host, Durable: backend, DurableOwnerID: "tab-1", DurableSoleOwner: true}, rpcsession.Config{})
			res := folderMethod(t, s, MethodReconnectFolder, map[string]any{})
			if res["linked"] != true || res["read"] != true {
				t.Fatalf("reconnect: %v", res)
			}
			rec := records(t, backend)[it.OperationKey()]
			if rec.State != tc.want {
				t.Fatalf("record %s, want %s", rec.State, tc.want)
			}
			un, _ := res["unresolved"].([]any)
			if (len(un) > 0) != tc.unresolved {
				t.Fatalf("unresolved %v", un)
			}
			if tc.unresolved {
				e := fails(t, call(t, s.Registry, "workspace.saveAll", nil), mcp.CodeWorkspaceSideEffectUnknown)
				if d := details(t, e); d["state"] != "unknown" {
					t.Fatalf("details %v", d)
				}
				folderMethod(t, s, MethodResolveSave, map[string]any{"path": "styles.css", "choice": "keep-folder"})
				rd := ok(t, call(t, s.Registry, "workspace.readFile", map[string]any{"path": "styles.css"}))
				if rd["source"] != tc.onDisk {
					t.Fatalf("kept version %q", rd["source"])
				}
				st := ok(t, call(t, s.Registry, "workspace.getStatus", nil))
				if slices.Contains(st["dirtyPaths"].([]any), any("styles.css")) {
					t.Fatalf("styles.css dirty after keep-folder: %v", st["dirtyPaths"])
				}
				ok(t, call(t, s.Registry, "workspace.saveAll", nil))
			}
		})
	}
}

// Another tab's live claim is left alone (its owner finishes it) unless the session is the
// sole owner (Ports.DurableSoleOwner, see TestReloadMidSaveReconcilesOwnClaim).
func TestReconcileLeavesOtherOwnersClaims(t *testing.T) {
	folder := project()
	backend := memstore.New()
	store, _ := durable.New(backend, durable.Options{})
	it := workspace.SaveItem{Op: workspace.SaveOpWrite, Path: "styles.css", Revision: 7, ScopeID: folder.ScopeID(), SourceHash: "sha256:00"}
	if _, err := store.Claim(context.Background(), it.OperationKey(), it.Fingerprint(), "tab-other", time.Minute); err != nil {
		t.Fatal(err)
	}
	s := folderSession(t, &fakeHost{saved: folder}, backend, "tab-1")
	folderMethod(t, s, MethodReconnectFolder, map[string]any{})
	if rec := records(t, backend)[it.OperationKey()]; rec.State != durable.StatePending {
		t.Fatalf("another owner's claim became %s", rec.State)
	}
}

func TestReconnectKeepsWorkspaceAndGrant(t *testing.T) {
	folder := project()
	host := &fakeHost{picks: []workspace.FolderAdapter{folder}}
	s := folderSession(t, host, memstore.New(), "tab-1")
	folderMethod(t, s, MethodOpenFolder, map[string]any{})
	ok(t, call(t, s.Registry, "workspace.writeFile", map[string]any{"path": "styles.css", "source": "edited"}))
	ok(t, call(t, s.Registry, "workspace.deleteFile", map[string]any{"path": "notes 100%.md"}))
	// A reload: a new session over a repository-less workspace would be the seed; here we keep
	// the session and relink with permission "prompt".
	folder.Perm = workspace.PermissionPrompt
	res := folderMethod(t, s, MethodReconnectFolder, map[string]any{})
	if res["linked"] != true || res["read"] != false || res["permission"] != "prompt" {
		t.Fatalf("reconnect with prompt: %v", res)
	}
	e := fails(t, call(t, s.Registry, "workspace.saveAll", nil), mcp.CodeWorkspaceFolderPermissionDenied)
	if details(t, e)["permission"] != "prompt" {
		t.Fatalf("details %v", e.Details)
	}
	host.grant = func(f workspace.FolderAdapter) workspace.Permission {
		folder.Perm = ""
		return workspace.PermissionGranted
	}
	res = folderMethod(t, s, MethodGrantFolderAccess, map[string]any{})
	if res["linked"] != true || res["read"] != true || !slices.Equal(res["dirtyPaths"].([]any), []any{"styles.css"}) ||
		!slices.Equal(res["deletedPaths"].([]any), []any{"notes 100%.md"}) {
		t.Fatalf("grant (the pending deletion counts as a difference too): %v", res)
	}
	rd := ok(t, call(t, s.Registry, "workspace.readFile", map[string]any{"path": "styles.css"}))
	if rd["source"] != "edited" {
		t.Fatalf("grant replaced the workspace: %v", rd["source"])
	}
	ok(t, call(t, s.Registry, "workspace.saveAll", nil))
	if got, _ := folder.Content("styles.css"); got != "edited" {
		t.Fatalf("folder holds %q", got)
	}
	// A stale root drops the link; Reconnect with a picked folder keeps the workspace.
	folder.Stale = true
	ok(t, call(t, s.Registry, "workspace.writeFile", map[string]any{"path": "styles.css", "source": "again"}))
	fails(t, call(t, s.Registry, "workspace.saveAll", nil), mcp.CodeWorkspaceFolderStale)
	st := ok(t, call(t, s.Registry, "workspace.getStatus", nil))
	if st["filesystem"].(map[string]any)["folderLinked"] != false {
		t.Fatal("a stale folder stays linked")
	}
	fresh := project()
	host.picks = []workspace.FolderAdapter{fresh}
	res = folderMethod(t, s, MethodReconnectFolder, map[string]any{"pick": true})
	if res["linked"] != true || !slices.Contains(res["dirtyPaths"].([]any), any("styles.css")) {
		t.Fatalf("reconnect by pick: %v", res)
	}
	ok(t, call(t, s.Registry, "workspace.saveAll", nil))
	if got, _ := fresh.Content("styles.css"); got != "again" {
		t.Fatalf("reconnected folder holds %q", got)
	}
}

func TestUploadFolderReplacesUnlinked(t *testing.T) {
	folder := project()
	host := &fakeHost{picks: []workspace.FolderAdapter{folder}}
	s := folderSession(t, host, nil, "")
	folderMethod(t, s, MethodOpenFolder, map[string]any{})
	entries := []workspace.ImportEntry{}
	for p, src := range map[string]string{"index.html": "<h1>up</h1>", "a b/c%.css": "x{}", ".hidden": "h"} {
		data := []byte(src)
		entries = append(entries, workspace.ImportEntry{Path: p, Size: int64(len(data)), Read: func(context.Context) ([]byte, error) { return data, nil }})
	}
	host.upload, host.upRoot = entries, "site"
	res := folderMethod(t, s, MethodUploadFolder, map[string]any{})
	if res["rootName"] != "site" || res["fileCount"].(float64) != 2 || len(res["skipped"].([]any)) != 1 {
		t.Fatalf("upload: %v", res)
	}
	st := ok(t, call(t, s.Registry, "workspace.getStatus", nil))
	if st["filesystem"].(map[string]any)["folderLinked"] != false {
		t.Fatal("an upload must not stay linked")
	}
	res = folderMethod(t, s, MethodUploadFolder, map[string]any{})
	if res["error"] == nil {
		t.Fatalf("nothing staged: %v", res)
	}
}
