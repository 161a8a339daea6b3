package browser

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// Transfer tests (issue 8): Download (workspace.downloadFile), Download as ZIP
// (workspace/archive), Upload files (workspace/upload) and Export (preview/export) as real
// downloads and uploads in Chromium. Each test runs in an isolated browser context (its own
// IndexedDB), with downloads saved by the browser into a temporary directory.

// blobTypes records the MIME type of every Blob turned into an object URL, so a download's
// type can be checked (the file on disk does not keep it).
const trBlobTypes = `(() => { const orig = URL.createObjectURL; window.__blobTypes = {};
URL.createObjectURL = function (b) { const u = orig.call(URL, b); if (b && typeof b.type === "string") window.__blobTypes[u] = b.type; return u; }; })();`

// savedDownload is one completed browser download.
type trDownload struct {
	Name, URL, MIME string
	Data            []byte
}

// downloads collects the tab's completed downloads.
type trDownloads struct {
	dir  string
	mu   sync.Mutex
	name map[string][2]string // guid → {suggested name, url}
	done chan string          // completed guids
}

// transferStudio opens the studio in an isolated context whose downloads land in a temporary
// directory, and waits for "Ready" and the first preview ack.
func trStudio(t *testing.T) (*chromium.Tab, *trDownloads) {
	t.Helper()
	url := site(t)
	tab := chromium.NewIsolatedTab(t)
	d := &trDownloads{dir: t.TempDir(), name: map[string][2]string{}, done: make(chan string, 16)}
	if err := chromedp.Listen(tab.Ctx, func(ev any) {
		switch e := ev.(type) {
		case *browser.EventDownloadWillBegin:
			d.mu.Lock()
			d.name[e.GUID] = [2]string{e.SuggestedFilename, e.URL}
			d.mu.Unlock()
		case *browser.EventDownloadProgress:
			if e.State == browser.DownloadProgressStateCompleted {
				select {
				case d.done <- e.GUID:
				default:
				}
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	setup := chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		info, err := chromedp.Call(ctx, target.GetTargetInfo, target.GetTargetInfoParams{})
		if err != nil {
			return err
		}
		on := true
		if _, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: d.dir, EventsEnabled: &on,
			BrowserContextID: info.TargetInfo.BrowserContextID}); err != nil {
			return err
		}
		_, err = chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: trBlobTypes})
		return err
	})
	defer bootSlot(t)()
	if err := tab.Do(loadTimeout, setup, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitText(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#preview-status", "acknowledged")
	return tab, d
}

// next waits for the next completed download and reads it back from disk.
func (d *trDownloads) next(t *testing.T, tab *chromium.Tab) trDownload {
	t.Helper()
	select {
	case guid := <-d.done:
		d.mu.Lock()
		meta := d.name[guid]
		d.mu.Unlock()
		data, err := os.ReadFile(filepath.Join(d.dir, guid))
		if err != nil {
			t.Fatalf("download %s (%s): %v", meta[0], guid, err)
		}
		mime, _ := chromium.Eval[string](tab, 5*time.Second, `(window.__blobTypes || {})[`+jsString(meta[1])+`] || ""`)
		return trDownload{Name: meta[0], URL: meta[1], MIME: mime, Data: data}
	case <-time.After(loadTimeout):
		t.Fatalf("no download completed; transcript: %s", trTranscript(t, tab))
	}
	return trDownload{}
}

func trTranscript(t *testing.T, tab *chromium.Tab) string {
	s, _ := chromium.Eval[string](tab, 5*time.Second, `(document.querySelector("#transcript")||{}).textContent || ""`)
	return s
}

// pngFile writes a real w×h PNG and returns its path and bytes.
func trPNG(t *testing.T, dir, name string, w, h int) (string, []byte) {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{uint8(x * 20), uint8(y * 30), 180, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return trWriteFile(t, dir, name, b.Bytes()), b.Bytes()
}

func trWriteFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// workspacePaths lists the workspace's paths through workspace.listFiles.
func trPaths(t *testing.T, tab *chromium.Tab) map[string]string {
	t.Helper()
	files, _ := directCall(t, tab, "workspace.listFiles", `{}`)["files"].([]any)
	out := map[string]string{}
	for _, f := range files {
		m := f.(map[string]any)
		out[m["path"].(string)] = m["kind"].(string)
	}
	return out
}

func trReadSource(t *testing.T, tab *chromium.Tab, p string) string {
	t.Helper()
	s, _ := directCall(t, tab, "workspace.readFile", `{"path":`+jsString(p)+`}`)["source"].(string)
	return s
}

// clickJS clicks an element through the DOM (also when it is only shown on hover or focus).
func trClick(t *testing.T, tab *chromium.Tab, sel string) {
	t.Helper()
	ok, err := chromium.Eval[bool](tab, 5*time.Second, `(() => { const e = document.querySelector(`+jsString(sel)+`); if (!e) return false; e.click(); return true; })()`)
	if err != nil || !ok {
		t.Fatalf("click %s: %v (found %v)", sel, err, ok)
	}
}

// uploadRPC adds files through workspace/upload directly (base64 entries).
func trUpload(t *testing.T, tab *chromium.Tab, files map[string][]byte) {
	t.Helper()
	var entries []string
	for p, data := range files {
		entries = append(entries, `{"path":`+jsString(p)+`,"base64":"`+base64.StdEncoding.EncodeToString(data)+`"}`)
	}
	resp := rpc(t, tab, `{"jsonrpc":"2.0","id":1,"method":"workspace/upload","params":{"files":[`+strings.Join(entries, ",")+`]}}`)
	res, _ := resp["result"].(map[string]any)
	if res == nil || len(res["uploaded"].([]any)) != len(files) {
		t.Fatalf("workspace/upload: %v", resp)
	}
}

// TestDownloadFileTextAndAsset: the explorer's Download button saves a text file and an asset
// under their last path segment, with their bytes and MIME types.
func TestDownloadFileTextAndAsset(t *testing.T) {
	tab, dl := trStudio(t)
	_, pngBytes := trPNG(t, t.TempDir(), "x.png", 5, 3)
	trUpload(t, tab, map[string][]byte{"logo.png": pngBytes})
	directCall(t, tab, "workspace.writeFile", `{"path":"README.md","source":"# Downloaded ✓\nbytes\n"}`)
	waitContains(t, tab, "#file-list", "logo.png")

	trClick(t, tab, `[aria-label="Download README.md"]`)
	got := dl.next(t, tab)
	if got.Name != "README.md" || got.MIME != "text/markdown" || string(got.Data) != "# Downloaded ✓\nbytes\n" {
		t.Errorf("README.md download: name %q, type %q, bytes %q", got.Name, got.MIME, got.Data)
	}
	trClick(t, tab, `[aria-label="Download logo.png"]`)
	got = dl.next(t, tab)
	if got.Name != "logo.png" || got.MIME != "image/png" || !bytes.Equal(got.Data, pngBytes) {
		t.Errorf("logo.png download: name %q, type %q, %d bytes (want %d)", got.Name, got.MIME, len(got.Data), len(pngBytes))
	}
	// A nested path downloads under its last segment.
	directCall(t, tab, "workspace.createFile", `{"path":"docs/deep/notes.txt","source":"nested"}`)
	directCall(t, tab, "workspace.downloadFile", `{"path":"docs/deep/notes.txt"}`)
	got = dl.next(t, tab)
	if got.Name != "notes.txt" || got.MIME != "text/plain" || string(got.Data) != "nested" {
		t.Errorf("nested download: name %q, type %q, bytes %q", got.Name, got.MIME, got.Data)
	}
	noConsoleErrors(t, tab)
}

// TestUploadFilesInputUndo: "Upload files" with a real PNG, a font and a text file (CDP
// DOM.setFileInputFiles) → the files are in the tree, the preview shows the image, and one
// Undo removes them all.
func TestUploadFilesInputUndo(t *testing.T) {
	t.Parallel()
	tab, _ := trStudio(t)
	dir := t.TempDir()
	pngPath, pngBytes := trPNG(t, dir, "photo.png", 7, 4)
	fontPath := trWriteFile(t, dir, "brand.woff2", []byte("wOF2\x00\x01\x00\x00fake font bytes\xff"))
	textPath := trWriteFile(t, dir, "notes.md", []byte("# Notes\n"))
	directCall(t, tab, "workspace.writeFile", `{"path":"index.html","source":"<!doctype html><h1 id=t>Uploaded image</h1><img id=up src=\"photo.png\">"}`)
	before := trPaths(t, tab)
	rev := ackedRevision(t, tab)

	if n, _ := chromium.Eval[int](tab, 5*time.Second, `document.querySelectorAll('#transfer-actions [aria-label="Upload files"], #transfer-actions [aria-label="Download as ZIP"]').length`); n != 2 {
		t.Fatalf("the explorer shows %d of the 2 transfer buttons", n)
	}
	if err := tab.Do(10*time.Second, chromedp.SetUploadFiles(chromedp.CSS("#upload-input"), []string{pngPath, fontPath, textPath})); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "Uploaded 3 file(s): photo.png (new), brand.woff2 (new), notes.md (new)")
	after := trPaths(t, tab)
	if after["photo.png"] != "asset" || after["brand.woff2"] != "asset" || after["notes.md"] != "text" || len(after) != len(before)+3 {
		t.Fatalf("workspace after upload: %v", after)
	}
	waitContains(t, tab, "#file-list", "photo.png")
	if trReadSource(t, tab, "notes.md") != "# Notes\n" {
		t.Error("notes.md content differs")
	}
	// The preview (a sandboxed iframe; assets as data: URLs) decodes the uploaded PNG.
	if _, err := chromium.WaitInFrame(tab, 10*time.Second, `(() => { const i = document.querySelector("#up"); return !!i && i.complete && i.naturalWidth === 7 && i.naturalHeight === 4; })()`, true); err != nil {
		t.Fatalf("the preview does not show the uploaded image: %v", err)
	}
	if got := ackedRevision(t, tab); got != rev+1 {
		t.Errorf("revision %d after the upload, want %d (one revision)", got, rev+1)
	}
	// The downloaded bytes of the stored asset equal the file.
	st := rpc(t, tab, `{"jsonrpc":"2.0","id":2,"method":"workspace/archive"}`)
	zr := trArchive(t, st)
	if !bytes.Equal(zr["photo.png"], pngBytes) {
		t.Error("the stored photo.png differs from the uploaded bytes")
	}
	// One undo removes all three files; the index.html edit stays.
	trClick(t, tab, `[data-action="undo"]`)
	if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `!document.querySelector("#file-list").textContent.includes("photo.png")`); err != nil {
		t.Fatal("photo.png still listed after Undo")
	}
	undone := trPaths(t, tab)
	if len(undone) != len(before) || undone["photo.png"] != "" || undone["notes.md"] != "" {
		t.Errorf("after undo: %v, want %v", undone, before)
	}
	if !strings.Contains(trReadSource(t, tab, "index.html"), "Uploaded image") {
		t.Error("undo of the upload also undid the earlier edit")
	}
	noConsoleErrors(t, tab)
}

