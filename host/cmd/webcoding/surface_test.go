package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestSurfaceUsageErrors: --surface values and combinations that cannot run are usage errors
// (exit 2) before the host is asked anything.
func TestSurfaceUsageErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"call", "--surface", "live", "--autosave"}, "drop --autosave"},
		{[]string{"mcp", "--surface", "live", "--autosave"}, "drop --autosave"},
		{[]string{"agent", "--surface", "live", "--save", "Reset the document"}, "drop --save"},
		{[]string{"agent", "--surface", "live", "--provider", "openrouter", "Reset the document"}, "local agent only"},
		{[]string{"tools", "--surface", "editor"}, "must be studio, realtime or live"},
		{[]string{"call", "--surface", "realtime", "--dir", dir}, "drop --dir"},
		{[]string{"call", "--surface", "realtime", "--autosave"}, "drop --autosave"},
		{[]string{"mcp", "--surface", "realtime", "--dir", dir}, "drop --dir"},
		{[]string{"mcp", "--surface", "realtime", "--autosave"}, "drop --autosave"},
		{[]string{"agent", "--surface", "realtime", "--save", "Make it emerald"}, "drop --save"},
		{[]string{"agent", "--surface", "realtime", "--provider", "openrouter", "Make it emerald"}, "local agent only"},
	}
	for _, c := range cases {
		f := &fakeHost{}
		code, out, stderr := runCLI(t, f, "", c.args...)
		if code != exitUsage || out != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 saying %q", c.args, code, out, stderr, c.want)
		}
		if len(f.requests) != 0 {
			t.Errorf("%v: the host was asked %d requests before the usage error", c.args, len(f.requests))
		}
	}
}

