package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// The folder feature (issue 8) against real File System Access handles: OPFS directories
// (navigator.storage.getDirectory()) injected in place of the picker through the shim's test
// hook (site/js/folder.js, webcodingFolderTest), which can also force the permission state and
// make the k-th write fail or hang.

// opfsJS installs globalThis.__opfs in the page: mk(name, files) creates (or recreates) a
// directory with text files (a value {base64} is binary), read(name, path) returns the text or
// null, write(name, path, text) changes a file behind the studio's back, list(name) returns
// every file's path (sorted), rm(name) removes the directory, handle(name) returns its handle.
const opfsJS = `globalThis.__opfs = {
  async root() { return navigator.storage.getDirectory(); },
  async handle(name) { return (await this.root()).getDirectoryHandle(name, { create: true }); },
  async rm(name) { try { await (await this.root()).removeEntry(name, { recursive: true }); } catch (e) {} return true; },
  async put(dir, path, value) {
    const parts = path.split("/");
    for (const p of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(p, { create: true });
    const fh = await dir.getFileHandle(parts[parts.length - 1], { create: true });
    const w = await fh.createWritable();
    if (value && value.base64) await w.write(Uint8Array.from(atob(value.base64), c => c.charCodeAt(0)));
    else await w.write(value);
    await w.close();
  },
  async mk(name, files) {
    await this.rm(name);
    const d = await this.handle(name);
    for (const [p, v] of Object.entries(files)) await this.put(d, p, v);
    return true;
  },
  async write(name, path, text) { await this.put(await this.handle(name), path, text); return true; },
  async read(name, path) {
    try {
      let dir = await (await this.root()).getDirectoryHandle(name);
      const parts = path.split("/");
      for (const p of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(p);
      return await (await (await dir.getFileHandle(parts[parts.length - 1])).getFile()).text();
    } catch (e) { return null; }
  },
  async list(name) {
    const out = [];
    const walk = async (dir, prefix) => {
      for await (const [n, h] of dir.entries()) {
        if (h.kind === "directory") await walk(h, prefix + n + "/"); else out.push(prefix + n);
      }
    };
    await walk(await (await this.root()).getDirectoryHandle(name), "");
    return out.sort();
  },
  async inject(name) { webcodingFolderTest.inject(await (await this.root()).getDirectoryHandle(name)); return true; },
};`

// A 1×1 PNG.
const pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

// projectFiles is a small project with nested paths, spaces and "%" in names, a module graph,
// an asset, a reference that does not resolve, and folders/files the importer skips.
func projectFiles() map[string]any {
	return map[string]any{
		"index.html": `<!doctype html><html><head><link rel="stylesheet" href="css/main%20styles.css"><link rel="stylesheet" href="missing.css"></head>` +
			`<body><h1 id="t">Folder</h1><img id="logo" src="assets/logo.png" alt=""><script type="module" src="js/app.js"></script></body></html>`,
		"css/main styles.css": "h1 { color: rgb(1, 2, 3); }",
		"js/app.js":           `import { label } from "./lib/100%25%20done.js"; document.getElementById("t").dataset.label = label;`,
		"js/lib/100% done.js": `export const label = "loaded";`,
		"notes/plan 100%.md":  "# plan",
		"assets/logo.png":     map[string]string{"base64": pngBase64},
		".git/config":         "[core]",
		"node_modules/x/i.js": "x",
		".env":                "SECRET=1",
	}
}

func evalOK(t *testing.T, tab *chromium.Tab, expr string) {
	t.Helper()
	if _, err := chromium.Eval[bool](tab, loadTimeout, expr); err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
}

func opfsRead(t *testing.T, tab *chromium.Tab, dir, path string) (string, bool) {
	t.Helper()
	v, err := chromium.Eval[*string](tab, loadTimeout, `__opfs.read(`+jsString(dir)+`, `+jsString(path)+`)`)
	if err != nil {
		t.Fatal(err)
	}
	if v == nil {
		return "", false
	}
	return *v, true
}

func mkProject(t *testing.T, tab *chromium.Tab, dir string, files map[string]any) {
	t.Helper()
	raw, _ := json.Marshal(files)
	evalOK(t, tab, `__opfs.mk(`+jsString(dir)+`, `+string(raw)+`)`)
}

// folderStudio opens the studio in an isolated browser context (its own IndexedDB and OPFS)
// and installs the OPFS helpers. Dialogs (the beforeunload guard) are accepted.
func folderStudio(t *testing.T) *chromium.Tab {
	t.Helper()
	tab := chromium.NewRecycledTab(t)
	if err := tab.Do(loadTimeout, chromedp.Navigate(site(t))); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	evalOK(t, tab, opfsJS+`; true`)
	return tab
}

// reloadAccepting reloads the page, accepting the beforeunload dialog when the guard raises
// one (the linked folder has unsaved changes); it reports whether a dialog was shown.
func reloadAccepting(t *testing.T, tab *chromium.Tab) bool {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		done <- tab.Do(loadTimeout, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
			_, err := cdp.Call(ctx, tg, page.Reload, page.ReloadParams{})
			return chromedp.Void{}, err
		})
	}()
	accept := func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, tg, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		return chromedp.Void{}, err
	}
	dialog := false
	deadline := time.Now().Add(4 * time.Second)
	for !dialog && time.Now().Before(deadline) {
		if tab.Do(2*time.Second, accept) == nil {
			dialog = true
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := <-done; err != nil {
		t.Fatalf("reload: %v", err)
	}
	time.Sleep(300 * time.Millisecond)
	waitText(t, tab, "#status-text", "Ready")
	evalOK(t, tab, opfsJS+`; true`)
	return dialog
}

// fclick waits until sel exists and is enabled, then clicks it (again if a re-render replaced
// the node between the lookup and the click).
func fclick(t *testing.T, tab *chromium.Tab, sel string) {
	t.Helper()
	ready := `(() => { const e = document.querySelector(` + jsString(sel) + `); return !!e && !e.disabled; })()`
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if _, err = chromium.WaitFor[bool](tab, loadTimeout, ready); err != nil {
			break
		}
		if err = tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(sel))); err == nil {
			return
		}
		if !strings.Contains(err.Error(), "Could not find node") {
			break
		}
	}
	t.Fatalf("click %s: %v; console %v", sel, err, tab.Console())
}