// TestUploadRefusedFilesKeepOthers: an oversize asset, a hidden file and a binary .txt are
// each reported with their reason; the good file lands.
func TestUploadRefusedFilesKeepOthers(t *testing.T) {
	t.Parallel()
	tab, _ := trStudio(t)
	dir := t.TempDir()
	huge := trWriteFile(t, dir, "huge.png", make([]byte, 4<<20+1))
	hidden := trWriteFile(t, dir, ".env", []byte("SECRET=1"))
	binary := trWriteFile(t, dir, "blob.txt", []byte{0xff, 0xfe, 0x00, 0x01})
	good := trWriteFile(t, dir, "good.css", []byte("h1 { color: teal; }"))
	before := trPaths(t, tab)
	if err := tab.Do(10*time.Second, chromedp.SetUploadFiles(chromedp.CSS("#upload-input"), []string{huge, hidden, binary, good})); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "Uploaded 1 file(s): good.css (new)")
	waitContains(t, tab, "#transcript", "Not uploaded: huge.png — too large (larger than 4 MB (the limit for image files))")
	waitContains(t, tab, "#transcript", "Not uploaded: .env — hidden files are not imported")
	waitContains(t, tab, "#transcript", "Not uploaded: blob.txt — not an asset type and not UTF-8 text")
	after := trPaths(t, tab)
	if after["good.css"] != "text" || len(after) != len(before)+1 {
		t.Errorf("workspace after a partly refused upload: %v", after)
	}
	if trReadSource(t, tab, "good.css") != "h1 { color: teal; }" {
		t.Error("good.css content differs")
	}
	// Only refused files: nothing changes and every reason is shown.
	rev := directCall(t, tab, "workspace.getStatus", `{}`)["revision"]
	if err := tab.Do(10*time.Second, chromedp.SetUploadFiles(chromedp.CSS("#upload-input"), []string{hidden})); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "Uploaded 0 file(s)")
	if got := directCall(t, tab, "workspace.getStatus", `{}`)["revision"]; got != rev {
		t.Errorf("revision %v after a fully refused upload, want %v", got, rev)
	}
	noConsoleErrors(t, tab)
}

