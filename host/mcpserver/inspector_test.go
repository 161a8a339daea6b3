package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// InspectorVersion is the MCP Inspector pinned for the independent-client test. Checked on
// Node v20.20: 0.16.0 and later declare engines.node >= 22.7.5 and are not used; 0.15.0
// declares no engines and its CLI runs on Node 20.
const InspectorVersion = "0.15.0"

// inspectorBin installs the pinned Inspector into the user cache (once; later runs reuse it)
// and returns its mcp-inspector executable. Without node or npm, or when the install fails,
// the test is skipped — unless $CI is set, where it fails.
func inspectorBin(t *testing.T) string {
	t.Helper()
	missing := func(format string, args ...any) string {
		t.Helper()
		if os.Getenv("CI") != "" {
			t.Fatalf("MCP Inspector test cannot run in CI: "+format, args...)
		}
		t.Skipf("MCP Inspector test skipped: "+format, args...)
		return ""
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			return missing("%s is not installed", tool)
		}
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "webcoding", "mcp-inspector-"+InspectorVersion)
	bin := filepath.Join(dir, "node_modules", ".bin", "mcp-inspector")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--no-save", "--prefix", dir,
		"@modelcontextprotocol/inspector@"+InspectorVersion).CombinedOutput()
	if err != nil {
		return missing("npm install @modelcontextprotocol/inspector@%s: %v\n%s", InspectorVersion, err, out)
	}
	if _, err := os.Stat(bin); err != nil {
		return missing("npm installed no mcp-inspector executable: %v", err)
	}
	return bin
}

// runInspector runs the Inspector's CLI mode against `webcoding mcp ARGS...` and decodes its
// JSON output.
func runInspector(t *testing.T, bin string, serverArgs []string, method ...string) map[string]any {
	t.Helper()
	args := append([]string{"--cli", webcodingBinary(t), "mcp", "--module", testModule}, serverArgs...)
	args = append(args, method...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("inspector %v: %v\nstdout:\n%s\nstderr:\n%s", method, err, out, stderr.String())
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("inspector output is not JSON: %v\n%s", err, out)
	}
	return v
}

// The MCP Inspector, an independent client started as a new user would, lists and calls the
// tools against a real folder.
func TestInspectorCLI(t *testing.T) {
	bin := inspectorBin(t)
	dir := seedFolder(t)
	server := []string{"--dir", dir, "--approve", "workspace_writeFile", "--autosave"}

	list := runInspector(t, bin, server, "--method", "tools/list")
	tools, _ := list["tools"].([]any)
	if len(tools) != wantTools {
		t.Fatalf("inspector lists %d tools, want %d", len(tools), wantTools)
	}
	names := map[string]bool{}
	for _, tl := range tools {
		m, _ := tl.(map[string]any)
		name, _ := m["name"].(string)
		names[name] = true
		if m["inputSchema"] == nil || m["annotations"] == nil {
			t.Errorf("%s: schema or annotations missing", name)
		}
	}
	if !names["workspace_readFile"] || !names["preview_getStatus"] {
		t.Fatalf("provider names missing: %v", names)
	}

	read := runInspector(t, bin, server, "--method", "tools/call", "--tool-name", "workspace_readFile", "--tool-arg", "path=index.html")
	sc, _ := read["structuredContent"].(map[string]any)
	if read["isError"] == true || sc["path"] != "index.html" || !strings.Contains(sc["source"].(string), "<h1>Hi</h1>") {
		t.Fatalf("readFile through the inspector: %v", read)
	}

	refused := runInspector(t, bin, server, "--method", "tools/call", "--tool-name", "workspace_createFile",
		"--tool-arg", "path=new.css", "--tool-arg", "source=p{}")
	if refused["isError"] != true || !strings.Contains(jsonString(refused["content"]), "--approve workspace_createFile") {
		t.Fatalf("createFile without approval: %v", refused)
	}

	wrote := runInspector(t, bin, server, "--method", "tools/call", "--tool-name", "workspace_writeFile",
		"--tool-arg", "path=styles.css", "--tool-arg", "source=h1{color:purple}")
	if wrote["isError"] == true {
		t.Fatalf("writeFile: %v", wrote)
	}
	if got := readDisk(t, filepath.Join(dir, "styles.css")); got != "h1{color:purple}" {
		t.Fatalf("autosave through the inspector wrote %q", got)
	}
}