// openProject injects dir for the picker and clicks Open folder.
func openProject(t *testing.T, tab *chromium.Tab, dir string, files int) {
	t.Helper()
	evalOK(t, tab, `__opfs.inject(`+jsString(dir)+`)`)
	fclick(t, tab, "#folder-open")
	waitContains(t, tab, "#transcript", fmt.Sprintf("Opened %s with %d file(s)", dir, files))
	waitContains(t, tab, "#folder-permission", "granted")
}

// waitEntry waits until n transcript entries contain text (messages repeat: each save says
// "Saved N file(s)").
func waitEntry(t *testing.T, tab *chromium.Tab, text string, n int) {
	t.Helper()
	expr := `[...document.querySelectorAll("#transcript li")].filter(li => li.textContent.includes(` + jsString(text) + `)).length >= ` + fmt.Sprint(n)
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, expr); err != nil {
		got, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#transcript").innerText`)
		t.Fatalf("want %d entries with %q; transcript:\n%s\nconsole: %v", n, text, got, tab.Console())
	}
}

func status(t *testing.T, tab *chromium.Tab) map[string]any {
	t.Helper()
	return directCall(t, tab, "workspace.getStatus", `{}`)
}

// TestFolderOpenEditSave: open a folder (nested paths, spaces and % in names, a module graph,
// an asset) → tree, preview and diagnostics; the skipped entries are listed; an edit typed in
// the editor and saved with Ctrl+S lands in the folder byte for byte; rename + save removes the
// old file and writes the new one; revert + save writes nothing; an external change + Reload
// folder shows in the editor; dirty edits + Open another folder asks, and Cancel keeps all.
func TestFolderOpenEditSave(t *testing.T) {
	t.Parallel()
	tab := folderStudio(t)
	mkProject(t, tab, "proj", projectFiles())
	openProject(t, tab, "proj", 6)
	waitContains(t, tab, "#transcript", "Skipped folders (hidden or node_modules): .git, node_modules")
	waitContains(t, tab, "#transcript", "Skipped 1 item(s)")
	waitContains(t, tab, "#folder-name", "proj")

	st := status(t, tab)
	if st["rootName"] != "proj" || st["fileCount"].(float64) != 6 {
		t.Fatalf("status after open: %v", st)
	}
	list := directCall(t, tab, "workspace.listFiles", `{}`)
	var paths []string
	for _, f := range list["files"].([]any) {
		paths = append(paths, f.(map[string]any)["path"].(string))
	}
	for _, want := range []string{"index.html", "css/main styles.css", "js/app.js", "js/lib/100% done.js", "notes/plan 100%.md", "assets/logo.png"} {
		if !strings.Contains(strings.Join(paths, "|"), want) {
			t.Errorf("listFiles lacks %q: %v", want, paths)
		}
	}
	if strings.Contains(strings.Join(paths, "|"), ".git") || strings.Contains(strings.Join(paths, "|"), "node_modules") || strings.Contains(strings.Join(paths, "|"), ".env") {
		t.Errorf("skipped entries were imported: %v", paths)
	}
	waitContains(t, tab, "#file-list", "main styles.css")
	// Preview: stylesheet with a space, module import with "%" and a space, the PNG asset.
	if got, err := chromium.WaitInFrame(tab, loadTimeout, `getComputedStyle(document.getElementById("t")).color`, "rgb(1, 2, 3)"); err != nil {
		t.Fatalf("h1 colour %q: %v", got, err)
	}
	if got, err := chromium.WaitInFrame(tab, loadTimeout, `document.getElementById("t").dataset.label || ""`, "loaded"); err != nil {
		t.Fatalf("module label %q: %v", got, err)
	}
	if got, err := chromium.WaitInFrame(tab, loadTimeout, `document.getElementById("logo").complete && document.getElementById("logo").naturalWidth`, 1); err != nil {
		t.Fatalf("asset width %v: %v", got, err)
	}
	waitContains(t, tab, "#preview-diagnostics", "missing.css")

	// Edit in the editor, save with Ctrl+S: the folder holds exactly the editor's text.
	directCall(t, tab, "workspace.openFile", `{"path":"css/main styles.css"}`)
	waitText(t, tab, "#editor-path", "css/main styles.css")
	if err := tab.Do(10*time.Second, caretAtEnd, chromedp.KeyEvent("\n/* edited */")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `document.querySelector("#folder-sync") && document.querySelector("#folder-sync").textContent.includes("not yet written to the folder")`); err != nil {
		t.Fatalf("the header does not show unsaved folder changes: %v", err)
	}
	if err := tab.Do(10*time.Second, chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
		t.Fatal(err)
	}
	waitEntry(t, tab, "Saved 1 file(s)", 1)
	editor, _ := chromium.Eval[string](tab, 5*time.Second, `webcodingEditor.getDocument()`)
	if got, _ := opfsRead(t, tab, "proj", "css/main styles.css"); got != editor || !strings.HasSuffix(got, "/* edited */") {
		t.Fatalf("folder bytes %q, editor %q", got, editor)
	}
	waitContains(t, tab, "#folder-sync", "All changes written to the folder")

	// Rename + save: old gone, new present.
	directCall(t, tab, "workspace.renameFile", `{"fromPath":"notes/plan 100%.md","toPath":"notes/Plan 100% final.md"}`)
	fclick(t, tab, "#folder-save")
	waitContains(t, tab, "#transcript", "Saved 1 file(s) and deleted 1 file(s)")
	if _, found := opfsRead(t, tab, "proj", "notes/plan 100%.md"); found {
		t.Error("the renamed-from file is still in the folder")
	}
	if got, _ := opfsRead(t, tab, "proj", "notes/Plan 100% final.md"); got != "# plan" {
		t.Errorf("renamed file holds %q", got)
	}

	// A case-only rename goes through a temporary copy; none is left behind.
	directCall(t, tab, "workspace.renameFile", `{"fromPath":"notes/Plan 100% final.md","toPath":"notes/PLAN 100% FINAL.md"}`)
	fclick(t, tab, "#folder-save")
	waitEntry(t, tab, "Saved 1 file(s) and deleted 1 file(s)", 2)
	if _, found := opfsRead(t, tab, "proj", "notes/Plan 100% final.md"); found {
		t.Error("the old spelling is still in the folder")
	}
	if got, _ := opfsRead(t, tab, "proj", "notes/PLAN 100% FINAL.md"); got != "# plan" {
		t.Errorf("case-renamed file holds %q", got)
	}
	if _, found := opfsRead(t, tab, "proj", "notes/PLAN 100% FINAL.md.webcoding-rename"); found {
		t.Error("the temporary copy is left in the folder")
	}

	// Revert + save: nothing written, the folder keeps its bytes.
	directCall(t, tab, "workspace.writeFile", `{"path":"js/app.js","source":"// scratch"}`)
	directCall(t, tab, "workspace.revertFile", `{"path":"js/app.js"}`)
	fclick(t, tab, "#folder-save")
	waitContains(t, tab, "#transcript", "Saved 0 file(s)")
	if got, _ := opfsRead(t, tab, "proj", "js/app.js"); !strings.Contains(got, "dataset.label") {
		t.Errorf("js/app.js after revert + save: %q", got)
	}

	// External change + Reload folder → the editor shows it.
	evalOK(t, tab, `__opfs.write("proj", "css/main styles.css", "h1 { color: rgb(9, 9, 9); }")`)
	fclick(t, tab, "#folder-reload")
	waitContains(t, tab, "#transcript", "Reloaded the connected folder with 6 file(s)")
	directCall(t, tab, "workspace.openFile", `{"path":"css/main styles.css"}`)
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `webcodingEditor.getDocument() === "h1 { color: rgb(9, 9, 9); }"`); err != nil {
		t.Fatalf("the editor does not show the external change: %v", err)
	}
	if got, err := chromium.WaitInFrame(tab, loadTimeout, `getComputedStyle(document.getElementById("t")).color`, "rgb(9, 9, 9)"); err != nil {
		t.Fatalf("preview colour after reload %q: %v", got, err)
	}

	// Dirty + open another folder → the in-app dialog; Cancel keeps everything.
	mkProject(t, tab, "other", map[string]any{"index.html": "<h1>other</h1>"})
	directCall(t, tab, "workspace.writeFile", `{"path":"js/app.js","source":"// unsaved"}`)
	before := status(t, tab)
	evalOK(t, tab, `__opfs.inject("other")`)
	fclick(t, tab, "#folder-open")
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `document.querySelector("#confirm-dialog").open`); err != nil {
		t.Fatalf("no confirmation dialog: %v", err)
	}
	fclick(t, tab, "#confirm-dialog-cancel")
	waitContains(t, tab, "#transcript", "Open folder cancelled")
	after := status(t, tab)
	if after["rootName"] != "proj" || after["revision"] != before["revision"] || fmt.Sprint(after["dirtyPaths"]) != "[js/app.js]" {
		t.Fatalf("cancel changed the workspace: before %v after %v", before, after)
	}
	// Confirming opens the other folder.
	fclick(t, tab, "#folder-open")
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `document.querySelector("#confirm-dialog").open`); err != nil {
		t.Fatal(err)
	}
	fclick(t, tab, "#confirm-dialog-ok")
	waitContains(t, tab, "#transcript", "Opened other with 1 file(s)")
	noConsoleErrors(t, tab)
}

