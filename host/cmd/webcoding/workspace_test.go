package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/workspace"
)

// These run the CLI's workspace commands against the real module (TestMain builds it once)
// over folders on disk: the folder host functions, DirFolder and the studio catalog end to end.

// seedCopy writes the built-in seed workspace (REFERENCE §1, canvas-landing) into a fresh
// directory and returns it.
func seedCopy(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "site")
	for _, f := range workspace.Seed().Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.Source), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// tree returns every regular file under dir (slash path → content).
func tree(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == ".webcoding" {
			return filepath.SkipDir // the folder lock and save journal, not workspace content
		}
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTree(t *testing.T, got, want map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("files %v, want %v", keys(got), keys(want))
	}
	for p, s := range want {
		if got[p] != s {
			t.Fatalf("%s changed on disk:\n%.300s", p, got[p])
		}
	}
}

func keys(m map[string]string) []string {
	var k []string
	for p := range m {
		k = append(k, p)
	}
	return k
}

// runCLIReader is runCLI with any stdin reader against the real module.
func runCLIReader(t *testing.T, stdin io.Reader, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: stdin, stdout: &out, stderr: &errb, getenv: func(k string) string {
		if k == "WEBCODING_MODULE" {
			return testModule
		}
		return ""
	}, newHost: openHost}
	code = run(context.Background(), args, e)
	return code, out.String(), errb.String()
}

// stepReader hands out one line per Read and runs a step's hook before its line, so a test
// can change the disk between two calls of one `call` command.
type stepReader struct {
	steps []step
	buf   []byte
}

type step struct {
	before func()
	line   string
}

