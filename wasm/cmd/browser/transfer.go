//go:build js && wasm

package main

import (
	"context"
	"encoding/base64"
	"fmt"
	"github.com/webcoding/studio/wasm/transfer"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/webcoding/studio/wasm/adapters/jsbridge"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/workspace"
)

// The transfer feature (issue 8): "Upload files" and "Download as ZIP" in the explorer head
// (#transfer-actions), and files dropped onto the explorer. Both are core operations, not
// tools (SPEC §2.11): workspace/upload and workspace/archive (wasm/studio/transfer.go), so
// the trace shows them and the headless CLI has the same behaviour. Download of one file
// (workspace.downloadFile) and Export (preview/export) live in events.go.
func init() {
	registerFeature(&feature{name: "transfer", bind: transferBind, render: transferRender, action: transferAction})
}

// transferHTML is the region's fixed content. The file input is hidden; "Upload files"
// clicks it (within the click's user activation).
const transferHTML = `<button type="button" id="upload-files" data-action="upload-files" aria-label="Upload files" title="Upload files: images, fonts, other assets or text files">Upload</button>` +
	`<button type="button" id="download-zip" data-action="download-zip" aria-label="Download as ZIP" title="Download the workspace as a ZIP archive">ZIP</button>` +
	`<input type="file" id="upload-input" multiple hidden aria-label="Files to upload">`

func transferRender(a *app) { a.setRegion("transfer-actions", transferHTML) }

func transferAction(a *app, act uiAction) bool {
	ctx := context.Background()
	switch act.Name {
	case "upload-files":
		if in := js.Global().Get("document").Call("getElementById", "upload-input"); !in.IsNull() {
			in.Call("click")
		}
	case "download-zip":
		if err := a.downloadZip(ctx); err != nil {
			a.addEntry(entry{Kind: "error", Text: "Download as ZIP failed: " + err.Error()})
		}
	default:
		return false
	}
	return true
}

// transferBind listens for the file input's change and for files dropped onto the explorer.
// The callbacks only copy the File objects out of the event and hand the reading to a
// goroutine.
func transferBind(a *app) {
	doc := js.Global().Get("document")
	a.on(doc, "change", func(_ js.Value, args []js.Value) any {
		t := args[0].Get("target")
		if t.Type() != js.TypeObject || t.Get("id").String() != "upload-input" {
			return nil
		}
		files := fileList(t.Get("files"))
		t.Set("value", "") // the same file can be chosen again
		if len(files) > 0 {
			jsbridge.Go("transfer.upload", func() { a.uploadFiles(context.Background(), files) })
		}
		return nil
	})
	nav := doc.Call("querySelector", "nav.explorer")
	if nav.IsNull() {
		return
	}
	hasFiles := func(ev js.Value) bool {
		dt := ev.Get("dataTransfer")
		if dt.Type() != js.TypeObject {
			return false
		}
		types := dt.Get("types")
		for i := 0; i < types.Length(); i++ {
			if types.Index(i).String() == "Files" {
				return true
			}
		}
		return false
	}
	a.on(nav, "dragover", func(_ js.Value, args []js.Value) any {
		if hasFiles(args[0]) {
			args[0].Call("preventDefault")
			args[0].Get("dataTransfer").Set("dropEffect", "copy")
		}
		return nil
	})
	a.on(nav, "drop", func(_ js.Value, args []js.Value) any {
		if !hasFiles(args[0]) {
			return nil
		}
		args[0].Call("preventDefault")
		files := fileList(args[0].Get("dataTransfer").Get("files"))
		if len(files) > 0 {
			jsbridge.Go("transfer.drop", func() { a.uploadFiles(context.Background(), files) })
		}
		return nil
	})
}

// fileList copies a FileList into a slice (the list itself is live and can be cleared).
func fileList(list js.Value) []js.Value {
	if list.Type() != js.TypeObject {
		return nil
	}
	out := make([]js.Value, 0, list.Length())
	for i := 0; i < list.Length(); i++ {
		out = append(out, list.Index(i))
	}
	return out
}

// uploadEntry is one workspace/upload params entry.
type uploadEntry struct {
	Path   string `json:"path"`
	Base64 string `json:"base64"`
}

