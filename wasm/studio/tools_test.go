package studio

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/workspace"
)

func seedFolder() *workspace.MemFolder {
	files := map[string]string{}
	for _, f := range workspace.Seed().Files {
		files[f.Path] = f.Source
	}
	return workspace.NewMemFolder("site", files)
}

// TestEveryToolSucceeds walks the 23 tools' success paths in one browser-only session and one
// folder session, checking the results against the workspace they changed.
func TestEveryToolSucceeds(t *testing.T) {
	var downloaded []string
	s := session(t, Ports{Downloads: func(name, mime string, data []byte) error {
		downloaded = append(downloaded, name+"|"+mime+"|"+string(data[:5]))
		return nil
	}}, rpcsession.Config{})
	r := s.Registry

	st := ok(t, call(t, r, ToolWorkspaceGetStatus, nil))
	if st["revision"].(float64) != 2 || st["fileCount"].(float64) != 4 || st["storageMode"] != "memory" {
		t.Fatalf("status %v", st)
	}
	if fs := st["filesystem"].(map[string]any); fs["mode"] != "browser-only" || fs["permission"] != "disconnected" {
		t.Fatalf("filesystem %v", fs)
	}
	l := ok(t, call(t, r, ToolWorkspaceListFiles, nil))
	if len(l["files"].([]any)) != 4 || l["dirty"] != false {
		t.Fatalf("list %v", l)
	}
	rd := ok(t, call(t, r, ToolWorkspaceReadFile, map[string]any{"path": "styles.css"}))
	if !strings.Contains(rd["source"].(string), "--accent: #8b5cf6") {
		t.Fatalf("read %v", rd)
	}
	dl := ok(t, call(t, r, ToolWorkspaceDownloadFile, map[string]any{"path": "README.md"}))
	if dl["kind"] != "text" || len(downloaded) != 1 || !strings.HasPrefix(downloaded[0], "README.md|text/markdown|# Can") {
		t.Fatalf("download %v %v", dl, downloaded)
	}
	op := ok(t, call(t, r, ToolWorkspaceOpenFile, map[string]any{"path": "./app.js"}))
	if op["path"] != "app.js" || op["activePath"] != "app.js" || op["revision"].(float64) != 2 {
		t.Fatalf("open %v", op)
	}
	cr := ok(t, call(t, r, ToolWorkspaceCreateFile, map[string]any{"path": "notes.md", "source": "# Notes\n"}))
	if cr["revision"].(float64) != 3 || cr["preview"] != "synced" || cr["language"] != "markdown" || cr["activePath"] != "notes.md" {
		t.Fatalf("create %v", cr)
	}
	rn := ok(t, call(t, r, ToolWorkspaceRenameFile, map[string]any{"fromPath": "notes.md", "toPath": "docs/notes.md", "expectedRevision": 3}))
	if rn["toPath"] != "docs/notes.md" || rn["fromPath"] != "notes.md" || rn["revision"].(float64) != 4 {
		t.Fatalf("rename %v", rn)
	}
	wr := ok(t, call(t, r, ToolWorkspaceWriteFile, map[string]any{"path": "docs/notes.md", "source": "one two two"}))
	if wr["revision"].(float64) != 5 {
		t.Fatalf("write %v", wr)
	}
	pa := ok(t, call(t, r, ToolWorkspaceApplyPatch, map[string]any{"path": "docs/notes.md", "search": "two", "replace": "2", "occurrence": "all"}))
	if pa["replacements"].(float64) != 2 || pa["revision"].(float64) != 6 {
		t.Fatalf("patch %v", pa)
	}
	un := ok(t, call(t, r, ToolWorkspaceUndo, nil))
	if un["direction"] != "undo" || un["changed"] != true || un["revision"].(float64) != 7 {
		t.Fatalf("undo %v", un)
	}
	re := ok(t, call(t, r, ToolWorkspaceRedo, nil))
	if re["direction"] != "redo" || re["revision"].(float64) != 8 {
		t.Fatalf("redo %v", re)
	}
	if src := ok(t, call(t, r, ToolWorkspaceReadFile, map[string]any{"path": "docs/notes.md"}))["source"]; src != "one 2 2" {
		t.Fatalf("after redo %q", src)
	}
	rv := ok(t, call(t, r, ToolWorkspaceRevertFile, map[string]any{"path": "docs/notes.md"}))
	if rv["revision"].(float64) != 9 {
		t.Fatalf("revert (a never-saved file is deleted) %v", rv)
	}
	ok(t, call(t, r, ToolWorkspaceCreateFile, map[string]any{"path": "extra.txt", "source": "x"}))
	dv := ok(t, call(t, r, ToolWorkspaceDeleteFile, map[string]any{"path": "extra.txt"}))
	if dv["path"] != "extra.txt" {
		t.Fatalf("delete %v", dv)
	}
	th := ok(t, call(t, r, ToolPreviewSetTheme, map[string]any{"theme": "rose"}))
	if th["theme"] != "rose" {
		t.Fatalf("theme %v", th)
	}
	af := ok(t, call(t, r, ToolPreviewAddFeature, map[string]any{"title": "A & B", "description": "<d>"}))
	if af["title"] != "A & B" {
		t.Fatalf("feature %v", af)
	}
	if src := ok(t, call(t, r, ToolWorkspaceReadFile, map[string]any{"path": "index.html"}))["source"].(string); !strings.Contains(src, "A &amp; B") {
		t.Fatal("feature not escaped into index.html")
	}
	ok(t, call(t, r, ToolPreviewUpdateHero, map[string]any{"title": "Hi", "subtitle": "There"}))
	ps := ok(t, call(t, r, ToolPreviewGetStatus, nil))
	if ps["status"] != "synced" || ps["runtime"] != preview.RuntimeHeadless || len(ps["diagnostics"].([]any)) != 0 {
		t.Fatalf("preview status %v", ps)
	}
	rf := ok(t, call(t, r, ToolPreviewRefresh, nil))
	if rf["revision"] != ps["revision"] || rf["preview"] != "synced" {
		t.Fatalf("refresh %v vs %v", rf, ps)
	}
	sc := ok(t, call(t, r, ToolWorkspaceSaveCheckpoint, nil))
	if sc["checkpointUpdated"] != true || len(sc["savedPaths"].([]any)) != 2 {
		t.Fatalf("checkpoint %v", sc)
	}
	rs := ok(t, call(t, r, ToolWorkspaceReset, nil))
	if rs["rootName"] != workspace.SeedRootName || rs["fileCount"].(float64) != 4 {
		t.Fatalf("reset %v", rs)
	}

	folder := seedFolder()
	fsess := session(t, Ports{Folder: folder}, rpcsession.Config{})
	fr := fsess.Registry
	st = ok(t, call(t, fr, ToolWorkspaceGetStatus, nil))
	if fs := st["filesystem"].(map[string]any); fs["folderLinked"] != true || fs["permission"] != "granted" || st["rootName"] != "site" {
		t.Fatalf("folder status %v", st)
	}
	ok(t, call(t, fr, ToolWorkspaceWriteFile, map[string]any{"path": "README.md", "source": "new"}))
	sa := ok(t, call(t, fr, ToolWorkspaceSaveAll, nil))
	if got, _ := folder.Content("README.md"); got != "new" || sa["checkpointUpdated"] != true {
		t.Fatalf("saveAll %v, folder has %q", sa, got)
	}
	if err := folder.WriteFile(context.Background(), "extra.css", []byte("a{}")); err != nil {
		t.Fatal(err)
	}
	rl := ok(t, call(t, fr, ToolWorkspaceReloadFolder, nil))
	if rl["fileCount"].(float64) != 5 || rl["filesystem"].(map[string]any)["folderLinked"] != true {
		t.Fatalf("reload %v", rl)
	}
	dc := ok(t, call(t, fr, ToolWorkspaceDisconnectFolder, nil))
	if fs := dc["filesystem"].(map[string]any); fs["folderLinked"] != false || fs["permission"] != "disconnected" {
		t.Fatalf("disconnect %v", dc)
	}
}