func trArchive(t *testing.T, resp map[string]any) map[string][]byte {
	t.Helper()
	res, _ := resp["result"].(map[string]any)
	if res == nil {
		t.Fatalf("workspace/archive: %v", resp)
	}
	data, err := base64.StdEncoding.DecodeString(res["base64"].(string))
	if err != nil {
		t.Fatal(err)
	}
	return trUnzip(t, data)
}

func trUnzip(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("not a zip archive: %v", err)
	}
	out := map[string][]byte{}
	prev := ""
	for _, f := range zr.File {
		if f.Name <= prev {
			t.Errorf("archive entries out of order: %q after %q", f.Name, prev)
		}
		prev = f.Name
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		out[f.Name] = b
	}
	return out
}

// TestDownloadZipEqualsWorkspace: "Download as ZIP" saves <rootName>.zip, which reads back
// with archive/zip and equals the workspace (unsaved edits and an uploaded PNG included).
func TestDownloadZipEqualsWorkspace(t *testing.T) {
	tab, dl := trStudio(t)
	dir := t.TempDir()
	pngPath, pngBytes := trPNG(t, dir, "mark.png", 3, 3)
	if err := tab.Do(10*time.Second, chromedp.SetUploadFiles(chromedp.CSS("#upload-input"), []string{pngPath})); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "Uploaded 1 file(s): mark.png (new)")
	directCall(t, tab, "workspace.createFile", `{"path":"css/extra dir/ü.css","source":"p { content: \"ü ✓\"; }"}`)
	directCall(t, tab, "workspace.writeFile", `{"path":"app.js","source":"console.log(\"unsaved edit\");\n"}`)
	root, _ := directCall(t, tab, "workspace.getStatus", `{}`)["rootName"].(string)

	trClick(t, tab, `[aria-label="Download as ZIP"]`)
	got := dl.next(t, tab)
	if got.Name != root+".zip" || got.MIME != "application/zip" {
		t.Errorf("zip download: name %q (root %q), type %q", got.Name, root, got.MIME)
	}
	entries := trUnzip(t, got.Data)
	paths := trPaths(t, tab)
	if len(entries) != len(paths) {
		t.Fatalf("archive holds %d entries, workspace %d files: %v", len(entries), len(paths), paths)
	}
	for p, kind := range paths {
		b, ok := entries[p]
		switch {
		case !ok:
			t.Errorf("%s missing from the archive", p)
		case kind == "text" && string(b) != trReadSource(t, tab, p):
			t.Errorf("%s: archive bytes differ from the workspace source", p)
		}
	}
	if !bytes.Equal(entries["mark.png"], pngBytes) {
		t.Error("mark.png in the archive differs from the uploaded bytes")
	}
	if string(entries["app.js"]) != "console.log(\"unsaved edit\");\n" {
		t.Error("the archive does not hold the unsaved edit")
	}
	waitContains(t, tab, "#transcript", "Downloaded "+root+".zip")
	// The same workspace archives to the same bytes.
	again := trArchive(t, rpc(t, tab, `{"jsonrpc":"2.0","id":3,"method":"workspace/archive","params":{}}`))
	if len(again) != len(entries) {
		t.Error("a second archive differs")
	}
	noConsoleErrors(t, tab)
}

