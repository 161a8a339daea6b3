package studio

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"github.com/webcoding/studio/wasm/transfer"
	"image"
	"image/color"
	"image/png"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/jsonrpc"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/rpcsession"
	"github.com/webcoding/studio/wasm/workspace"
)

// testPNG encodes a real w×h PNG.
func trPNG(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x * 7), uint8(y * 13), 200, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// events collects the observer's lifecycle events.
type trEvents struct {
	mu  sync.Mutex
	got []audit.ToolCallEvent
}

func (e *trEvents) add(ev audit.ToolCallEvent) { e.mu.Lock(); e.got = append(e.got, ev); e.mu.Unlock() }

func (e *trEvents) named(name string) []audit.ToolCallEvent {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []audit.ToolCallEvent
	for _, ev := range e.got {
		if ev.Name == name {
			out = append(out, ev)
		}
	}
	return out
}

func trSession(t *testing.T) (*rpcsession.Session, *trEvents) {
	t.Helper()
	ev := &trEvents{}
	return session(t, Ports{Observer: ev.add}, rpcsession.Config{}), ev
}

func trMethod(t *testing.T, s *rpcsession.Session, name string, params any) (json.RawMessage, *jsonrpc.Error) {
	t.Helper()
	raw, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	if params == nil {
		raw = nil
	}
	out, jerr := s.Methods[name](context.Background(), raw)
	if jerr != nil {
		return nil, jerr
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return b, nil
}

func trUpload(t *testing.T, s *rpcsession.Session, files ...map[string]any) UploadResult {
	t.Helper()
	raw, jerr := trMethod(t, s, MethodWorkspaceUpload, map[string]any{"files": files})
	if jerr != nil {
		t.Fatalf("upload: %+v", jerr)
	}
	var res UploadResult
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

func trB64(path string, data []byte) map[string]any {
	return map[string]any{"path": path, "base64": base64.StdEncoding.EncodeToString(data)}
}

func trReadZip(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	var names []string
	for _, f := range zr.File {
		if !f.Modified.Equal(transfer.ArchiveTime) || f.Mode().Perm() != 0o644 {
			t.Fatalf("%s: modified %v mode %v", f.Name, f.Modified, f.Mode())
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		names = append(names, f.Name)
		out[f.Name] = b
	}
	if !slices.IsSorted(names) {
		t.Fatalf("entries not sorted: %v", names)
	}
	return out
}

func trArchive(t *testing.T, s *rpcsession.Session) ([]byte, ArchiveResult) {
	t.Helper()
	raw, jerr := trMethod(t, s, MethodWorkspaceArchive, nil)
	if jerr != nil {
		t.Fatalf("archive: %+v", jerr)
	}
	var res ArchiveResult
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	data, err := base64.StdEncoding.DecodeString(res.Base64)
	if err != nil || len(data) != res.Bytes {
		t.Fatalf("base64: %v, %d bytes, result says %d", err, len(data), res.Bytes)
	}
	return data, res
}

// wantWorkspace compares an archive's entries with the workspace files, byte for byte.
func trWantWorkspace(t *testing.T, s *rpcsession.Session, entries map[string][]byte) {
	t.Helper()
	var list struct {
		Files []struct{ Path, Kind string } `json:"files"`
	}
	if err := json.Unmarshal((trCallRaw(t, s, ToolWorkspaceListFiles, nil)), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Files) != len(entries) {
		t.Fatalf("archive holds %d entries, workspace %d files", len(entries), len(list.Files))
	}
	for _, f := range list.Files {
		var rf struct {
			Source string `json:"source"`
		}
		got, present := entries[f.Path]
		if !present {
			t.Fatalf("%s missing from the archive", f.Path)
		}
		if f.Kind == workspace.KindText {
			_ = json.Unmarshal((trCallRaw(t, s, ToolWorkspaceReadFile, map[string]any{"path": f.Path})), &rf)
			if string(got) != rf.Source {
				t.Fatalf("%s: archive bytes differ from the source", f.Path)
			}
		}
	}
}

func trCallRaw(t *testing.T, s *rpcsession.Session, name string, args any) []byte {
	t.Helper()
	m := ok(t, call(t, s.Registry, name, args))
	b, _ := json.Marshal(m)
	return b
}

func TestArchiveEqualsWorkspaceAndIsDeterministic(t *testing.T) {
	s, ev := trSession(t)
	pngBytes := trPNG(t, 8, 6)
	font := []byte("wOF2\x00\x01\x00\x00 not really a font \xff\xfe")
	res := trUpload(t, s, trB64("img/logo.png", pngBytes), trB64("fonts/Inter.woff2", font),
		map[string]any{"path": "notes/ünïcode.txt", "text": "héllo ✓\n"})
	if len(res.Uploaded) != 3 || !res.Changed {
		t.Fatalf("upload: %+v", res)
	}
	a1, r1 := trArchive(t, s)
	a2, _ := trArchive(t, s)
	if !bytes.Equal(a1, a2) {
		t.Fatal("two archives of the same workspace differ")
	}
	if r1.MimeType != "application/zip" || r1.Name != "workspace.zip" && !strings.HasSuffix(r1.Name, ".zip") || r1.Files != len(trReadZip(t, a1)) {
		t.Fatalf("result %+v", r1)
	}
	entries := trReadZip(t, a1)
	if !bytes.Equal(entries["img/logo.png"], pngBytes) || !bytes.Equal(entries["fonts/Inter.woff2"], font) ||
		string(entries["notes/ünïcode.txt"]) != "héllo ✓\n" {
		t.Fatal("uploaded bytes differ in the archive")
	}
	trWantWorkspace(t, s, entries)
	// The unsaved state is what is archived: an edit changes the archive.
	ok(t, call(t, s.Registry, ToolWorkspaceWriteFile, map[string]any{"path": "notes/ünïcode.txt", "source": "changed"}))
	a3, _ := trArchive(t, s)
	if bytes.Equal(a1, a3) || string(trReadZip(t, a3)["notes/ünïcode.txt"]) != "changed" {
		t.Fatal("the archive does not hold the current (unsaved) source")
	}
	// Trace: started + completed per archive run.
	got := ev.named(MethodWorkspaceArchive)
	if len(got) != 6 || got[0].Type != audit.EventStarted || got[1].Type != audit.EventCompleted || got[1].Mode != "direct" {
		t.Fatalf("archive events: %d %+v", len(got), got)
	}
	// Deterministic across sessions: the same files in another order give the same bytes.
	files := []*workspace.File{workspace.NewTextFile("b.txt", "b"), workspace.NewAssetFile("a.png", pngBytes), workspace.NewTextFile("a/z.css", "z")}
	x, err := transfer.Archive(files)
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(files)
	y, _ := transfer.Archive(files)
	if !bytes.Equal(x, y) {
		t.Fatal("archive depends on input order")
	}
	zr, _ := zip.NewReader(bytes.NewReader(x), int64(len(x)))
	if zr.File[0].Name != "a.png" || zr.File[0].Method != zip.Store || zr.File[1].Name != "a/z.css" || zr.File[1].Method != zip.Deflate {
		t.Fatalf("order/method: %s %d %s %d", zr.File[0].Name, zr.File[0].Method, zr.File[1].Name, zr.File[1].Method)
	}
}

func TestArchiveLimits(t *testing.T) {
	many := make([]*workspace.File, transfer.MaxArchiveFiles+1)
	for i := range many {
		many[i] = workspace.NewTextFile("f"+itoa(i)+".txt", "x")
	}
	if _, err := transfer.Archive(many); err == nil || !strings.Contains(err.Error(), "archive limits") {
		t.Fatalf("file limit: %v", err)
	}
	if _, err := transfer.Archive(many[:transfer.MaxArchiveFiles]); err != nil {
		t.Fatalf("at the file limit: %v", err)
	}
	big := make([]byte, transfer.MaxArchiveContentBytes/2+1)
	_, err := transfer.Archive([]*workspace.File{workspace.NewAssetFile("a.png", big), workspace.NewAssetFile("b.png", big)})
	var lim *transfer.ArchiveLimitError
	if err == nil || !trAsLimit(err, &lim) || lim.Bytes != 2*len(big) || lim.Files != 2 {
		t.Fatalf("byte limit: %v", err)
	}
	if _, err := transfer.Archive(nil); err != nil {
		t.Fatalf("empty: %v", err)
	}
	if _, jerr := trMethod(t, session(t, Ports{}, rpcsession.Config{}), MethodWorkspaceArchive, map[string]any{"x": 1}); jerr == nil || jerr.Code != jsonrpc.CodeInvalidParams {
		t.Fatalf("params: %+v", jerr)
	}
}

func trAsLimit(err error, lim **transfer.ArchiveLimitError) bool {
	l, isLim := err.(*transfer.ArchiveLimitError)
	*lim = l
	return isLim
}

func TestArchiveName(t *testing.T) {
	for in, want := range map[string]string{"site": "site.zip", "": "workspace.zip", "a/b\\c": "a_b_c.zip",
		"..": "workspace.zip", " my site ": "my site.zip", "x\x00y": "x_y.zip",
		"..zip": "zip.zip", ".hidden site.": "hidden site.zip", " . ": "workspace.zip"} {
		if got := transfer.ArchiveName(in); got != want {
			t.Errorf("transfer.ArchiveName(%q) = %q, want %q", in, got, want)
		}
	}
}

func trStatus(t *testing.T, s *rpcsession.Session) workspace.Status {
	t.Helper()
	var st workspace.Status
	if err := json.Unmarshal(trCallRaw(t, s, ToolWorkspaceGetStatus, nil), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

func trPaths(t *testing.T, s *rpcsession.Session) []string {
	t.Helper()
	var list struct {
		Files []struct{ Path string } `json:"files"`
	}
	_ = json.Unmarshal(trCallRaw(t, s, ToolWorkspaceListFiles, nil), &list)
	var out []string
	for _, f := range list.Files {
		out = append(out, f.Path)
	}
	return out
}

func TestUploadOneRevisionAndUndo(t *testing.T) {
	s, ev := trSession(t)
	before := trPaths(t, s)
	st := trStatus(t, s)
	pngBytes := trPNG(t, 4, 4)
	res := trUpload(t, s, trB64("logo.png", pngBytes), trB64("fonts/a.woff2", []byte{1, 2, 3}),
		map[string]any{"path": "./notes\\readme.md", "text": "# hi"},
		map[string]any{"path": "index.html", "text": "<h1>replaced</h1><img src=\"logo.png\">"})
	if res.Revision != st.Revision+1 || !res.Changed || len(res.Uploaded) != 4 || len(res.Skipped) != 0 {
		t.Fatalf("result %+v (revision before %d)", res, st.Revision)
	}
	if res.Uploaded[2].Path != "notes/readme.md" || res.Uploaded[3].Replaced != true || res.Uploaded[0].Replaced || res.Uploaded[0].Kind != "asset" || res.Uploaded[0].Size != len(pngBytes) {
		t.Fatalf("uploaded %+v", res.Uploaded)
	}
	if res.ActivePath != st.ActivePath {
		t.Fatalf("active path moved: %s → %s", st.ActivePath, res.ActivePath)
	}
	after := trPaths(t, s)
	for _, p := range before {
		if !slices.Contains(after, p) {
			t.Fatalf("%s removed by the upload", p)
		}
	}
	for _, p := range []string{"logo.png", "fonts/a.woff2", "notes/readme.md"} {
		if !slices.Contains(after, p) {
			t.Fatalf("%s missing after upload: %v", p, after)
		}
	}
	// The preview compiles the uploaded image as a data URL.
	raw, jerr := trMethod(t, s, MethodPreviewExport, nil)
	if jerr != nil || !strings.Contains(string(raw), base64.StdEncoding.EncodeToString(pngBytes)) {
		t.Fatalf("export does not inline the uploaded PNG: %v", jerr)
	}
	// One undo removes every added file and restores the replaced one.
	ok(t, call(t, s.Registry, ToolWorkspaceUndo, nil))
	if got := trPaths(t, s); !slices.Equal(got, before) {
		t.Fatalf("after undo: %v, want %v", got, before)
	}
	var rf struct{ Source string }
	_ = json.Unmarshal(trCallRaw(t, s, ToolWorkspaceReadFile, map[string]any{"path": "index.html"}), &rf)
	if strings.Contains(rf.Source, "replaced") {
		t.Fatal("undo did not restore index.html")
	}
	ok(t, call(t, s.Registry, ToolWorkspaceRedo, nil))
	if got := trPaths(t, s); len(got) != len(before)+3 {
		t.Fatalf("redo: %v", got)
	}
	got := ev.named(MethodWorkspaceUpload)
	if len(got) != 2 || got[1].Type != audit.EventCompleted || !strings.Contains(string(got[0].Request.Arguments), `"files":4`) ||
		strings.Contains(string(got[0].Request.Arguments), "replaced</h1>") {
		t.Fatalf("upload events %+v", got)
	}
	// An identical re-upload changes nothing.
	again := trUpload(t, s, trB64("logo.png", pngBytes))
	if again.Changed || again.Revision != trStatus(t, s).Revision || !again.Uploaded[0].Replaced {
		t.Fatalf("identical re-upload: %+v", again)
	}
}

func TestUploadRefusesEachBadFileAndKeepsOthers(t *testing.T) {
	s, ev := trSession(t)
	pngBytes := trPNG(t, 2, 2)
	res := trUpload(t, s,
		trB64("ok.png", pngBytes),
		trB64("huge.png", make([]byte, workspace.MaxImportAssetBytes+1)),
		map[string]any{"path": "big.txt", "text": strings.Repeat("a", workspace.MaxImportTextBytes+1)},
		map[string]any{"path": ".env", "text": "SECRET=1"},
		map[string]any{"path": ".git/config", "text": "x"},
		map[string]any{"path": "node_modules/x/index.js", "text": "x"},
		map[string]any{"path": "../escape.txt", "text": "x"},
		map[string]any{"path": "", "text": "x"},
		map[string]any{"path": strings.Repeat("p", MaxPathChars+1), "text": "x"},
		trB64("binary.txt", []byte{0xff, 0x00, 0x01}),
		map[string]any{"path": "ok.txt", "text": "fine"},
		map[string]any{"path": "./ok.txt", "text": "again"},
	)
	want := map[string]string{"huge.png": "too-large", "big.txt": "too-large", ".env": "hidden", ".git/config": "hidden",
		"node_modules/x/index.js": "ignored", "../escape.txt": "invalid-path", "": "invalid-path",
		strings.Repeat("p", MaxPathChars): "invalid-path", "binary.txt": "not-text", "ok.txt": "duplicate"}
	if len(res.Skipped) != len(want) {
		t.Fatalf("skipped %d, want %d: %+v", len(res.Skipped), len(want), res.Skipped)
	}
	for _, sk := range res.Skipped {
		if want[sk.Path] != sk.Reason {
			t.Errorf("%q: reason %q, want %q (%s)", sk.Path, sk.Reason, want[sk.Path], sk.Message)
		}
	}
	if len(res.Uploaded) != 2 || res.Uploaded[0].Path != "ok.png" || res.Uploaded[1].Path != "ok.txt" || !res.Changed {
		t.Fatalf("uploaded %+v", res.Uploaded)
	}
	var rf struct{ Source string }
	_ = json.Unmarshal(trCallRaw(t, s, ToolWorkspaceReadFile, map[string]any{"path": "ok.txt"}), &rf)
	if rf.Source != "fine" {
		t.Fatalf("ok.txt = %q (the first of two entries wins)", rf.Source)
	}
	// Nothing lands: a result with every reason, no new revision, a failed trace event.
	rev := trStatus(t, s).Revision
	none := trUpload(t, s, map[string]any{"path": ".hidden", "text": "x"})
	if none.Changed || len(none.Uploaded) != 0 || len(none.Skipped) != 1 || none.Revision != rev {
		t.Fatalf("nothing lands: %+v", none)
	}
	got := ev.named(MethodWorkspaceUpload)
	last := got[len(got)-1]
	if last.Type != audit.EventFailed || last.Result == nil || last.Result.Error == nil || last.Result.Error.Code != mcp.CodeWorkspaceNoSupportedFiles {
		t.Fatalf("failed event %+v", last)
	}
}

func TestUploadParamsAreStrict(t *testing.T) {
	s := session(t, Ports{}, rpcsession.Config{})
	for _, raw := range []string{``, `null`, `[]`, `{}`, `{"files":[]}`, `{"files":{}}`, `{"files":[1]}`,
		`{"files":[{"path":"a.txt"}]}`, `{"files":[{"path":"a.txt","text":"x","base64":"eA=="}]}`,
		`{"files":[{"path":1,"text":"x"}]}`, `{"files":[{"path":"a.txt","text":1}]}`,
		`{"files":[{"path":"a.png","base64":"not base64!"}]}`, `{"files":[{"path":"a.png","base64":"eA=\n="}]}`,
		`{"files":[{"path":"a.png","base64":"eA"}]}`, `{"files":[{"path":"a.txt","text":"x","extra":1}]}`,
		`{"files":[{"path":"a.txt","text":"x"}],"more":1}`, `{"files":[{"path":"a.txt","path":"b.txt","text":"x"}]}`,
		`{"files":[{"path":"a.txt","text":"x"}]`, `{"files":[{"path":"a.txt","text":null}]}`,
	} {
		_, jerr := s.Methods[MethodWorkspaceUpload](context.Background(), json.RawMessage(raw))
		if jerr == nil || jerr.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("%s: %+v, want -32602", raw, jerr)
		}
	}
	var files []map[string]any
	for i := range transfer.MaxUploadFiles + 120 {
		files = append(files, map[string]any{"path": "f" + itoa(i) + ".txt", "text": "x"})
	}
	// Over the limit: typed (code and data), the real count, the method named once.
	_, jerr := trMethod(t, s, MethodWorkspaceUpload, map[string]any{"files": files})
	if jerr == nil || !strings.Contains(jerr.Message, "1..200") || !strings.Contains(jerr.Message, "not 320") ||
		!strings.Contains(jerr.Message, "[WORKSPACE_SOURCE_LIMIT]") || strings.Count(jerr.Message, MethodWorkspaceUpload) != 1 {
		t.Fatalf("320 entries: %+v", jerr)
	}
	if d, _ := json.Marshal(jerr.Data); !strings.Contains(string(d), `"code":"WORKSPACE_SOURCE_LIMIT"`) || !strings.Contains(string(d), `"count":320`) || !strings.Contains(string(d), `"limit":200`) {
		t.Fatalf("320 entries: data %s", d)
	}
	if st := trStatus(t, s); st.FileCount != 4 {
		t.Fatalf("a refused request changed the workspace: %d files", st.FileCount)
	}
}

// BenchmarkArchive: workspace/archive's ZIP of the seed plus a 1 MiB asset and 50 text files.
func BenchmarkArchive(b *testing.B) {
	files := workspace.Seed().Files
	files = append(files, workspace.NewAssetFile("big.png", bytes.Repeat([]byte{1, 2, 3, 4}, 1<<18)))
	for i := range 50 {
		files = append(files, workspace.NewTextFile("pages/p"+itoa(i)+".html", strings.Repeat("<p>hello</p>\n", 400)))
	}
	var n int
	for b.Loop() {
		data, err := transfer.Archive(files)
		if err != nil {
			b.Fatal(err)
		}
		n = len(data)
	}
	b.ReportMetric(float64(n), "zip-bytes")
}

// BenchmarkUploadDecode: DecodeUploadParams on 20 entries of 64 KiB (base64).
func BenchmarkUploadDecode(b *testing.B) {
	var entries []map[string]any
	for i := range 20 {
		entries = append(entries, trB64("f"+itoa(i)+".png", bytes.Repeat([]byte{byte(i)}, 64<<10)))
	}
	raw, _ := json.Marshal(map[string]any{"files": entries})
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if _, err := transfer.DecodeUploadParams(raw); err != nil {
			b.Fatal(err)
		}
	}
}