// uploadFiles reads the chosen files and sends them to workspace/upload at the workspace
// root under their own names. A file over its asset limit (workspace.AssetLimit: 8 MiB for
// audio/video, 4 MiB otherwise; text is judged by the core after reading) or
// past the 12 MiB upload budget is refused here without reading it (same reasons as the
// core's import rules), so one request never exceeds rpcsession.MaxRequestBytes; everything else is
// judged by the core. The chat reports "Uploaded N file(s)" and every refused file with its
// reason.
func (a *app) uploadFiles(ctx context.Context, files []js.Value) {
	a.flushDraft(ctx)
	if len(files) > transfer.MaxUploadFiles {
		// One upload (and one workspace) holds at most MaxUploadFiles files: refuse here,
		// typed, before reading any file (the core refuses the same way).
		a.addEntry(entry{Kind: "error", Text: fmt.Sprintf("Upload refused: [%s] %d files chosen; one upload takes at most %d files. Nothing was uploaded: choose fewer files.",
			mcp.CodeWorkspaceSourceLimit, len(files), transfer.MaxUploadFiles)})
		return
	}
	var entries []uploadEntry
	var refused []workspace.Skipped
	total := 0
	for _, f := range files {
		name := f.Get("name").String()
		size := f.Get("size").Int()
		switch {
		case size > workspace.MaxImportMediaBytes || (size > workspace.MaxImportAssetBytes && !isMedia(name)):
			refused = append(refused, workspace.Skipped{Path: name, Reason: workspace.SkipTooLarge, Message: workspace.TooLargeMessage(name)})
			continue
		case total+size > workspace.MaxImportTotalBytes:
			refused = append(refused, workspace.Skipped{Path: name, Reason: workspace.SkipTotalLimit, Message: "import larger than 12 MB"})
			continue
		}
		data, err := readFile(ctx, f)
		if err != nil {
			refused = append(refused, workspace.Skipped{Path: name, Reason: workspace.SkipReadFailed, Message: err.Error()})
			continue
		}
		total += len(data)
		entries = append(entries, uploadEntry{Path: name, Base64: base64.StdEncoding.EncodeToString(data)})
	}
	var res studio.UploadResult
	if len(entries) > 0 {
		if err := a.rpc(ctx, "", studio.MethodWorkspaceUpload, map[string]any{"files": entries}, &res); err != nil {
			a.addEntry(entry{Kind: "error", Text: "Upload failed: " + err.Error()})
			return
		}
	}
	names := make([]string, 0, len(res.Uploaded))
	for _, u := range res.Uploaded {
		if u.Replaced {
			names = append(names, u.Path+" (replaced)")
		} else {
			names = append(names, u.Path+" (new)")
		}
	}
	text := "Uploaded " + strconv.Itoa(len(res.Uploaded)) + " file(s)"
	if len(names) > 0 {
		text += ": " + strings.Join(names, ", ")
	}
	kind := "info"
	if len(res.Uploaded) == 0 {
		kind = "error"
	}
	details := ""
	if res.Preview != "" {
		details = "Preview: " + res.Preview
	}
	a.addEntry(entry{Kind: kind, Text: text, Details: details})
	for _, s := range append(refused, res.Skipped...) {
		a.addEntry(entry{Kind: "error", Text: fmt.Sprintf("Not uploaded: %s — %s", s.Path, skipReason(s))})
	}
	a.requestRefresh()
}

// skipReason is a refused file's reason as the chat shows it.
func skipReason(s workspace.Skipped) string {
	text := map[string]string{
		workspace.SkipInvalidPath: "invalid file name",
		workspace.SkipHidden:      "hidden files are not imported",
		workspace.SkipIgnored:     "node_modules is not imported",
		workspace.SkipNotText:     "not an asset type and not UTF-8 text",
		workspace.SkipDuplicate:   "chosen twice",
		workspace.SkipTooLarge:    "too large",
		workspace.SkipTotalLimit:  "over the 12 MB budget",
		workspace.SkipFileLimit:   "the workspace already holds 200 files",
		workspace.SkipReadFailed:  "could not be read",
	}[s.Reason]
	if text == "" {
		text = s.Reason
	}
	if s.Message != "" && s.Message != s.Reason {
		text += " (" + s.Message + ")"
	}
	return text
}

// readFile reads a File's bytes (File.arrayBuffer()).
func readFile(ctx context.Context, f js.Value) ([]byte, error) {
	buf, err := jsbridge.Await(ctx, f.Call("arrayBuffer"))
	if err != nil {
		return nil, err
	}
	arr := js.Global().Get("Uint8Array").New(buf)
	data := make([]byte, arr.Get("length").Int())
	js.CopyBytesToGo(data, arr)
	return data, nil
}

// downloadZip downloads the whole current workspace (unsaved edits included) as
// <rootName>.zip (workspace/archive).
func (a *app) downloadZip(ctx context.Context) error {
	a.flushDraft(ctx)
	var res studio.ArchiveResult
	if err := a.rpc(ctx, "", studio.MethodWorkspaceArchive, map[string]any{}, &res); err != nil {
		return err
	}
	data, err := base64.StdEncoding.DecodeString(res.Base64)
	if err != nil {
		return fmt.Errorf("the archive is not base64: %w", err)
	}
	if err := download(res.Name, res.MimeType, data); err != nil {
		return err
	}
	a.addEntry(entry{Kind: "info", Text: fmt.Sprintf("Downloaded %s (%d file(s), %d bytes)", res.Name, res.Files, res.Bytes)})
	return nil
}

// isMedia reports whether name is an audio or video asset (workspace.AssetClasses).
func isMedia(name string) bool {
	_, class := workspace.AssetLimit(name)
	return class == "audio" || class == "video"
}