// TestFolderStaleAndPermission: a root removed behind the studio's back → save fails with
// WORKSPACE_FOLDER_STALE, the link (and the persisted handle) is dropped, "Reconnect folder"
// links a picked folder without replacing the workspace and the next save writes the edit;
// permission prompt/denied (forced by the test hook, OPFS always grants) → save fails with
// WORKSPACE_FOLDER_PERMISSION_DENIED and "Grant folder access" restores it; Disconnect keeps
// the workspace; the empty folder is refused without touching it.
func TestFolderStaleAndPermission(t *testing.T) {
	t.Parallel()
	tab := folderStudio(t)
	mkProject(t, tab, "proj", map[string]any{"index.html": "<h1>a</h1>", "style.css": "h1{}"})
	openProject(t, tab, "proj", 2)

	directCall(t, tab, "workspace.writeFile", `{"path":"style.css","source":"h1{color:red}"}`)
	evalOK(t, tab, `__opfs.rm("proj")`)
	fclick(t, tab, "#folder-save")
	waitContains(t, tab, "#transcript", "[WORKSPACE_FOLDER_STALE]")
	if st := status(t, tab); st["filesystem"].(map[string]any)["folderLinked"] != false {
		t.Fatalf("a stale folder stays linked: %v", st["filesystem"])
	}
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `!document.querySelector("#folder-save")`); err != nil {
		t.Fatal("Save to folder is still offered after the folder went stale")
	}
	// Recreate the folder (with the old bytes) and reconnect through the chat action.
	mkProject(t, tab, "proj", map[string]any{"index.html": "<h1>a</h1>", "style.css": "h1{}"})
	evalOK(t, tab, `__opfs.inject("proj")`)
	fclick(t, tab, `#transcript button[data-action="folder-reconnect"]`)
	waitContains(t, tab, "#transcript", "Reconnected the folder proj")
	if got := status(t, tab); fmt.Sprint(got["dirtyPaths"]) != "[style.css]" {
		t.Fatalf("dirty after reconnect: %v", got["dirtyPaths"])
	}
	fclick(t, tab, "#folder-save")
	waitEntry(t, tab, "Saved 1 file(s)", 1)
	if got, _ := opfsRead(t, tab, "proj", "style.css"); got != "h1{color:red}" {
		t.Fatalf("after reconnect + save the folder holds %q", got)
	}

	// Permission prompt → denied save → Grant folder access (first refused, then granted).
	evalOK(t, tab, `(webcodingFolderTest.permission("prompt"), webcodingFolderTest.requestResult("denied"), true)`)
	directCall(t, tab, "workspace.writeFile", `{"path":"style.css","source":"h1{color:blue}"}`)
	fclick(t, tab, "#folder-save")
	waitContains(t, tab, "#transcript", "[WORKSPACE_FOLDER_PERMISSION_DENIED]")
	waitContains(t, tab, "#folder-permission", "prompt")
	fclick(t, tab, "#folder-grant")
	waitContains(t, tab, "#transcript", "Grant folder access: [WORKSPACE_FOLDER_PERMISSION_DENIED]")
	evalOK(t, tab, `(webcodingFolderTest.requestResult("granted"), true)`)
	fclick(t, tab, "#folder-grant")
	waitEntry(t, tab, "Write access restored for the connected folder.", 1)
	waitContains(t, tab, "#folder-permission", "granted")
	if got, _ := chromium.Eval[string](tab, 5*time.Second, `(async () => (await webcodingHandle(JSON.stringify({jsonrpc:"2.0",id:1,method:"tools/call",params:{name:"workspace.readFile",arguments:{path:"style.css"}}}))))()`); !strings.Contains(got, `h1{color:blue}`) {
		t.Fatalf("grant replaced the workspace: %s", got)
	}
	fclick(t, tab, "#folder-save")
	waitEntry(t, tab, "Saved 1 file(s)", 2)
	if got, _ := opfsRead(t, tab, "proj", "style.css"); got != "h1{color:blue}" {
		t.Fatalf("after grant + save the folder holds %q", got)
	}

	// An empty folder is refused; the workspace and its link stay.
	mkProject(t, tab, "empty", map[string]any{".hidden": "x"})
	evalOK(t, tab, `__opfs.inject("empty")`)
	if err := tab.Do(10*time.Second, chromedp.KeyEvent("o", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil { // Ctrl+O
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "[WORKSPACE_NO_SUPPORTED_FILES]")
	waitContains(t, tab, "#transcript", "Skipped: .hidden (hidden)") // named, not only counted
	if st := status(t, tab); st["rootName"] != "proj" || st["filesystem"].(map[string]any)["folderLinked"] != true {
		t.Fatalf("a refused import touched the workspace: %v", st)
	}

	// Disconnect keeps the workspace and forgets the link.
	fclick(t, tab, "#folder-disconnect")
	waitContains(t, tab, "#transcript", "Disconnected the folder")
	st := status(t, tab)
	if st["rootName"] != "proj" || st["filesystem"].(map[string]any)["permission"] != "disconnected" {
		t.Fatalf("after disconnect: %v", st)
	}
	reloadAccepting(t, tab)
	time.Sleep(500 * time.Millisecond)
	if st := status(t, tab); st["filesystem"].(map[string]any)["folderLinked"] != false {
		t.Fatalf("a disconnected folder came back after a reload: %v", st["filesystem"])
	}
}

// TestFolderReloadReconnects: a page reload with a persisted handle reconnects (granted) and
// keeps unsaved edits dirty; with permission "prompt" at load the header offers Grant folder
// access, which links without replacing the workspace. The beforeunload guard asks only while
// linked-folder changes are unsaved.
func TestFolderReloadReconnects(t *testing.T) {
	t.Parallel()
	tab := folderStudio(t)
	mkProject(t, tab, "proj", map[string]any{"index.html": "<h1>a</h1>", "style.css": "h1{}"})
	openProject(t, tab, "proj", 2)
	// session/configure builds a new session: the persisted folder is linked to it again.
	rpc(t, tab, `{"jsonrpc":"2.0","id":1,"method":"session/configure","params":{}}`)
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `webcodingHandle(JSON.stringify({jsonrpc:"2.0",id:2,method:"tools/call",params:{name:"workspace.getStatus",arguments:{}}})).then(r => JSON.parse(r).result.structuredContent.filesystem.folderLinked)`); err != nil {
		t.Fatalf("the folder is not linked after session/configure: %v", err)
	}
	directCall(t, tab, "workspace.writeFile", `{"path":"style.css","source":"h1{color:green}"}`)
	waitContains(t, tab, "#folder-sync", "not yet written")
	if !reloadAccepting(t, tab) {
		t.Error("no beforeunload prompt although the linked folder has unsaved changes")
	}
	waitContains(t, tab, "#transcript", "Reconnected the folder proj")
	waitContains(t, tab, "#folder-permission", "granted")
	if st := status(t, tab); fmt.Sprint(st["dirtyPaths"]) != "[style.css]" {
		t.Fatalf("dirty after reload: %v", st["dirtyPaths"])
	}
	// Reload with permission "prompt" from load on.
	evalOK(t, tab, `(sessionStorage.setItem("webcodingFolderTest.permission", "prompt"), true)`)
	reloadAccepting(t, tab)
	evalOK(t, tab, `(sessionStorage.removeItem("webcodingFolderTest.permission"), true)`)
	waitContains(t, tab, "#folder-permission", "prompt")
	fclick(t, tab, "#folder-grant")
	waitContains(t, tab, "#transcript", "Write access restored for the connected folder.")
	if st := status(t, tab); fmt.Sprint(st["dirtyPaths"]) != "[style.css]" {
		t.Fatalf("dirty after grant: %v", st["dirtyPaths"])
	}
	fclick(t, tab, "#folder-save")
	waitContains(t, tab, "#transcript", "Saved 1 file(s)")
	if got, _ := opfsRead(t, tab, "proj", "style.css"); got != "h1{color:green}" {
		t.Fatalf("folder holds %q", got)
	}
	// Saved: no beforeunload prompt now.
	guard, _ := chromium.Eval[bool](tab, 5*time.Second, `(() => { const e = new Event("beforeunload", {cancelable: true}); window.dispatchEvent(e); return e.defaultPrevented; })()`)
	if guard {
		t.Error("beforeunload guard active although everything is written")
	}
	directCall(t, tab, "workspace.writeFile", `{"path":"style.css","source":"h1{color:olive}"}`)
	waitContains(t, tab, "#folder-sync", "not yet written")
	guard, _ = chromium.Eval[bool](tab, 5*time.Second, `(() => { const e = new Event("beforeunload", {cancelable: true}); window.dispatchEvent(e); return e.defaultPrevented; })()`)
	if !guard {
		t.Error("beforeunload guard inactive with unsaved linked-folder changes")
	}
	// The agent saves through the same tool, after approval.
	sendPrompt(t, tab, "Save the changes")
	waitApproval(t, tab, "workspace.saveAll")
	fclick(t, tab, "#approve-0")
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `__opfs.read("proj", "style.css").then(s => s === "h1{color:olive}")`); err != nil {
		t.Fatalf("the approved agent save did not reach the folder: %v", err)
	}
	waitContains(t, tab, "#folder-sync", "All changes written to the folder")

	// A persisted folder that vanished: the reload reports it stale once and forgets it.
	evalOK(t, tab, `__opfs.rm("proj")`)
	reloadAccepting(t, tab)
	waitContains(t, tab, "#transcript", "[WORKSPACE_FOLDER_STALE]")
	waitContains(t, tab, "#transcript", "Reconnect folder")
	reloadAccepting(t, tab)
	time.Sleep(time.Second)
	if got, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#transcript").textContent`); strings.Contains(got, "WORKSPACE_FOLDER_STALE") {
		t.Fatalf("the stale link was not forgotten: %s", got)
	}
	// Forgotten: either the last folder's name with its "disconnected" badge, or (no folder
	// left to name) no badge at all — never a badge for a folder that is not there.
	waitTrue(t, tab, "forgotten folder", `(() => { const p = document.querySelector("#folder-permission"); return p ? p.textContent === "disconnected" && !!document.querySelector("#folder-name") : !document.querySelector("#folder-name"); })()`)
}