func TestWorkspaceErrorsKeepTheirCodes(t *testing.T) {
	s := session(t, Ports{}, rpcsession.Config{})
	r := s.Registry
	e := fails(t, call(t, r, ToolWorkspaceWriteFile, map[string]any{"path": "index.html", "source": "x", "expectedRevision": 9}), mcp.CodeWorkspaceRevisionConflict)
	if d := details(t, e); d["expectedRevision"].(float64) != 9 || d["currentRevision"].(float64) != 2 || !e.Retryable {
		t.Fatalf("conflict %v", e)
	}
	e = fails(t, call(t, r, ToolWorkspaceApplyPatch, map[string]any{"path": "index.html", "search": "secret words", "replace": "", "occurrence": "first"}), mcp.CodeWorkspacePatchNotFound)
	if d := details(t, e); d["searchLength"].(float64) != 12 || strings.Contains(e.Message, "secret") {
		t.Fatalf("patch miss %v", e)
	}
	fails(t, call(t, r, ToolWorkspaceReadFile, map[string]any{"path": "nope.md"}), mcp.CodeWorkspaceFileNotFound)
	fails(t, call(t, r, ToolWorkspaceReadFile, map[string]any{"path": "../x"}), mcp.CodeWorkspacePathInvalid)
	fails(t, call(t, r, ToolWorkspaceCreateFile, map[string]any{"path": "index.html", "source": ""}), mcp.CodeWorkspaceFileConflict)
	fails(t, call(t, r, ToolWorkspaceCreateFile, map[string]any{"path": "a.png", "source": ""}), mcp.CodeWorkspaceFileTypeConflict)
	fails(t, call(t, r, ToolWorkspaceDeleteFile, map[string]any{"path": "index.html"}), mcp.CodeWorkspacePreviewEntryRequired)
	fails(t, call(t, r, ToolWorkspaceUndo, nil), mcp.CodeWorkspaceHistoryEmpty)
	fails(t, call(t, r, ToolWorkspaceSaveAll, nil), mcp.CodeWorkspaceFolderNotConnected)
	fails(t, call(t, r, ToolWorkspaceReloadFolder, nil), mcp.CodeWorkspaceFolderNotConnected)
	e = fails(t, call(t, r, ToolWorkspaceDownloadFile, map[string]any{"path": "index.html"}), mcp.CodeToolExecutionFailed)
	if d := details(t, e); d["reason"] != ReasonNoDownloadTarget || e.Retryable {
		t.Fatalf("download without target %v", e)
	}
	fails(t, call(t, r, ToolWorkspaceCreateFile, map[string]any{"path": "big.md", "source": strings.Repeat("é", workspace.MaxSourceChars+1)}), mcp.CodeToolValidationFailed)
	ok(t, call(t, r, ToolWorkspaceCreateFile, map[string]any{"path": "big.md", "source": strings.Repeat("é", workspace.MaxSourceChars)}))
	e = fails(t, call(t, r, ToolWorkspaceApplyPatch, map[string]any{"path": "big.md", "search": "é", "replace": "éé", "occurrence": "first"}), mcp.CodeWorkspaceSourceLimit)
	if details(t, e)["limit"].(float64) != 80000 {
		t.Fatalf("limit details %v", e.Details)
	}

	fsess := session(t, Ports{Folder: seedFolder()}, rpcsession.Config{})
	e = fails(t, call(t, fsess.Registry, ToolWorkspaceReset, nil), mcp.CodeWorkspaceFolderStateConflict)
	if d := details(t, e); d["operation"] != "reset" || d["folderLinked"] != true {
		t.Fatalf("reset refusal %v", e)
	}
	fails(t, call(t, fsess.Registry, ToolWorkspaceSaveCheckpoint, nil), mcp.CodeWorkspaceFolderStateConflict)

	no := seedFolder()
	no.Perm = workspace.PermissionDenied
	// The link fails at build (permission), so the session starts without a folder.
	var logged []string
	nsess := session(t, Ports{Folder: no, Log: func(_ int, m string) { logged = append(logged, m) }}, rpcsession.Config{})
	if st := ok(t, call(t, nsess.Registry, ToolWorkspaceGetStatus, nil)); st["filesystem"].(map[string]any)["folderLinked"] != false || len(logged) != 1 {
		t.Fatalf("denied folder linked anyway: %v %v", st, logged)
	}

	errFolder := seedFolder()
	esess := session(t, Ports{Folder: errFolder}, rpcsession.Config{})
	errFolder.FailWrite = func(op, p string) error { return errors.New("disk on fire") }
	ok(t, call(t, esess.Registry, ToolWorkspaceWriteFile, map[string]any{"path": "README.md", "source": "x"}))
	fails(t, call(t, esess.Registry, ToolWorkspaceSaveAll, nil), mcp.CodeWorkspaceSideEffectUnknown)
}