// trEmulateOffline is Network.emulateNetworkConditions (deprecated in the protocol, so the
// generated bindings of this cdproto version leave it out; Chromium still implements it).
var trEmulateOffline = cdp.Command[trOfflineParams, cdp.Empty]{Method: "Network.emulateNetworkConditions"}

type trOfflineParams struct {
	Offline            bool    `json:"offline"`
	Latency            float64 `json:"latency"`
	DownloadThroughput float64 `json:"downloadThroughput"`
	UploadThroughput   float64 `json:"uploadThroughput"`
}

// TestExportWorksOffline: the exported standalone HTML, opened from disk in a fresh tab with
// the site server stopped and the network emulated offline, renders its CSS, its inlined
// uploaded image and runs its script; no request leaves the page.
func TestExportWorksOffline(t *testing.T) {
	tab, dl := trStudio(t)
	_, pngBytes := trPNG(t, t.TempDir(), "x.png", 6, 2)
	trUpload(t, tab, map[string][]byte{"badge.png": pngBytes})
	src := trReadSource(t, tab, "index.html")
	src = strings.Replace(src, `<h1 id="hero-title">`, `<img id="badge" src="badge.png" alt=""><h1 id="hero-title">`, 1)
	directCall(t, tab, "workspace.writeFile", `{"path":"index.html","source":`+jsString(src)+`}`)
	trClick(t, tab, `[aria-label="Export standalone HTML"]`)
	got := dl.next(t, tab)
	root, _ := directCall(t, tab, "workspace.getStatus", `{}`)["rootName"].(string)
	if got.Name != root+".html" || got.MIME != "text/html" {
		t.Errorf("export download: name %q, type %q", got.Name, got.MIME)
	}
	file := trWriteFile(t, t.TempDir(), "export.html", got.Data)

	restart := stopServer(t)
	defer restart()
	page2 := chromium.NewIsolatedTab(t)
	var mu sync.Mutex
	var requests []string
	if err := chromedp.Listen(page2.Ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			requests = append(requests, e.Request.URL)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	offline := chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		_, err := chromedp.Call(ctx, trEmulateOffline, trOfflineParams{Offline: true, DownloadThroughput: -1, UploadThroughput: -1})
		return err
	})
	u := url.URL{Scheme: "file", Path: file}
	if err := page2.Do(loadTimeout, offline, chromedp.Navigate(u.String())); err != nil {
		t.Fatal(err)
	}
	if _, err := chromium.WaitFor[bool](page2, 10*time.Second, `(() => { const i = document.querySelector("#badge"); return document.querySelector("#hero-title") && i && i.complete && i.naturalWidth === 6; })()`); err != nil {
		t.Fatalf("the exported page does not render its image offline: %v", err)
	}
	if accent, _ := chromium.Eval[string](page2, 5*time.Second, accentExpr); accent == "" {
		t.Error("the exported page has no --accent: its CSS was not inlined")
	}
	trClick(t, page2, "#hero-button")
	if _, err := chromium.WaitFor[bool](page2, 5*time.Second, `document.querySelector("#cta-copy").textContent === "You pressed the button 1 time."`); err != nil {
		t.Error("the exported page's script did not run")
	}
	mu.Lock()
	defer mu.Unlock()
	for _, r := range requests {
		if !strings.HasPrefix(r, "file:") && !strings.HasPrefix(r, "data:") {
			t.Errorf("the exported page sent a request: %s", r)
		}
	}
	if len(requests) == 0 {
		t.Error("no request was observed at all (not even the document): the network listener is not working")
	}
	noConsoleErrors(t, page2)
}