// opRecordsJS lists the durable records of the page's IndexedDB "web-coding-operations":
// [{key, state, reconciledBy}].
const opRecordsJS = `new Promise((resolve, reject) => {
  const r = indexedDB.open("web-coding-operations");
  r.onerror = () => reject(r.error);
  r.onsuccess = () => {
    const q = r.result.transaction("operations").objectStore("operations").getAll();
    q.onerror = () => reject(q.error);
    q.onsuccess = () => { resolve(q.result.map(v => JSON.parse(v.record)).map(x => ({key: x.key, state: x.state, reconciledBy: x.reconciledBy || ""}))); r.result.close(); };
  };
})`

type opRecord struct {
	Key, State, ReconciledBy string
}

func saveRecords(t *testing.T, tab *chromium.Tab, suffix string) []opRecord {
	t.Helper()
	recs, err := chromium.Eval[[]opRecord](tab, loadTimeout, opRecordsJS)
	if err != nil {
		t.Fatal(err)
	}
	var out []opRecord
	for _, r := range recs {
		if strings.HasPrefix(r.Key, "workspace.saveAll:") && strings.HasSuffix(r.Key, suffix) {
			out = append(out, r)
		}
	}
	// In revision order (keys sort as text: "12" < "6").
	rev := func(k string) int {
		parts := strings.Split(strings.TrimSuffix(k, suffix), ":")
		n, _ := strconv.Atoi(parts[len(parts)-1])
		return n
	}
	sort.Slice(out, func(i, j int) bool { return rev(out[i].Key) < rev(out[j].Key) })
	return out
}

