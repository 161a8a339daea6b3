package toolcatalog

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

// TestParseArgumentsRefusesRepeatedKeys: {"path":"index.html","path":"app.js"} is refused
// with a reason that names the key (it used to run silently with app.js), as are other
// inputs the registry's strict guard refuses.
func TestParseArgumentsRefusesRepeatedKeys(t *testing.T) {
	_, err := ParseArguments(json.RawMessage(`{"path":"index.html","path":"app.js"}`))
	var ae *ArgumentsError
	if !errors.As(err, &ae) || !strings.Contains(ae.Error(), "repeats a key") || !strings.Contains(ae.Error(), `"path"`) {
		t.Fatalf("repeated key: %v", err)
	}
	if _, err := ParseArguments(json.RawMessage(`{"a":{"b":1,"b":2}}`)); err == nil {
		t.Fatal("a nested repeated key was accepted")
	}
	if _, err := ParseArguments(json.RawMessage("{\"path\":\"\xff\"}")); err == nil {
		t.Fatal("invalid UTF-8 was accepted")
	}
	if got, err := ParseArguments(json.RawMessage(` {"path": "index.html", "n\u0061me": "x"} `)); err != nil || string(got) != `{"name":"x","path":"index.html"}` {
		t.Fatalf("valid arguments: %s %v", got, err)
	}
}

// TestRunConfirmation: read-only tools run without asking; every other tool asks "Run <tool>
// on the workspace?" and names the existing file it would modify — workspace.writeFile's
// generated sample (index.html, "Sample text") is not destructive but overwrites a file.
func TestRunConfirmation(t *testing.T) {
	tools, _ := studioTools(t)
	byName := map[string]mcp.Tool{}
	for _, tool := range tools {
		byName[tool.Name] = tool
	}
	exists := func(p string) bool { return p == "index.html" }
	if c := RunConfirmation(byName["workspace.readFile"], json.RawMessage(`{"path":"index.html"}`), exists); c != nil {
		t.Fatalf("a read-only tool asks: %+v", c)
	}
	wf := byName["workspace.writeFile"]
	if Destructive(wf) || ReadOnly(wf) {
		t.Fatalf("writeFile annotations %+v", wf.Annotations)
	}
	c := RunConfirmation(wf, json.RawMessage(`{"path":"index.html","source":"Sample text"}`), exists)
	if c == nil || c.Title != "Run workspace.writeFile on the workspace?" || c.Danger ||
		!strings.Contains(c.Text, "modify the existing file index.html") {
		t.Fatalf("writeFile over index.html: %+v", c)
	}
	if c := RunConfirmation(wf, json.RawMessage(`{"path":"new.txt","source":"x"}`), exists); c == nil || strings.Contains(c.Text, "existing") {
		t.Fatalf("writeFile of a new file: %+v", c)
	}
	if c := RunConfirmation(byName["workspace.deleteFile"], json.RawMessage(`{"path":"index.html"}`), exists); c == nil || !c.Danger || !strings.Contains(c.Text, "destructive") {
		t.Fatalf("deleteFile: %+v", c)
	}
	for _, tool := range tools {
		if c := RunConfirmation(tool, json.RawMessage(`{}`), nil); (c == nil) != ReadOnly(tool) {
			t.Errorf("%s: asks=%v, read-only=%v", tool.Name, c != nil, ReadOnly(tool))
		}
	}
}