// TestUploadLargeAsset: an asset just under the 4 MiB limit goes through the file input,
// base64 and the core intact (its bytes come back from workspace/archive); the time from
// choosing the file to the chat's report is logged.
func TestUploadLargeAsset(t *testing.T) {
	t.Parallel()
	tab, _ := trStudio(t)
	data := make([]byte, 4<<20-1)
	for i := range data {
		data[i] = byte(i*7 + i>>9)
	}
	p := trWriteFile(t, t.TempDir(), "big.woff2", data)
	t0 := time.Now()
	if err := tab.Do(10*time.Second, chromedp.SetUploadFiles(chromedp.CSS("#upload-input"), []string{p})); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "Uploaded 1 file(s): big.woff2 (new)")
	t.Logf("4 MiB asset: file chosen → \"Uploaded 1 file(s)\" in %v", time.Since(t0))
	if got := trArchive(t, rpc(t, tab, `{"jsonrpc":"2.0","id":1,"method":"workspace/archive"}`))["big.woff2"]; !bytes.Equal(got, data) {
		t.Fatalf("big.woff2: %d bytes back, want %d equal bytes", len(got), len(data))
	}
	noConsoleErrors(t, tab)
}

// TestDropFilesOnExplorer: files dropped onto the explorer are uploaded like chosen ones; a
// drop without files (text) is left alone.
func TestDropFilesOnExplorer(t *testing.T) {
	t.Parallel()
	tab, _ := trStudio(t)
	before := trPaths(t, tab)
	ok, err := chromium.Eval[bool](tab, 5*time.Second, `(() => {
		const nav = document.querySelector("nav.explorer");
		const text = new DataTransfer(); text.setData("text/plain", "not a file");
		nav.dispatchEvent(new DragEvent("drop", {dataTransfer: text, bubbles: true, cancelable: true}));
		const dt = new DataTransfer();
		dt.items.add(new File(["body { margin: 0 }"], "dropped.css", {type: "text/css"}));
		dt.items.add(new File([new Uint8Array([0, 1, 2, 3])], "icon.ico", {type: "image/x-icon"}));
		const over = new DragEvent("dragover", {dataTransfer: dt, bubbles: true, cancelable: true});
		nav.dispatchEvent(over);
		nav.dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
		return over.defaultPrevented;
	})()`)
	if err != nil || !ok {
		t.Fatalf("dragover with files was not accepted (defaultPrevented %v): %v", ok, err)
	}
	waitContains(t, tab, "#transcript", "Uploaded 2 file(s): dropped.css (new), icon.ico (new)")
	after := trPaths(t, tab)
	if after["dropped.css"] != "text" || after["icon.ico"] != "asset" || len(after) != len(before)+2 {
		t.Errorf("workspace after the drop: %v", after)
	}
	if n := strings.Count(trTranscript(t, tab), "Uploaded"); n != 1 {
		t.Errorf("%d upload reports, want 1 (the text drop must not upload)", n)
	}
	noConsoleErrors(t, tab)
}