func writeLog(t *testing.T, tab *chromium.Tab) []string {
	t.Helper()
	l, err := chromium.Eval[[]string](tab, 5*time.Second, `webcodingFolderTest.log`)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func countOf(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

// TestFolderCrashMidSave: a save that fails after k of n writes (before and after the bytes
// landed) and a page reload while a write hangs: no edit is lost, files already written are
// never written again on the retry, and the interrupted file is reconciled by its SHA-256
// (the durable records in IndexedDB end completed or failed-by-reconciliation).
func TestFolderCrashMidSave(t *testing.T) {
	t.Parallel()
	tab := folderStudio(t)
	mkProject(t, tab, "proj", map[string]any{"index.html": `<link rel="stylesheet" href="a.css"><h1>x</h1>`, "a.css": "a{}", "b.css": "b{}", "c.css": "c{}"})
	openProject(t, tab, "proj", 4)
	edit := func(tag string) {
		for _, f := range []string{"a", "b", "c"} {
			directCall(t, tab, "workspace.writeFile", `{"path":"`+f+`.css","source":"`+f+`{}/*`+tag+`*/"}`)
		}
	}
	folderHas := func(tag string, files ...string) {
		t.Helper()
		for _, f := range files {
			if got, _ := opfsRead(t, tab, "proj", f+".css"); got != f+"{}/*"+tag+"*/" {
				t.Fatalf("%s.css in the folder: %q, want tag %s", f, got, tag)
			}
		}
	}

	// 1. The second write fails before any byte is written.
	edit("one")
	evalOK(t, tab, `(webcodingFolderTest.failAfter(1, "throw-before"), true)`)
	fclick(t, tab, "#folder-save")
	waitEntry(t, tab, "[WORKSPACE_SIDE_EFFECT_UNKNOWN]", 1)
	// Its recovery action says what it does (reads the folder back): Reconcile, not Reconnect.
	if ok, _ := chromium.Eval[bool](tab, 5*time.Second, `[...document.querySelectorAll("#transcript li")].filter(li => li.textContent.includes("[WORKSPACE_SIDE_EFFECT_UNKNOWN]")).every(li => li.textContent.includes("Reconcile folder") && !li.textContent.includes("Reconnect folder"))`); !ok {
		t.Error("WORKSPACE_SIDE_EFFECT_UNKNOWN does not offer 'Reconcile folder'")
	}
	waitContains(t, tab, "#transcript", "Folder save completed 1 item(s): a.css")
	waitContains(t, tab, "#folder-sync", "Save interrupted")
	if got, _ := opfsRead(t, tab, "proj", "b.css"); got != "b{}" {
		t.Fatalf("b.css after the failed write: %q", got)
	}
	fclick(t, tab, "#folder-save")
	waitEntry(t, tab, "Saved 2 file(s)", 1)
	folderHas("one", "a", "b", "c")
	if l := writeLog(t, tab); countOf(l, "write:a.css") != 1 || countOf(l, "write:b.css") != 1 || countOf(l, "write:c.css") != 1 {
		t.Fatalf("writes %v: each file must be written exactly once", l)
	}

	// 2. The first write lands, then reports an error: reconciled as completed, not rewritten.
	edit("two")
	evalOK(t, tab, `(webcodingFolderTest.failAfter(0, "throw-after"), true)`)
	fclick(t, tab, "#folder-save")
	waitEntry(t, tab, "[WORKSPACE_SIDE_EFFECT_UNKNOWN]", 2)
	fclick(t, tab, "#folder-save")
	waitEntry(t, tab, "Saved 2 file(s)", 2)
	folderHas("two", "a", "b", "c")
	if l := writeLog(t, tab); countOf(l, "write:a.css") != 2 {
		t.Fatalf("writes %v: a.css must be written once per save", l)
	}
	if recs := saveRecords(t, tab, ":write:a.css"); len(recs) != 2 || recs[0].State != "completed" || recs[1].State != "completed" {
		t.Fatalf("a.css records %+v", recs)
	}

	// 3. A page reload while the second write hangs.
	edit("three")
	evalOK(t, tab, `(webcodingFolderTest.failAfter(1, "hang"), true)`)
	fclick(t, tab, "#folder-save")
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `webcodingFolderTest.log.filter(x => x === "write:a.css").length === 3`); err != nil {
		t.Fatalf("the first write did not happen: %v", err)
	}
	time.Sleep(300 * time.Millisecond) // b.css is claimed and hanging
	if pend := saveRecords(t, tab, ":write:b.css"); len(pend) != 3 || pend[2].State != "pending" {
		t.Fatalf("b.css records before the reload: %+v", pend)
	}
	if !reloadAccepting(t, tab) {
		t.Error("no beforeunload prompt in the middle of a save")
	}
	waitContains(t, tab, "#transcript", "Reconnected the folder proj; 2 file(s) differ")
	st := status(t, tab)
	if fmt.Sprint(st["dirtyPaths"]) != "[b.css c.css]" {
		t.Fatalf("dirty after the reload: %v (no edit may be lost)", st["dirtyPaths"])
	}
	recs := saveRecords(t, tab, ":write:b.css")
	if len(recs) != 3 || recs[2].State != "failed" || recs[2].ReconciledBy == "" {
		t.Fatalf("the interrupted b.css record was not reconciled: %+v", recs)
	}
	fclick(t, tab, "#folder-save")
	waitEntry(t, tab, "Saved 2 file(s)", 1)
	folderHas("three", "a", "b", "c")
	if l := writeLog(t, tab); countOf(l, "write:a.css") != 0 || countOf(l, "write:b.css") != 1 || countOf(l, "write:c.css") != 1 {
		t.Fatalf("writes after the reload %v: a.css was already written", l)
	}
}

// TestFolderUploadFallback: without showDirectoryPicker the header offers "Choose workspace
// folder" (<input webkitdirectory>); a real directory set on it through CDP
// (DOM.setFileInputFiles) replaces the workspace, with the skipped entries listed, unlinked.
func TestFolderUploadFallback(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "upsite")
	for p, c := range map[string]string{"index.html": `<link rel="stylesheet" href="css/a%20b.css"><h1 id="t">up</h1>`,
		"css/a b.css": "h1 { color: rgb(4, 5, 6); }", ".hidden/x.txt": "x", "notes/100%.md": "# n", "node_modules/dep/i.js": "x"} {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tab := folderStudio(t)
	evalOK(t, tab, `(webcodingFolderTest.noPicker(true), true)`)
	directCall(t, tab, "workspace.getStatus", `{}`) // re-render the header
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `!!document.querySelector('input#folder-upload[webkitdirectory]') && !document.querySelector("#folder-open")`); err != nil {
		t.Fatalf("no upload fallback: %v", err)
	}
	if err := tab.Do(10*time.Second, chromedp.SetUploadFiles(chromedp.CSS("#folder-upload"), []string{root})); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "Opened upsite with 3 file(s)")
	// The fallback's file list names the folders it left out, as the picker's walk does.
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `[...document.querySelectorAll("#transcript li")].some(li => li.textContent.includes("Skipped folders (hidden or node_modules): ") && li.textContent.includes(".hidden") && li.textContent.includes("node_modules"))`); err != nil {
		t.Fatalf("the upload fallback does not list the skipped folders: %v", err)
	}
	st := status(t, tab)
	if st["rootName"] != "upsite" || st["filesystem"].(map[string]any)["folderLinked"] != false {
		t.Fatalf("after upload: %v", st)
	}
	rd := directCall(t, tab, "workspace.readFile", `{"path":"notes/100%.md"}`)
	if rd["source"] != "# n" {
		t.Fatalf("notes/100%%.md: %v", rd["source"])
	}
	if got, err := chromium.WaitInFrame(tab, loadTimeout, `getComputedStyle(document.getElementById("t")).color`, "rgb(4, 5, 6)"); err != nil {
		t.Fatalf("preview colour %q: %v", got, err)
	}
	// No folder linked: Save is the browser-only checkpoint (workspace.saveCheckpoint).
	directCall(t, tab, "workspace.writeFile", `{"path":"notes/100%.md","source":"# edited"}`)
	if st := status(t, tab); fmt.Sprint(st["dirtyPaths"]) != "[notes/100%.md]" {
		t.Fatalf("dirty: %v", st["dirtyPaths"])
	}
	fclick(t, tab, ".editor-save")
	waitContains(t, tab, "#transcript", "Saved 1 file(s) in this browser")
	if st := status(t, tab); fmt.Sprint(st["dirtyPaths"]) != "[]" {
		t.Fatalf("dirty after the browser-only save: %v", st["dirtyPaths"])
	}
	noConsoleErrors(t, tab)
}