// A folder over the 200-file import limit reloads with a success result that carries the
// file-limit summary (count of the entries left out): the summary's "count" is part of the
// output schema, so the registry never reports TOOL_OUTPUT_VALIDATION_FAILED for a reload that
// already replaced the workspace (a new user's finding, issue 14).
func TestReloadFolderOverLimitSucceeds(t *testing.T) {
	files := map[string]string{"index.html": "<!doctype html><h1>big</h1>"}
	for i := 0; i < 250; i++ {
		files[fmt.Sprintf("a%03d.txt", i)] = "x\n"
	}
	s := session(t, Ports{Folder: workspace.NewMemFolder("big", files)}, rpcsession.Config{})
	r := s.Registry
	ok(t, call(t, r, ToolWorkspaceWriteFile, map[string]any{"path": "a000.txt", "source": "changed"}))
	res := ok(t, call(t, r, ToolWorkspaceReloadFolder, nil))
	var summary map[string]any
	for _, e := range res["skipped"].([]any) {
		if m := e.(map[string]any); m["reason"] == workspace.SkipFileLimit {
			summary = m
		}
	}
	if summary == nil || summary["count"].(float64) != 51 {
		t.Fatalf("reload skipped = %v, want a file-limit summary with count 51", res["skipped"])
	}
}
