package browser

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// folderKillHook instruments every persistence step of a folder save (Save to folder →
// workspace.saveAll with the IndexedDB durable records of wasm/studio/folder_save.go and the
// File System Access writes of site/js/folder.js). While window.__killArmed is true each step
// is appended to window.__saveEvents; the step named by window.__killStep hangs the page
// (hangJS) right after it happened:
//
//   - "pending plan", "completed plan": the save's plan record (pre-save hashes) stored;
//   - "pending <op> <path>": an item's claim stored (its folder operation not started);
//   - "bytes <name>": the new bytes are in the writable stream, the stream not closed (the
//     folder still shows the old file);
//   - "closed <name>": the stream closed (the new bytes are in the folder), the record still
//     pending;
//   - "removed <name>": the file removed from the folder, the record still pending;
//   - "completed <op> <path>": an item's record completed;
//   - "meta <n>": the n-th workspace metadata write of the save (after a delete: the pending
//     deletion cleared; the last one: everything marked saved), before the result reaches the
//     page (so before the header and the transcript change).
//
// IndexedDB steps hang on the transaction's complete event (the record is stored, the core has
// not seen it). Names are file names (the hook sees handles, not paths).
const folderKillHook = `(() => {
  ` + hangJS + `
  window.__saveEvents = [];
  const at = (ev) => {
    if (!window.__killArmed) return false;
    window.__saveEvents.push(ev);
    return ev === window.__killStep;
  };
  const put = IDBObjectStore.prototype.put;
  let metas = 0;
  IDBObjectStore.prototype.put = function (value, key) {
    const r = put.apply(this, arguments);
    let ev = "";
    if (this.name === "operations" && value && typeof value.record === "string") {
      const rec = JSON.parse(value.record);
      const item = /^workspace\.saveAll:folder:[^:]+:\d+:(write|delete):(.+)$/.exec(rec.key);
      if (rec.key.startsWith("workspace.saveAll.plan:")) ev = rec.state + " plan";
      else if (item) ev = rec.state + " " + item[1] + " " + item[2];
    } else if (this.name === "workspaces" && key === "current" && window.__killArmed) {
      ev = "meta " + (++metas);
    }
    if (ev && at(ev)) this.transaction.addEventListener("complete", () => hang(ev));
    return r;
  };
  const createWritable = FileSystemFileHandle.prototype.createWritable;
  FileSystemFileHandle.prototype.createWritable = async function (...args) {
    const w = await createWritable.apply(this, args);
    w.__name = this.name;
    return w;
  };
  const close = FileSystemWritableFileStream.prototype.close;
  FileSystemWritableFileStream.prototype.close = async function () {
    if (this.__name && at("bytes " + this.__name)) hang("bytes " + this.__name);
    const r = await close.call(this);
    if (this.__name && at("closed " + this.__name)) hang("closed " + this.__name);
    return r;
  };
  const removeEntry = FileSystemDirectoryHandle.prototype.removeEntry;
  FileSystemDirectoryHandle.prototype.removeEntry = async function (name, opts) {
    const r = await removeEntry.call(this, name, opts);
    if (at("removed " + name)) hang("removed " + name);
    return r;
  };
})();`

// The project of the folder fault test and the confirmed edits made before the save: two
// files rewritten, one deleted.
var (
	faultFolder = map[string]any{"index.html": `<link rel="stylesheet" href="a.css"><h1>x</h1>`, "a.css": "a{}", "b.css": "b{}", "old.css": "o{}"}
	faultEdits  = map[string]string{"index.html": `<link rel="stylesheet" href="a.css"><h1>x</h1>`, "a.css": "a{}/*confirmed*/", "b.css": "b{}/*confirmed*/"}
)

// folderSaveSteps is every persistence step of saving faultEdits, in the order the save takes
// them (TestFolderSaveFaultInjection checks the order against a save that runs through).
var folderSaveSteps = []string{
	"pending plan", "completed plan",
	"pending write a.css", "bytes a.css", "closed a.css", "completed write a.css",
	"pending write b.css", "bytes b.css", "closed b.css", "completed write b.css",
	"pending delete old.css", "removed old.css", "completed delete old.css",
	"meta 1", "meta 2",
}