// BenchmarkFolderSave measures Save to folder of 20 edited 2 KB text files into an OPFS
// folder through the durable runner (IndexedDB records per file: claim, plan record,
// complete) — one op is one whole save; ms/file is reported too.
func BenchmarkFolderSave(b *testing.B) {
	const n = 20
	tab := chromium.NewIsolatedTab(b)
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	must(tab.Do(loadTimeout, chromedp.Navigate(site(b))))
	_, err := chromium.WaitFor[bool](tab, loadTimeout, `document.querySelector("#status-text") && document.querySelector("#status-text").textContent === "Ready"`)
	must(err)
	files := map[string]any{"index.html": "<h1>bench</h1>"}
	for i := 0; i < n; i++ {
		files[fmt.Sprintf("src/f%02d.js", i)] = strings.Repeat("//", 1024)
	}
	raw, _ := json.Marshal(files)
	_, err = chromium.Eval[bool](tab, loadTimeout, opfsJS+`; __opfs.mk("bench", `+string(raw)+`).then(() => __opfs.inject("bench"))`)
	must(err)
	must(tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#folder-open"))))
	_, err = chromium.WaitFor[bool](tab, loadTimeout, `document.querySelector("#transcript").textContent.includes("Opened bench with 21 file(s)")`)
	must(err)
	edit := `(async (tag) => { for (let i = 0; i < ` + fmt.Sprint(n) + `; i++) { const p = "src/f" + String(i).padStart(2, "0") + ".js";
	  await webcodingHandle(JSON.stringify({jsonrpc: "2.0", id: i, method: "tools/call", params: {name: "workspace.writeFile", arguments: {path: p, source: "// " + tag + "\n" + "//".repeat(1024)}, _meta: {source: "local", mode: "direct"}}})); } return true; })`
	saved := func(k int) string {
		return `[...document.querySelectorAll("#transcript li")].filter(li => li.textContent.includes("Saved ` + fmt.Sprint(n) + ` file(s)")).length >= ` + fmt.Sprint(k)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		_, err := chromium.Eval[bool](tab, loadTimeout, edit+`("`+fmt.Sprint(i)+`")`)
		must(err)
		b.StartTimer()
		must(tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#folder-save"))))
		_, err = chromium.WaitFor[bool](tab, loadTimeout, saved(i+1))
		must(err)
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/n, "ms/file")
}

// TestFolderLostKeepsEdits: the linked root vanishes with an unsaved edit → Save fails with
// WORKSPACE_FOLDER_STALE; a second Ctrl+S does NOT fall back to the browser-only save (it says
// the folder is lost and offers Reconnect folder / Save in browser only / Download ZIP) and
// the edit stays dirty; the header keeps the folder's name with Reconnect folder, also after a
// page reload (the name is persisted, not the handle); "Save in browser only" saves in the
// browser but Open folder still asks before replacing the workspace (Cancel keeps it);
// Reconnect folder links a picked folder to the current workspace and the edit is saved to it.
func TestFolderLostKeepsEdits(t *testing.T) {
	t.Parallel()
	tab := folderStudio(t)
	mkProject(t, tab, "proj", map[string]any{"index.html": "<h1>a</h1>", "style.css": "h1{}", "old/deep/a.css": "p{}"})
	openProject(t, tab, "proj", 3)
	directCall(t, tab, "workspace.writeFile", `{"path":"style.css","source":"h1{color:red}"}`)
	evalOK(t, tab, `__opfs.rm("proj")`)
	fclick(t, tab, "#folder-save")
	waitContains(t, tab, "#transcript", "[WORKSPACE_FOLDER_STALE]")
	waitContains(t, tab, "#folder-name", "proj")
	if err := tab.Do(10*time.Second, chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil { // Ctrl+S
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "Not saved: the folder proj was lost")
	tr := func() string {
		s, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#transcript").textContent`)
		return s
	}
	if strings.Contains(tr(), "no folder linked") {
		t.Fatal("Ctrl+S after a lost folder silently ran the browser-only save")
	}
	if st := status(t, tab); fmt.Sprint(st["dirtyPaths"]) != "[style.css]" {
		t.Fatalf("dirty after the refused Ctrl+S: %v", st["dirtyPaths"])
	}
	for _, label := range []string{"Reconnect folder", "Save in browser only", "Download ZIP"} {
		waitContains(t, tab, "#transcript", label)
	}
	// After a reload the header still names the lost folder and offers Reconnect folder.
	reloadAccepting(t, tab)
	waitContains(t, tab, "#folder-name", "proj")
	waitContains(t, tab, "#folder-sync", "Folder lost")
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `!!document.querySelector("#folder-reconnect")`); err != nil {
		t.Fatal("no Reconnect folder button after the reload")
	}
	// Save in browser only: saved in the browser, but still lost.
	if err := tab.Do(10*time.Second, chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
		t.Fatal(err)
	}
	waitEntry(t, tab, "Not saved: the folder proj was lost", 1)
	fclick(t, tab, `#transcript button[data-action="folder-save-browser"]`)
	waitContains(t, tab, "#transcript", "the folder proj is still lost")
	// Open folder asks although the browser save marked the edit saved; Cancel keeps all.
	fclick(t, tab, "#folder-open") // the dialog comes before the picker: nothing injected
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `document.querySelector("#confirm-dialog").open`); err != nil {
		t.Fatalf("Open folder replaced a lost folder's workspace without asking: %v", err)
	}
	fclick(t, tab, "#confirm-dialog-cancel")
	waitContains(t, tab, "#transcript", "Open folder cancelled")
	if got := trReadSource(t, tab, "style.css"); got != "h1{color:red}" {
		t.Fatalf("style.css after cancel: %q", got)
	}
	// Reconnect: a picked folder is linked to the current workspace (not replacing it).
	mkProject(t, tab, "proj", map[string]any{"index.html": "<h1>a</h1>", "style.css": "h1{}", "old/deep/a.css": "p{}"})
	evalOK(t, tab, `__opfs.inject("proj")`)
	fclick(t, tab, "#folder-reconnect")
	waitContains(t, tab, "#transcript", "Reconnected the folder proj")
	waitContains(t, tab, "#folder-permission", "granted")
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, `!document.querySelector("#folder-reconnect")`); err != nil {
		t.Fatal("Reconnect folder still offered after reconnecting")
	}
	fclick(t, tab, "#folder-save")
	waitEntry(t, tab, "Saved 1 file(s)", 1)
	if got, _ := opfsRead(t, tab, "proj", "style.css"); got != "h1{color:red}" {
		t.Fatalf("after reconnect + save the folder holds %q", got)
	}
	// A rename out of a folder: the save removes the emptied old folders, never the root.
	directCall(t, tab, "workspace.renameFile", `{"fromPath":"old/deep/a.css","toPath":"css/a.css"}`)
	fclick(t, tab, "#folder-save")
	waitContains(t, tab, "#transcript", "and deleted 1 file(s)")
	gone, err := chromium.Eval[bool](tab, 10*time.Second, `(async () => { const p = await (await navigator.storage.getDirectory()).getDirectoryHandle("proj"); try { await p.getDirectoryHandle("old"); return false; } catch (e) { return e.name === "NotFoundError"; } })()`)
	if err != nil || !gone {
		t.Errorf("the emptied folder old/ stays in the folder after the rename save (%v)", err)
	}
	if got, _ := opfsRead(t, tab, "proj", "css/a.css"); got != "p{}" {
		t.Errorf("css/a.css holds %q", got)
	}
	reloadAccepting(t, tab)
	time.Sleep(500 * time.Millisecond)
	if ok, _ := chromium.Eval[bool](tab, 5*time.Second, `!document.querySelector("#folder-reconnect")`); !ok {
		t.Error("the lost folder came back after a reload although it was reconnected")
	}
}