// TestUploadSaysReplacedAndRefusesOverLimit: uploading a file whose path exists says
// "(replaced)" beside the new one's "(new)"; choosing more than 200 files is refused in the
// page before any read, typed ([WORKSPACE_SOURCE_LIMIT], the real count, the limit, the
// method named at most once) and the workspace is unchanged.
func TestUploadSaysReplacedAndRefusesOverLimit(t *testing.T) {
	t.Parallel()
	tab, _ := trStudio(t)
	dir := t.TempDir()
	idx := trWriteFile(t, dir, "index.html", []byte("<!doctype html><h1>replaced by upload</h1>"))
	pngPath, _ := trPNG(t, dir, "a.png", 3, 3)
	if err := tab.Do(10*time.Second, chromedp.SetUploadFiles(chromedp.CSS("#upload-input"), []string{pngPath, idx})); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "Uploaded 2 file(s): a.png (new), index.html (replaced)")
	if !strings.Contains(trReadSource(t, tab, "index.html"), "replaced by upload") {
		t.Error("index.html was not replaced")
	}
	before := trPaths(t, tab)
	many := t.TempDir()
	var list []string
	for i := range 201 {
		list = append(list, trWriteFile(t, many, fmt.Sprintf("f%03d.txt", i), []byte("x")))
	}
	if err := tab.Do(20*time.Second, chromedp.SetUploadFiles(chromedp.CSS("#upload-input"), list)); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "Upload refused: [WORKSPACE_SOURCE_LIMIT] 201 files chosen; one upload takes at most 200 files.")
	if tr := trTranscript(t, tab); strings.Contains(tr, "workspace/upload: workspace/upload") {
		t.Errorf("doubled method prefix in the transcript: %s", tr)
	}
	if after := trPaths(t, tab); len(after) != len(before) {
		t.Errorf("a refused upload changed the workspace: %d files, want %d", len(after), len(before))
	}
}

// TestFaviconIsInline: the page declares its icon inline (a data: SVG link), so the browser
// never requests /favicon.ico (a 404 console error on every load before); the icon decodes.
func TestFaviconIsInline(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	ok, err := chromium.Eval[bool](tab, 10*time.Second, `(async () => {
		const l = document.querySelector('link[rel="icon"]');
		if (!l || !l.href.startsWith("data:image/svg+xml,")) return false;
		const img = new Image(); img.src = l.href; await img.decode();
		return img.naturalWidth > 0;
	})()`)
	if err != nil || !ok {
		t.Fatalf("no decodable inline icon link: %v", err)
	}
	noConsoleErrors(t, tab)
}