// TestSurfaceSelectsTheCatalog: --surface realtime configures the session's catalog before
// anything is listed or called; the default (studio) sends no catalog.
func TestSurfaceSelectsTheCatalog(t *testing.T) {
	f := &fakeHost{pages: []string{`{"tools":[]}`}}
	if code, _, stderr := runCLI(t, f, "", "tools", "--surface", "realtime"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !reflect.DeepEqual(f.configs, []string{`{"catalog":"realtime"}`}) {
		t.Fatalf("configures %q", f.configs)
	}
	f = &fakeHost{pages: []string{`{"tools":[]}`}}
	if code, _, stderr := runCLI(t, f, "", "tools"); code != 0 || len(f.configs) != 0 {
		t.Fatalf("default surface: exit %d, configures %q: %s", code, f.configs, stderr)
	}
	f = &fakeHost{}
	if code, _, stderr := runCLI(t, f, `{"name":"web.getWorkspace"}`+"\n", "call", "--surface", "realtime"); code != 0 {
		t.Fatalf("call: exit %d: %s", code, stderr)
	}
	if len(f.configs) != 1 || !strings.Contains(f.configs[0], `"catalog":"realtime"`) {
		t.Fatalf("call configures %q", f.configs)
	}
}

// TestRealtimeSurfaceThroughTheModule runs the realtime surface in the real module: the eight
// tools, a guarded call sequence with a stale refusal, the local agent with and without
// understanding.
func TestRealtimeSurfaceThroughTheModule(t *testing.T) {
	code, out, stderr := runCLI(t, nil, "", "tools", "--surface", "realtime")
	if code != 0 {
		t.Fatalf("tools: exit %d: %s", code, stderr)
	}
	var list struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	want := []string{"web.getWorkspace", "web.readFile", "web.writeFile", "web.applyPatch", "web.setTheme",
		"web.addFeature", "web.updateHero", "web.runPreview"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("tools %v", names)
	}

	in := strings.Join([]string{
		`{"name":"web.getWorkspace"}`,
		`{"name":"web.setTheme","arguments":{"theme":"amber","expectedRevision":2}}`,
		`{"name":"web.updateHero","arguments":{"title":"T","subtitle":"S","expectedRevision":2}}`,
		`{"name":"web.runPreview"}`,
	}, "\n") + "\n"
	code, out, stderr = runCLI(t, nil, in, "call", "--surface", "realtime")
	if code != 0 {
		t.Fatalf("call: exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 { // no unsaved line: the surface has no folder
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	type result struct {
		IsError           bool           `json:"isError"`
		StructuredContent map[string]any `json:"structuredContent"`
	}
	var rs [4]result
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &rs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if rs[1].IsError || rs[1].StructuredContent["revision"] != float64(3) {
		t.Fatalf("setTheme: %s", lines[1])
	}
	if !rs[2].IsError || rs[2].StructuredContent["code"] != "WORKSPACE_REVISION_CONFLICT" || rs[2].StructuredContent["retryable"] != true {
		t.Fatalf("stale updateHero: %s", lines[2])
	}
	pv := rs[3].StructuredContent["preview"].(map[string]any)
	if pv["state"] != "compiled" || pv["revision"] != float64(3) || pv["runtime"] != "headless (not executed)" {
		t.Fatalf("runPreview: %s", lines[3])
	}

	code, out, stderr = runCLI(t, nil, "", "agent", "--surface", "realtime", "--approve", "web.setTheme", "Make it rose")
	if code != 0 || !strings.Contains(out, `"summary":"Done: web.getWorkspace, web.setTheme.`) {
		t.Fatalf("agent: exit %d\n%s\n%s", code, out, stderr)
	}
	code, out, _ = runCLI(t, nil, "", "agent", "--surface", "realtime", "Make the button bigger")
	if code != exitHost || !strings.Contains(out, `"notUnderstood":true`) {
		t.Fatalf("not understood: exit %d\n%s", code, out)
	}
}

// TestLiveSurfaceThroughTheModule runs the Live Code Editor in the real module (wazero): the
// eleven tools; the canonical order over a --dir folder with both clocks, a stale refusal and
// a direct save that lands on disk; the local agent with and without understanding.
func TestLiveSurfaceThroughTheModule(t *testing.T) {
	code, out, stderr := runCLI(t, nil, "", "tools", "--surface", "live")
	if code != 0 {
		t.Fatalf("tools: exit %d: %s", code, stderr)
	}
	var list struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	want := []string{"editor.getStatus", "editor.listFiles", "editor.openFile", "editor.saveFile", "editor.saveAll",
		"editor.getDocument", "editor.getPreviewStatus", "editor.setDocument", "editor.applyPatch", "editor.setScenario", "editor.resetDocument"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("tools %v", names)
	}

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<p>hi</p>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "style.css"), []byte("p { color: red; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := strings.Join([]string{
		`{"name":"editor.getStatus"}`,
		`{"name":"editor.listFiles"}`,
		`{"name":"editor.openFile","arguments":{"path":"style.css","expectedRevision":1}}`,
		`{"name":"editor.setDocument","arguments":{"source":"p { color: blue; }\n","expectedRevision":2}}`,
		`{"name":"editor.getPreviewStatus"}`,
		`{"name":"editor.applyPatch","arguments":{"search":"blue","replace":"green","occurrence":"first","expectedRevision":2}}`,
		`{"name":"editor.saveFile","arguments":{"path":"style.css"}}`,
	}, "\n") + "\n"
	code, out, stderr = runCLI(t, nil, in, "call", "--surface", "live", "--dir", dir)
	if code != 0 {
		t.Fatalf("call: exit %d: %s\n%s", code, stderr, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 7 {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	type result struct {
		IsError           bool           `json:"isError"`
		StructuredContent map[string]any `json:"structuredContent"`
	}
	rs := make([]result, len(lines))
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &rs[i]); err != nil {
			t.Fatal(err)
		}
	}
	clocks := func(i int, ws, doc float64) {
		t.Helper()
		if rs[i].IsError || rs[i].StructuredContent["workspaceRevision"] != ws || rs[i].StructuredContent["documentRevision"] != doc {
			t.Fatalf("line %d: want workspace %v document %v: %s", i, ws, doc, lines[i])
		}
	}
	clocks(0, 3, 1)
	if rs[1].IsError || rs[1].StructuredContent["workspaceRevision"] != float64(3) {
		t.Fatalf("listFiles: %s", lines[1])
	}
	clocks(2, 3, 2)
	clocks(3, 4, 3)
	if pv := rs[4].StructuredContent; pv["state"] != "compiled" || pv["revision"] != float64(3) || pv["runtime"] != "headless (not executed)" {
		t.Fatalf("acknowledgement: %s", lines[4])
	}
	if !rs[5].IsError || rs[5].StructuredContent["code"] != "WORKSPACE_REVISION_CONFLICT" || rs[5].StructuredContent["retryable"] != true {
		t.Fatalf("stale applyPatch: %s", lines[5])
	}
	clocks(6, 4, 3)
	if b, err := os.ReadFile(filepath.Join(dir, "style.css")); err != nil || string(b) != "p { color: blue; }\n" {
		t.Fatalf("style.css on disk: %q %v", b, err)
	}

	code, out, stderr = runCLI(t, nil, "", "agent", "--surface", "live", "--approve", "editor.setScenario", "Switch to the blocked scenario")
	if code != 0 || !strings.Contains(out, `"summary":"Done: editor.getDocument, editor.setScenario.`) {
		t.Fatalf("agent: exit %d\n%s\n%s", code, out, stderr)
	}
	code, out, _ = runCLI(t, nil, "", "agent", "--surface", "live", "Make the button bigger")
	if code != exitHost || !strings.Contains(out, `"notUnderstood":true`) {
		t.Fatalf("not understood: exit %d\n%s", code, out)
	}
}