// TestDraftOfVanishedFileIsRescued: text typed in index.html whose file is renamed before the
// debounced draft write lands (a direct call that bypasses the page's tool path) is not
// dropped: the chat shows it with its full text and "Save as new file", which creates a file
// holding the typed text.
func TestDraftOfVanishedFileIsRescued(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	openInEditor(t, tab, "index.html")
	const typed = "TYPED-RESCUE-4711"
	if err := tab.Do(10*time.Second, caretAtEnd, insertText(typed)); err != nil {
		t.Fatal(err)
	}
	// Right away (the draft write waits for the typing pause), rename the file behind the
	// editor's back through the raw handle (not the page's a.tool, which would flush first).
	directCall(t, tab, "workspace.renameFile", `{"fromPath":"index.html","toPath":"Index.html"}`)
	waitContains(t, tab, "#transcript", "could not be written: the file was renamed or deleted meanwhile")
	waitContains(t, tab, "#transcript", typed)
	fclick(t, tab, `#transcript button[data-action="draft-save-new"]`)
	waitContains(t, tab, "#transcript", "Saved the rescued text as ")
	found := false
	for _, p := range []string{"index.html", "index (recovered).html"} {
		resp := rpc(t, tab, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace.readFile","arguments":{"path":`+jsString(p)+`},"_meta":{"source":"local","mode":"direct"}}}`)
		if b, _ := json.Marshal(resp); strings.Contains(string(b), typed) {
			found = true
		}
	}
	if !found {
		t.Fatal("no workspace file holds the rescued text")
	}
}

// TestFolderSaveShowsProgress: while a save runs (here the second of three writes hangs), the
// header says "Saving… (1 of 3)" — true progress, not "changes not yet written" — and the
// folder buttons are disabled.
func TestFolderSaveShowsProgress(t *testing.T) {
	t.Parallel()
	tab := folderStudio(t)
	mkProject(t, tab, "proj", map[string]any{"index.html": "<h1>a</h1>", "a.css": "a{}", "b.css": "b{}"})
	openProject(t, tab, "proj", 3)
	directCall(t, tab, "workspace.writeFile", `{"path":"a.css","source":"a{color:red}"}`)
	directCall(t, tab, "workspace.writeFile", `{"path":"b.css","source":"b{color:red}"}`)
	directCall(t, tab, "workspace.writeFile", `{"path":"index.html","source":"<h1>b</h1>"}`)
	evalOK(t, tab, `(webcodingFolderTest.failAfter(1, "hang"), true)`)
	fclick(t, tab, "#folder-save")
	waitContains(t, tab, "#folder-sync", "Saving… (1 of 3)")
	if ok, _ := chromium.Eval[bool](tab, 5*time.Second, `[...document.querySelectorAll("#folder-actions button")].every(b => b.disabled)`); !ok {
		t.Error("folder buttons enabled while the save runs")
	}
}
