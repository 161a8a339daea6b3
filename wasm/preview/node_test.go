//go:build !js && !wasip1

package preview

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/preview/jsscan"
)

// These tests run the generated JavaScript under Node.js when it is installed (skipped
// otherwise): inlined classic scripts against their originals. The runtime (RuntimeScript)
// is tested in Chromium (e2e/fidelity), where its DOM and frame APIs exist.

func runNode(t *testing.T, script string, flags ...string) []byte {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "harness.js")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, append(flags, file)...).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	return out
}

const escapeHarness = `
const vm = require('vm');
function run(src) {
  const ctx = vm.createContext({});
  vm.runInContext(src + '\n;globalThis.__r = [a, b, c, d.test("<!--"), d.test("</script>"), d.test("x"), e.test("x"), e.test("--x"), f, typeof g];', ctx);
  return JSON.stringify(ctx.__r);
}
console.log(JSON.stringify([run(%ORIG%), run(%ESC%)]));
`

func TestEscapedClassicScriptSemanticsUnderNode(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "script-escape", "files", "classic.js"))
	if err != nil {
		t.Fatal(err)
	}
	orig := string(src) + "\nvar g = 1 <!-- 2\n;"
	esc := jsscan.EscapeClassicScript(orig)
	if esc == orig || jsscan.HasUnsafeSequence(esc) {
		t.Fatalf("escape did not apply: %q", esc)
	}
	h := strings.NewReplacer("%ORIG%", jsonString(orig), "%ESC%", jsonString(esc)).Replace(escapeHarness)
	var got [2]string
	if err := json.Unmarshal(runNode(t, h), &got); err != nil {
		t.Fatal(err)
	}
	if got[0] != got[1] {
		t.Errorf("escaped script behaves differently:\n orig %s\n esc  %s", got[0], got[1])
	}
}

const parseHarness = `
const vm = require('vm');
const errors = [];
for (const [name, boot, mods] of %CASES%) {
  for (const [key, src] of mods) {
    try { new vm.SourceTextModule(src); } catch (e) { errors.push(name + ' ' + key + ': ' + e.message); }
  }
}
console.log(JSON.stringify(errors));
`

// TestRewrittenModulesParseUnderNode checks that every rewritten module source in the import
// maps of the golden cases parses as a module (one Node process, vm.SourceTextModule).
func TestRewrittenModulesParseUnderNode(t *testing.T) {
	type entry [3]any
	var cases []entry
	for _, name := range []string{"module-cycle", "module-dynamic", "module-limit", "module-specifiers", "masked-imports", "url-encoded", "script-escape", "diagnostics-order"} {
		files := loadWorkspace(t, filepath.Join("testdata", name, "files"))
		r := Compile(files, bridgeOpts)
		for _, s := range generatedScripts(r.HTML)[1:] {
			var m struct{ Imports map[string]string }
			if err := json.Unmarshal([]byte(s), &m); err != nil {
				t.Fatalf("%s: import map: %v", name, err)
			}
			var list [][2]string
			for k, v := range m.Imports {
				const prefix = "data:text/javascript;charset=utf-8;base64,"
				if !strings.HasPrefix(v, prefix) {
					continue
				}
				src, err := base64.StdEncoding.DecodeString(v[len(prefix):])
				if err != nil {
					t.Fatalf("%s: %s: %v", name, k, err)
				}
				list = append(list, [2]string{k, string(src)})
			}
			cases = append(cases, entry{name, "", list})
		}
	}
	if len(cases) < 7 {
		t.Fatalf("only %d import maps found", len(cases))
	}
	data, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	out := runNode(t, strings.Replace(parseHarness, "%CASES%", string(data), 1), "--experimental-vm-modules", "--no-warnings")
	var errs []string
	if err := json.Unmarshal(out, &errs); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, e := range errs {
		t.Error(e)
	}
}