// faultFolderTab opens the studio in tab (the fault hook installed), links the OPFS folder
// "proj" holding faultFolder, makes the confirmed edits and arms the hook at step ("" only
// records the steps).
func faultFolderTab(t *testing.T, tab *chromium.Tab, step string) {
	t.Helper()
	if err := tab.Do(loadTimeout, onNewDocument(folderKillHook), chromedp.Navigate(site(t))); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	evalOK(t, tab, opfsJS+`; true`)
	mkProject(t, tab, "proj", faultFolder)
	openProject(t, tab, "proj", len(faultFolder))
	for _, p := range []string{"a.css", "b.css"} {
		directCall(t, tab, "workspace.writeFile", `{"path":"`+p+`","source":`+jsString(faultEdits[p])+`}`)
	}
	directCall(t, tab, "workspace.deleteFile", `{"path":"old.css"}`)
	waitContains(t, tab, "#folder-sync", "3 change(s) saved in browser, not yet written to the folder")
	evalOK(t, tab, `(window.__killStep = `+jsString(step)+`, window.__killArmed = true)`)
}

// folderDiff lists the paths where the folder "proj" differs from the workspace: a file with
// other bytes, missing on one side, or any other file in the folder (a temporary file left by
// an interrupted write).
func folderDiff(t *testing.T, tab *chromium.Tab, ws map[string]string) []string {
	t.Helper()
	names, err := chromium.Eval[[]string](tab, loadTimeout, `__opfs.list("proj")`)
	if err != nil {
		t.Fatal(err)
	}
	for p := range ws {
		if !slices.Contains(names, p) {
			names = append(names, p)
		}
	}
	slices.Sort(names)
	var diff []string
	for _, p := range names {
		got, ok := opfsRead(t, tab, "proj", p)
		want, inWS := ws[p]
		if ok != inWS || got != want {
			diff = append(diff, p)
		}
	}
	return diff
}