func (r *stepReader) Read(p []byte) (int, error) {
	if len(r.buf) == 0 {
		if len(r.steps) == 0 {
			return 0, io.EOF
		}
		s := r.steps[0]
		r.steps = r.steps[1:]
		if s.before != nil {
			s.before()
		}
		r.buf = []byte(s.line + "\n")
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// lines splits stdout into JSON lines.
func lines(t *testing.T, out string) []json.RawMessage {
	t.Helper()
	var ls []json.RawMessage
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if l == "" {
			continue
		}
		if !json.Valid([]byte(l)) {
			t.Fatalf("not a JSON line: %q", l)
		}
		ls = append(ls, json.RawMessage(l))
	}
	return ls
}

func result(t *testing.T, raw json.RawMessage) *mcp.CallToolResult {
	t.Helper()
	var r mcp.CallToolResult
	if err := json.Unmarshal(raw, &r); err != nil || r.ToolCallID == "" || r.Content == nil {
		t.Fatalf("not a result line (%v): %s", err, raw)
	}
	return &r
}

func errCode(r *mcp.CallToolResult) mcp.Code {
	if r.Error == nil {
		return ""
	}
	return r.Error.Code
}

type summaryLine struct {
	Summary       string `json:"summary"`
	Failed        bool   `json:"failed"`
	NotUnderstood bool   `json:"notUnderstood"`
	ErrorCode     string `json:"errorCode"`
	Saved         bool   `json:"saved"`
	Unsaved       *struct {
		DirtyPaths []string `json:"dirtyPaths"`
	} `json:"unsaved"`
	Message string `json:"message"`
}

// agentOutput parses `agent` stdout: call lines {request, result} and the summary line.
func agentOutput(t *testing.T, out string) (calls []agentCall, sum summaryLine) {
	t.Helper()
	ls := lines(t, out)
	if len(ls) == 0 {
		t.Fatal("no output")
	}
	for _, l := range ls[:len(ls)-1] {
		var c agentCall
		if isTextLine(l) {
			continue // streamed text (streamedText reads it)
		}
		if err := json.Unmarshal(l, &c); err != nil || c.Request == nil || c.Result == nil {
			t.Fatalf("not a call line: %s", l)
		}
		calls = append(calls, c)
	}
	if err := json.Unmarshal(ls[len(ls)-1], &sum); err != nil || sum.Summary == "" {
		t.Fatalf("not a summary line: %s", ls[len(ls)-1])
	}
	return calls, sum
}

const (
	emeraldAccent = "--accent: #10b981;"
	emeraldSoft   = "--accent-soft: #e7fbf3;"
)

// TestAgentEmeraldSavesToDisk is issue 3's done-when: the agent with --approve all --save
// changes styles.css in a copy of the seed on disk to the emerald tokens.
func TestAgentEmeraldSavesToDisk(t *testing.T) {
	dir := seedCopy(t)
	before := tree(t, dir)
	code, out, stderr := runCLIReader(t, strings.NewReader(""), "agent", "--dir", dir, "--approve", "all", "--save", "Make it emerald")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	calls, sum := agentOutput(t, out)
	if sum.Failed || !sum.Saved || sum.Unsaved != nil || sum.Message != "" {
		t.Fatalf("summary %+v", sum)
	}
	last := calls[len(calls)-1]
	var req mcp.CallToolParams
	json.Unmarshal(last.Request, &req)
	if req.Name != "workspace.saveAll" || result(t, last.Result).IsError {
		t.Fatalf("last call %s → %s", last.Request, last.Result)
	}
	css := tree(t, dir)["styles.css"]
	if !strings.Contains(css, emeraldAccent) || !strings.Contains(css, emeraldSoft) {
		t.Fatalf("styles.css on disk:\n%s", css)
	}
	after := tree(t, dir)
	delete(after, "styles.css")
	delete(before, "styles.css")
	sameTree(t, after, before)
}

// TestAgentWithoutSaveWritesNothing: the same run without --save leaves the disk untouched,
// and the summary says the change was not written.
func TestAgentWithoutSaveWritesNothing(t *testing.T) {
	dir := seedCopy(t)
	before := tree(t, dir)
	code, out, stderr := runCLIReader(t, strings.NewReader(""), "agent", "--dir", dir, "--approve", "all", "Make it emerald")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	calls, sum := agentOutput(t, out)
	if sum.Failed || sum.Saved || sum.Unsaved == nil || len(sum.Unsaved.DirtyPaths) != 1 || sum.Unsaved.DirtyPaths[0] != "styles.css" ||
		!strings.Contains(sum.Message, "not written") || !strings.Contains(sum.Message, "--save") {
		t.Fatalf("summary %+v", sum)
	}
	for _, c := range calls {
		if strings.Contains(string(c.Request), "workspace.saveAll") {
			t.Fatal("saveAll ran without --save")
		}
	}
	sameTree(t, tree(t, dir), before)
}

// TestAgentApprovalsApplyToSave: approvals decide both the agent's calls and --save's saveAll.
func TestAgentApprovalsApplyToSave(t *testing.T) {
	t.Run("none", func(t *testing.T) {
		dir := seedCopy(t)
		before := tree(t, dir)
		code, out, _ := runCLIReader(t, strings.NewReader(""), "agent", "--dir", dir, "--save", "Make it emerald")
		_, sum := agentOutput(t, out)
		// The run did not do what was asked: exit 1 (issue 14), the report still on stdout.
		if code != 1 || !sum.Failed || sum.ErrorCode != string(mcp.CodeToolApprovalRequired) || sum.Saved ||
			!strings.Contains(sum.Message, "not run because the run failed") {
			t.Fatalf("exit %d, summary %+v", code, sum)
		}
		sameTree(t, tree(t, dir), before)
	})
	t.Run("theme only", func(t *testing.T) {
		dir := seedCopy(t)
		before := tree(t, dir)
		code, out, _ := runCLIReader(t, strings.NewReader(""), "agent", "--dir", dir, "--approve", "preview.setTheme", "--save", "Make it emerald")
		calls, sum := agentOutput(t, out)
		save := result(t, calls[len(calls)-1].Result)
		if code != 0 || sum.Failed || sum.Saved || errCode(save) != mcp.CodeToolApprovalRequired ||
			!strings.Contains(sum.Message, "not written") {
			t.Fatalf("exit %d, save %+v, summary %+v", code, save.Error, sum)
		}
		sameTree(t, tree(t, dir), before)
	})
}

// TestAgentNotUnderstoodExitsNonZero (issue 14 item 6): a request the local agent does not
// understand runs no call, says so with what it can do, and exits 1; an understood everyday
// request ("delete app.js") runs and exits 0.
func TestAgentNotUnderstoodExitsNonZero(t *testing.T) {
	code, out, stderr := runCLIReader(t, strings.NewReader(""), "agent", "--approve", "all", "Make the layout feel more premium")
	if code != 1 || !strings.Contains(stderr, "did not understand") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	calls, sum := agentOutput(t, out)
	if len(calls) != 0 || !sum.Failed || !sum.NotUnderstood || !strings.Contains(sum.Summary, "It can:") {
		t.Fatalf("calls %d, summary %+v", len(calls), sum)
	}
	code, out, stderr = runCLIReader(t, strings.NewReader(""), "agent", "--approve", "all", "delete app.js")
	if code != 0 {
		t.Fatalf("delete app.js: exit %d: %s", code, stderr)
	}
	calls, sum = agentOutput(t, out)
	var last mcp.CallToolParams
	json.Unmarshal(calls[len(calls)-1].Request, &last)
	if sum.Failed || last.Name != "workspace.deleteFile" {
		t.Fatalf("delete app.js: last call %s, summary %+v", last.Name, sum)
	}
}

// TestAgentOnTheSeed: without --dir the seed is used and nothing can be saved.
func TestAgentOnTheSeed(t *testing.T) {
	code, out, stderr := runCLIReader(t, strings.NewReader(""), "agent", "--approve", "all", "Make it emerald")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, sum := agentOutput(t, out)
	if sum.Failed || sum.Saved || !strings.Contains(sum.Message, "no --dir") {
		t.Fatalf("summary %+v", sum)
	}
}

func writeFileLine(path, source string) string {
	b, _ := json.Marshal(map[string]any{"name": "workspace.writeFile", "arguments": map[string]any{"path": path, "source": source}})
	return string(b)
}

func createFileLine(path, source string) string {
	b, _ := json.Marshal(map[string]any{"name": "workspace.createFile", "arguments": map[string]any{"path": path, "source": source}})
	return string(b)
}

const (
	saveAllLine = `{"name":"workspace.saveAll"}`
	newCSS      = ":root { --accent: #123456; }\n"
)

// TestCallDirEditsLiveInMemoryUntilSaveAll: writeFile alone changes nothing on disk and the
// last line says so; writeFile + saveAll writes the file.
func TestCallDirEditsLiveInMemoryUntilSaveAll(t *testing.T) {
	dir := seedCopy(t)
	before := tree(t, dir)
	code, out, stderr := runCLIReader(t, strings.NewReader(writeFileLine("styles.css", newCSS)+"\n"), "call", "--dir", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	ls := lines(t, out)
	if len(ls) != 2 || result(t, ls[0]).IsError {
		t.Fatalf("output:\n%s", out)
	}
	var last struct {
		Unsaved struct {
			DirtyPaths []string `json:"dirtyPaths"`
		} `json:"unsaved"`
		Message string `json:"message"`
	}
	if json.Unmarshal(ls[1], &last) != nil || len(last.Unsaved.DirtyPaths) != 1 || !strings.Contains(last.Message, "not written to "+dir) {
		t.Fatalf("last line %s", ls[1])
	}
	sameTree(t, tree(t, dir), before)

	code, out, stderr = runCLIReader(t, strings.NewReader(writeFileLine("styles.css", newCSS)+"\n"+saveAllLine+"\n"), "call", "--dir", dir)
	ls = lines(t, out)
	if code != 0 || len(ls) != 2 || result(t, ls[0]).IsError || result(t, ls[1]).IsError {
		t.Fatalf("exit %d, output:\n%s%s", code, out, stderr)
	}
	if got := tree(t, dir)["styles.css"]; got != newCSS {
		t.Fatalf("styles.css = %q", got)
	}
}

// TestCallAutosave: every successful mutation is written back in the same command.
func TestCallAutosave(t *testing.T) {
	dir := seedCopy(t)
	var seen []string
	r := &stepReader{steps: []step{
		{line: writeFileLine("styles.css", newCSS)},
		{before: func() { seen = append(seen, tree(t, dir)["styles.css"]) }, line: `{"name":"workspace.deleteFile","arguments":{"path":"README.md"}}`},
		{before: func() {
			_, ok := tree(t, dir)["README.md"]
			seen = append(seen, map[bool]string{true: "readme", false: "gone"}[ok])
		}, line: `{"name":"workspace.readFile","arguments":{"path":"nope.css"}}`},
	}}
	code, out, stderr := runCLIReader(t, r, "call", "--dir", dir, "--autosave")
	ls := lines(t, out)
	if code != 0 || len(ls) != 3 {
		t.Fatalf("exit %d, %d lines (no unsaved line expected):\n%s%s", code, len(ls), out, stderr)
	}
	if len(seen) != 2 || seen[0] != newCSS || seen[1] != "gone" {
		t.Fatalf("disk between calls: %q", seen)
	}
	if !result(t, ls[2]).IsError {
		t.Fatal("reading a missing file succeeded")
	}
}

// TestCallDeleteAndSaveAll removes the file on disk.
func TestCallDeleteAndSaveAll(t *testing.T) {
	dir := seedCopy(t)
	code, out, _ := runCLIReader(t, strings.NewReader(`{"name":"workspace.deleteFile","arguments":{"path":"README.md"}}`+"\n"+saveAllLine+"\n"), "call", "--dir", dir)
	ls := lines(t, out)
	if code != 0 || len(ls) != 2 || result(t, ls[0]).IsError || result(t, ls[1]).IsError {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if _, ok := tree(t, dir)["README.md"]; ok {
		t.Fatal("README.md still on disk")
	}
}

// TestCallReloadFolderAndStaleRoot: reloadFolder picks up a change made on disk between calls;
// a folder removed meanwhile makes saveAll fail with WORKSPACE_FOLDER_STALE.
func TestCallReloadFolderAndStaleRoot(t *testing.T) {
	dir := seedCopy(t)
	r := &stepReader{steps: []step{
		{line: `{"name":"workspace.readFile","arguments":{"path":"app.js"}}`},
		{before: func() {
			if err := os.WriteFile(filepath.Join(dir, "app.js"), []byte("console.log('disk');\n"), 0o644); err != nil {
				t.Error(err)
			}
		}, line: `{"name":"workspace.reloadFolder"}`},
		{line: `{"name":"workspace.readFile","arguments":{"path":"app.js"}}`},
		{line: writeFileLine("app.js", "x();\n")},
		{before: func() { os.RemoveAll(dir) }, line: saveAllLine},
	}}
	code, out, stderr := runCLIReader(t, r, "call", "--dir", dir)
	ls := lines(t, out)
	if code != 0 || len(ls) < 5 {
		t.Fatalf("exit %d:\n%s%s", code, out, stderr)
	}
	for i := 0; i < 4; i++ {
		if res := result(t, ls[i]); res.IsError {
			t.Fatalf("line %d: %+v", i+1, res.Error)
		}
	}
	if !strings.Contains(string(result(t, ls[2]).StructuredContent), "console.log('disk')") {
		t.Fatalf("readFile after reloadFolder: %s", result(t, ls[2]).StructuredContent)
	}
	if c := errCode(result(t, ls[4])); c != mcp.CodeWorkspaceFolderStale {
		t.Fatalf("saveAll on a removed folder: %s", ls[4])
	}
}

// TestCallPathEscapesAreRefused: "../x", an absolute path and a symlink that leaves the folder
// write nothing outside it.
func TestCallPathEscapesAreRefused(t *testing.T) {
	dir := seedCopy(t)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Skip("symlinks:", err)
	}
	stdin := createFileLine("../x.css", "a{}") + "\n" +
		createFileLine("a/../../x.css", "a{}") + "\n" +
		createFileLine(filepath.Join(outside, "abs.css"), "a{}") + "\n" +
		createFileLine("out/x.css", "a{}") + "\n" +
		saveAllLine + "\n"
	code, out, stderr := runCLIReader(t, strings.NewReader(stdin), "call", "--dir", dir, "--autosave")
	ls := lines(t, out)
	if code != 0 || len(ls) < 5 {
		t.Fatalf("exit %d:\n%s%s", code, out, stderr)
	}
	for i := 0; i < 2; i++ {
		if c := errCode(result(t, ls[i])); c != mcp.CodeWorkspacePathInvalid {
			t.Errorf("line %d: %s, want WORKSPACE_PATH_INVALID", i+1, ls[i])
		}
	}
	// An absolute path is normalized into the workspace (leading "/" dropped): it stays inside.
	if res := result(t, ls[2]); res.IsError {
		t.Errorf("absolute path: %s", ls[2])
	}
	// The symlinked path lands in the workspace, but writing it to disk is refused (the
	// folder's ErrFolderPathEscapes surfaces as WORKSPACE_PATH_INVALID): the createFile line
	// is an error result saying the change was applied but --autosave could not write it
	// (issue 14: never a success with a note), the explicit saveAll fails the same way, and
	// the last line reports it unsaved.
	if r := result(t, ls[3]); errCode(r) != mcp.CodeWorkspacePathInvalid || !strings.Contains(r.Error.Message, "--autosave could not write") {
		t.Errorf("createFile through a symlink with --autosave: %s", ls[3])
	}
	if c := errCode(result(t, ls[4])); c != mcp.CodeWorkspacePathInvalid {
		t.Errorf("saveAll through a symlink that leaves the folder: %s", ls[4])
	}
	if len(ls) != 6 || !strings.Contains(string(ls[5]), `"out/x.css"`) {
		t.Errorf("unsaved line missing:\n%s\n%s", out, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(filepath.ToSlash(outside), "/")), "abs.css")); err != nil {
		t.Errorf("the absolute path was not saved inside the folder: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Fatalf("written outside the folder: %v", entries)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "x.css")); err == nil {
		t.Fatal("../x.css written beside the folder")
	}
}

// TestCallDownloads: downloadFile writes into --downloads DIR; without it the tool reports
// that there is no download target.
func TestCallDownloads(t *testing.T) {
	dl := filepath.Join(t.TempDir(), "dl")
	line := `{"name":"workspace.downloadFile","arguments":{"path":"README.md"}}` + "\n"
	code, out, _ := runCLIReader(t, strings.NewReader(line), "call", "--downloads", dl)
	if ls := lines(t, out); code != 0 || result(t, ls[0]).IsError {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	got, err := os.ReadFile(filepath.Join(dl, "README.md"))
	want := workspace.Seed().Files
	found := false
	for _, f := range want {
		if f.Path == "README.md" {
			found = string(got) == f.Source
		}
	}
	if err != nil || !found {
		t.Fatalf("download: %v %q", err, got)
	}
	code, out, _ = runCLIReader(t, strings.NewReader(line), "call")
	if r := result(t, lines(t, out)[0]); code != 0 || !r.IsError || !strings.Contains(string(r.StructuredContent), "no-download-target") {
		t.Fatalf("without --downloads: %s", out)
	}
}

// TestPreviewAndExport: preview prints the compile summary and writes the document; export
// writes the standalone HTML.
func TestPreviewAndExport(t *testing.T) {
	dir := seedCopy(t)
	doc := filepath.Join(t.TempDir(), "preview.html")
	code, out, stderr := runCLIReader(t, strings.NewReader(""), "preview", "--dir", dir, "--out", doc)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var p struct {
		Entry       string            `json:"entry"`
		Revision    int64             `json:"revision"`
		Diagnostics []json.RawMessage `json:"diagnostics"`
		Bytes       int               `json:"bytes"`
	}
	var keys map[string]json.RawMessage
	json.Unmarshal([]byte(out), &keys)
	if err := json.Unmarshal([]byte(out), &p); err != nil || len(keys) != 4 || p.Entry != "index.html" || p.Revision < 1 || p.Diagnostics == nil {
		t.Fatalf("stdout %s", out)
	}
	html, err := os.ReadFile(doc)
	if err != nil || len(html) != p.Bytes || !strings.Contains(string(html), "--accent") {
		t.Fatalf("document: %v, %d bytes, want %d", err, len(html), p.Bytes)
	}

	exp := filepath.Join(t.TempDir(), "export.html")
	code, out, stderr = runCLIReader(t, strings.NewReader(""), "export", "--dir", dir, "--out", exp)
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	html, err = os.ReadFile(exp)
	if err != nil || !strings.Contains(string(html), "--accent") || !strings.Contains(string(html), "hero-button") || strings.Contains(string(html), `src="app.js"`) {
		t.Fatalf("export: %v\n%.400s", err, html)
	}
	if !strings.Contains(out, `"bytes":`) {
		t.Fatalf("export stdout %q", out)
	}
	// Without --dir: the seed.
	if code, out, _ := runCLIReader(t, strings.NewReader(""), "preview"); code != 0 || !strings.Contains(out, `"entry":"index.html"`) {
		t.Fatalf("preview on the seed: exit %d %s", code, out)
	}
}

// TestExportDiagnostics: export reports the broken references it leaves (preview/compile's
// diagnostics) in its output line and as stderr warnings, and refuses an --out inside --dir.
func TestExportDiagnostics(t *testing.T) {
	dir := seedCopy(t)
	page := filepath.Join(dir, "index.html")
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(b), "</body>", `<img src="missing.png"></body>`, 1)
	if err := os.WriteFile(page, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	exp := filepath.Join(t.TempDir(), "export.html")
	code, out, stderr := runCLIReader(t, strings.NewReader(""), "export", "--dir", dir, "--out", exp)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Out         string `json:"out"`
		Bytes       int    `json:"bytes"`
		Diagnostics []struct {
			Kind          string `json:"kind"`
			SourcePath    string `json:"sourcePath"`
			RequestedPath string `json:"requestedPath"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Out != exp || len(res.Diagnostics) != 1 {
		t.Fatalf("stdout %s", out)
	}
	if d := res.Diagnostics[0]; d.Kind != "missing-reference" || d.RequestedPath != "missing.png" || d.SourcePath != "index.html" {
		t.Fatalf("diagnostic %+v", d)
	}
	if html, err := os.ReadFile(exp); err != nil || len(html) != res.Bytes {
		t.Fatalf("export file: %v, %d bytes, want %d", err, len(html), res.Bytes)
	}
	if strings.Count(stderr, "warning:") != 1 || !strings.Contains(stderr, "missing.png") {
		t.Fatalf("stderr %q", stderr)
	}

	before := tree(t, dir)
	for _, inside := range []string{filepath.Join(dir, "export.html"), filepath.Join(dir, "sub", "..", "index.html"), dir} {
		code, out, stderr := runCLIReader(t, strings.NewReader(""), "export", "--dir", dir, "--out", inside)
		if code != exitUsage || out != "" || !strings.Contains(stderr, "inside --dir") {
			t.Errorf("--out %s: exit %d, stdout %q, stderr %q", inside, code, out, stderr)
		}
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err == nil {
		if code, _, stderr := runCLIReader(t, strings.NewReader(""), "export", "--dir", dir, "--out", filepath.Join(link, "x.html")); code != exitUsage {
			t.Errorf("--out through a link into --dir: exit %d: %s", code, stderr)
		}
	}
	sameTree(t, tree(t, dir), before)
}

// TestExitStatuses: 0 when the command ran (tool errors are results), 2 for bad flags (call's
// --dir that does not exist), 1 for host failures (the other commands' --dir that does not
// exist).
func TestExitStatuses(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"call", "--dir", missing}, exitUsage},
		{[]string{"agent", "--dir", missing, "hi"}, exitUsage},
		{[]string{"preview", "--dir", missing}, exitUsage},
		{[]string{"export", "--dir", missing, "--out", filepath.Join(t.TempDir(), "x.html")}, exitUsage},
		{[]string{"mcp", "--dir", missing}, exitUsage},
		{[]string{"export"}, exitUsage},
		{[]string{"agent"}, exitUsage},
		{[]string{"agent", "--save=maybe", "x"}, exitUsage},
		{[]string{"preview", "--bogus"}, exitUsage},
	} {
		code, _, stderr := runCLIReader(t, strings.NewReader(""), c.args...)
		if code != c.want || stderr == "" {
			t.Errorf("%q: exit %d (%q), want %d", c.args, code, stderr, c.want)
		}
	}
	if _, _, stderr := runCLIReader(t, strings.NewReader(""), "call", "--dir", missing); !strings.Contains(stderr, "webcoding call: --dir "+missing+": no such directory\n") {
		t.Errorf("call --dir missing: stderr %q", stderr)
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLIReader(t, strings.NewReader(""), "call", "--dir", file); code != exitUsage || !strings.Contains(stderr, "--dir "+file+": not a directory") {
		t.Errorf("call --dir FILE: exit %d, stderr %q", code, stderr)
	}
	code, out, _ := runCLIReader(t, strings.NewReader(`{"name":"workspace.readFile","arguments":{"path":"nope"}}`+"\n"), "call", "--dir", seedCopy(t))
	if code != exitOK || !result(t, lines(t, out)[0]).IsError {
		t.Fatalf("a tool error: exit %d %s", code, out)
	}
}

// TestCallResetRefusedWithDir: --dir is a linked folder, so workspace.reset refuses as in the
// browser with a folder linked (SPEC §3), and getStatus reports the folder.
func TestCallResetRefusedWithDir(t *testing.T) {
	dir := seedCopy(t)
	before := tree(t, dir)
	code, out, _ := runCLIReader(t, strings.NewReader(`{"name":"workspace.reset"}`+"\n"+`{"name":"workspace.getStatus"}`+"\n"), "call", "--dir", dir)
	ls := lines(t, out)
	if code != 0 || len(ls) != 2 || errCode(result(t, ls[0])) != mcp.CodeWorkspaceFolderStateConflict {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	var st struct {
		RootName   string `json:"rootName"`
		Filesystem struct {
			Mode         string `json:"mode"`
			FolderLinked bool   `json:"folderLinked"`
			Permission   string `json:"permission"`
		} `json:"filesystem"`
	}
	if json.Unmarshal(result(t, ls[1]).StructuredContent, &st) != nil || st.RootName != "site" || !st.Filesystem.FolderLinked ||
		st.Filesystem.Mode != "local-folder" || st.Filesystem.Permission != "granted" {
		t.Fatalf("status %s", ls[1])
	}
	sameTree(t, tree(t, dir), before)
}

// TestToolsOutputKeepsEveryField: `tools` (decoded through registry.ListAllTools) prints
// exactly what the module's tools/list pages hold.
func TestToolsOutputKeepsEveryField(t *testing.T) {
	code, out, stderr := runCLIReader(t, strings.NewReader(""), "tools")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	h, err := openHost(context.Background(), &env{getenv: func(string) string { return testModule }, stderr: io.Discard}, &hostFlags{timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(context.Background())
	c := &rpcClient{h: h}
	var raw []json.RawMessage
	var params []byte
	for {
		res, rerr, err := c.call(context.Background(), "tools/list", params)
		if err != nil || rerr != nil {
			t.Fatal(err, rerr)
		}
		var p struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		}
		json.Unmarshal(res, &p)
		raw = append(raw, p.Tools...)
		if p.NextCursor == "" {
			break
		}
		params, _ = json.Marshal(map[string]string{"cursor": p.NextCursor})
	}
	var got struct{ Tools []json.RawMessage }
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Tools) != len(raw) || len(raw) != 26 {
		t.Fatalf("%d tools printed, %d listed: %v", len(got.Tools), len(raw), err)
	}
	for i := range raw {
		var a, b any
		json.Unmarshal(raw[i], &a)
		json.Unmarshal(got.Tools[i], &b)
		if !cmp.Equal(a, b) {
			t.Fatalf("tool %d differs:\n%s", i, cmp.Diff(a, b))
		}
	}
}
