//go:build !js && !wasip1

package preview

import (
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

const bootstrapHarness = `
const vm = require('vm');
const BOOT = %BOOT%;
async function run(rejectWith) {
  const blobs = [], revoked = [], appended = [], listeners = {}, timers = [], tracked = [], imported = [];
  let n = 0;
  const doc = {
    head: { appendChild(el) { appended.push({ type: el.type, text: el.textContent }); } },
    documentElement: null,
    createElement(tag) { return { tag, type: '', textContent: '' }; },
  };
  const win = {
    addEventListener(type, fn) { (listeners[type] = listeners[type] || []).push(fn); },
    __webcodingPreviewBridge: { track(p) { tracked.push(p); } },
  };
  const ctx = vm.createContext({
    window: win, document: doc,
    URL: { createObjectURL(b) { blobs.push(b); return 'blob:test/' + (n++); }, revokeObjectURL(u) { revoked.push(u); } },
    Blob: function (parts, opts) { this.text = parts.join(''); this.type = opts.type; },
    setTimeout(fn) { timers.push(fn); },
    __import(u) { imported.push(u); return rejectWith ? Promise.reject(new Error(rejectWith)) : Promise.resolve({}); },
  });
  vm.runInContext(BOOT.replace('import(urls[root])', '__import(urls[root])'), ctx);
  await new Promise((r) => setImmediate(r));
  let thrown = null;
  for (const t of timers) { try { t(); } catch (e) { thrown = e.message; } }
  (listeners.pagehide || []).forEach((fn) => fn());
  return { blobs: blobs.map((b) => ({ text: b.text, type: b.type })), revoked, appended, imported, tracked: tracked.length, thrown };
}
(async () => { console.log(JSON.stringify({ ok: await run(''), bad: await run('boom') })); })()
  .catch((e) => { console.error(e); process.exit(1); });
`

func TestModuleBootstrapUnderNode(t *testing.T) {
	files := []File{
		htmlFile("index.html", `<head></head><script type="module" src="src/main.js"></script>`),
		js("src/main.js", `import { a } from './card file.js'; console.log(a, "</script><!--");`),
		js("src/card file.js", `import './main.js'; export const a = 1;`),
	}
	r := Compile(files, bridgeOpts)
	scripts := generatedScripts(r.HTML)
	if len(scripts) != 2 {
		t.Fatalf("want bridge + one bootstrap, got %d scripts", len(scripts))
	}
	out := runNode(t, strings.Replace(bootstrapHarness, "%BOOT%", jsonString(scripts[1]), 1))
	type blob struct{ Text, Type string }
	type run struct {
		Blobs    []blob
		Revoked  []string
		Appended []struct{ Type, Text string }
		Imported []string
		Tracked  int
		Thrown   *string
	}
	var got struct{ Ok, Bad run }
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	main := ModuleSpecifierPrefix + "src/main.js"
	card := ModuleSpecifierPrefix + "src/card%20file.js"
	ok := got.Ok
	if len(ok.Blobs) != 2 || ok.Blobs[0].Type != "text/javascript" ||
		ok.Blobs[0].Text != `import { a } from '`+card+`'; console.log(a, "</script><!--");` ||
		ok.Blobs[1].Text != `import '`+main+`'; export const a = 1;` {
		t.Errorf("blobs = %+v", ok.Blobs)
	}
	if len(ok.Appended) != 1 || ok.Appended[0].Type != "importmap" ||
		ok.Appended[0].Text != `{"imports":{"`+main+`":"blob:test/0","`+card+`":"blob:test/1"}}` {
		t.Errorf("import map = %+v", ok.Appended)
	}
	if strings.Join(ok.Imported, ",") != "blob:test/0" || ok.Tracked != 1 || ok.Thrown != nil {
		t.Errorf("import %v tracked %d thrown %v", ok.Imported, ok.Tracked, ok.Thrown)
	}
	if strings.Join(ok.Revoked, ",") != "blob:test/0,blob:test/1" {
		t.Errorf("revoked on pagehide = %v", ok.Revoked)
	}
	if got.Bad.Thrown == nil || *got.Bad.Thrown != "boom" || got.Bad.Tracked != 1 {
		t.Errorf("a rejected root import must be tracked and re-thrown asynchronously: %+v", got.Bad)
	}
}

const parseHarness = `
const vm = require('vm');
const errors = [];
for (const [name, boot, mods] of %CASES%) {
  try { new vm.Script(boot); } catch (e) { errors.push(name + ' bootstrap: ' + e.message); }
  for (const [key, src] of mods) {
    try { new vm.SourceTextModule(src); } catch (e) { errors.push(name + ' ' + key + ': ' + e.message); }
  }
}
console.log(JSON.stringify(errors));
`

// TestRewrittenModulesParseUnderNode checks that every bootstrap parses as a classic script
// and every rewritten module source as a module (one Node process, vm.SourceTextModule).
func TestRewrittenModulesParseUnderNode(t *testing.T) {
	type entry [3]any
	var cases []entry
	for _, name := range []string{"module-cycle", "module-dynamic", "module-limit", "module-specifiers", "masked-imports", "url-encoded", "script-escape", "diagnostics-order"} {
		files := loadWorkspace(t, filepath.Join("testdata", name, "files"))
		r := Compile(files, bridgeOpts)
		for _, s := range generatedScripts(r.HTML)[1:] {
			start := strings.Index(s, "var modules=") + len("var modules=")
			end := strings.Index(s, ",root=")
			var mods map[string]string
			if err := json.Unmarshal([]byte(s[start:end]), &mods); err != nil {
				t.Fatalf("%s: module map: %v", name, err)
			}
			var list [][2]string
			for k, v := range mods {
				list = append(list, [2]string{k, v})
			}
			cases = append(cases, entry{name, s, list})
		}
	}
	if len(cases) < 8 {
		t.Fatalf("only %d bootstraps found", len(cases))
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