// TestFolderSaveFaultInjection (issue 14, fault injection): a tab is killed (renderer crash)
// in the middle of every persistence step of a folder save (folderSaveSteps: two writes and a
// delete, with their durable records and the workspace metadata). A new tab on the same
// profile then must:
//
//  1. keep every confirmed edit (both rewritten files, the deletion);
//  2. never call the folder clean ("All changes written to the folder", or a path missing from
//     dirtyPaths/deletedPaths) while its bytes (OPFS) differ from the workspace;
//  3. surface what the interrupted save left undone, and converge with one Save to folder:
//     the header says "All changes written to the folder" and the folder equals the workspace.
//
// The first subtest runs the save through with the hook only recording, and checks that the
// steps and their order are exactly folderSaveSteps (a new persistence step fails it until it
// is added to the table).
func TestFolderSaveFaultInjection(t *testing.T) {
	// Not t.Parallel: its parallel subtests (each in a browser context of its own, so the kills
	// touch no other tab) then run before the suite's parallel tests, four at a time, instead
	// of queueing behind them when go test reaches this test — measured, they started 251 s
	// into a 401 s run and were all that was left for its last 50 s (docs/performance.md
	// "Recycled tabs").
	t.Run("steps", func(t *testing.T) {
		t.Parallel()
		tab := chromium.NewRecycledTab(t)
		faultFolderTab(t, tab, "")
		fclick(t, tab, "#folder-save")
		waitEntry(t, tab, "Saved 2 file(s) and deleted 1 file(s)", 1)
		waitContains(t, tab, "#folder-sync", "All changes written to the folder")
		got, err := chromium.Eval[[]string](tab, 5*time.Second, `window.__saveEvents`)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, folderSaveSteps) {
			t.Fatalf("the save's persistence steps changed:\n got %q\nwant %q", got, folderSaveSteps)
		}
	})
	for _, step := range folderSaveSteps {
		t.Run(strings.ReplaceAll(step, " ", "-"), func(t *testing.T) {
			t.Parallel()
			profile := chromium.NewRecycledTab(t)
			a := chromium.NewTabIn(t, profile)
			faultFolderTab(t, a, step)
			fclick(t, a, "#folder-save")
			killAt(t, a, step)
			if ok, _ := chromium.Eval[bool](a, time.Second, `document.querySelector("#transcript").textContent.includes("Saved ")`); ok {
				t.Fatalf("the killed tab reported the save before step %s finished", step)
			}

			b := tabAfterKill(t, profile)
			evalOK(t, b, opfsJS+`; true`)
			waitContains(t, b, "#transcript", "Reconnected the folder proj")
			waitContains(t, b, "#folder-permission", "granted")

			// 1. Nothing confirmed is lost.
			ws := workspaceTexts(t, b)
			for p, want := range faultEdits {
				if ws[p] != want {
					t.Errorf("%s after a kill at %s: %q, want the confirmed %q", p, step, ws[p], want)
				}
			}
			if src, ok := ws["old.css"]; ok {
				t.Errorf("the confirmed deletion of old.css was lost by a kill at %s (it holds %q)", step, src)
			}

			// 2. Nothing unwritten is reported as written.
			diff := folderDiff(t, b, ws)
			st := status(t, b)
			owed := map[string]bool{}
			for _, k := range []string{"dirtyPaths", "deletedPaths"} {
				for _, p := range st[k].([]any) {
					owed[p.(string)] = true
				}
			}
			if u, _ := st["unknownSavePath"].(string); u != "" {
				owed[u] = true
			}
			for _, p := range diff {
				if !owed[p] {
					t.Errorf("after a kill at %s the folder's %s differs from the workspace, but the status does not owe it: %v", step, p, st)
				}
			}
			sync, err := chromium.WaitFor[string](b, loadTimeout, `document.querySelector("#folder-sync")?.textContent || ""`)
			if err != nil {
				t.Fatal(err)
			}
			if len(diff) > 0 && strings.Contains(sync, "All changes written") {
				t.Errorf("after a kill at %s the header says %q while the folder differs in %v", step, sync, diff)
			}
			reconnected, _ := chromium.Eval[string](b, 5*time.Second, `[...document.querySelectorAll("#transcript li")].map(li => li.textContent).filter(s => s.includes("Reconnected the folder proj")).pop() || ""`)
			if len(diff) > 0 && !strings.Contains(reconnected, "differ from the folder") {
				t.Errorf("after a kill at %s the chat says %q while the folder differs in %v", step, reconnected, diff)
			}
			if len(diff) == 0 && len(owed) > 0 {
				t.Logf("after a kill at %s the status still owes %v to a folder that already matches (a conservative answer)", step, owed)
			}

			// 3. One Save to folder converges.
			fclick(t, b, "#folder-save")
			expr := `[...document.querySelectorAll("#transcript li")].some(li => /Saved \d+ file|\[[A-Z_]+\]/.test(li.textContent))`
			if _, err := chromium.WaitFor[bool](b, loadTimeout, expr); err != nil {
				t.Fatalf("no answer to Save to folder after a kill at %s: %v", step, err)
			}
			if text, _ := chromium.Eval[string](b, 5*time.Second, `document.querySelector("#transcript").innerText`); !strings.Contains(text, "Saved ") {
				t.Fatalf("Save to folder after a kill at %s did not converge:\n%s", step, text)
			}
			waitContains(t, b, "#folder-sync", "All changes written to the folder")
			if d := folderDiff(t, b, workspaceTexts(t, b)); len(d) > 0 {
				t.Errorf("after a kill at %s and a save the header says all is written, but the folder differs in %v", step, d)
			}
			for _, e := range b.Errors() {
				t.Errorf("console error in the next tab: %v", e)
			}
		})
	}
}
