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
// otherwise): the bridge runtime against a fake window, and inlined classic scripts against
// their originals.

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

const bridgeHarness = `
const vm = require('vm');
const BRIDGE = %BRIDGE%;
async function scenario(steps) {
  const messages = [], listeners = {}, timers = [];
  let consoleCalls = 0;
  const win = {
    parent: { postMessage(m, origin) { messages.push({origin, ...JSON.parse(JSON.stringify(m))}); } },
    addEventListener(type, fn) { (listeners[type] = listeners[type] || []).push(fn); },
    console: { log() { consoleCalls++; }, warn() { consoleCalls++; }, error() { consoleCalls++; } },
  };
  const ctx = vm.createContext({ window: win, setTimeout: (fn) => timers.push(fn) });
  vm.runInContext(BRIDGE, ctx);
  const tick = () => new Promise((r) => setImmediate(r));
  const fire = (type, ev) => (listeners[type] || []).forEach((fn) => fn(ev));
  const flush = async () => { await tick(); while (timers.length) { timers.shift()(); await tick(); } };
  const api = { win, fire, flush, tick, ctx, resolveLater: null };
  await steps(api);
  return { messages, consoleCalls };
}
(async () => {
  const out = {};
  out.ready = await scenario(async (a) => { a.fire('load', {}); await a.flush(); });
  out.readyNeedsLoad = await scenario(async (a) => { await a.flush(); });
  out.errorFirst = await scenario(async (a) => {
    a.fire('error', { message: 'boom' }); a.fire('error', { message: 'second' });
    a.fire('unhandledrejection', { reason: new Error('third') }); a.fire('load', {}); await a.flush();
  });
  out.errorDefault = await scenario(async (a) => { a.fire('error', {}); await a.flush(); });
  out.errorLong = await scenario(async (a) => { a.fire('error', { message: '\u{1F600}'.repeat(300) }); });
  out.rejectionDefault = await scenario(async (a) => { a.fire('unhandledrejection', { reason: undefined }); });
  out.rejectionString = await scenario(async (a) => { a.fire('unhandledrejection', { reason: 'plain reason' }); });
  out.trackReject = await scenario(async (a) => {
    a.win.__webcodingPreviewBridge.track(Promise.reject(new Error('Missing local module import: ./x.js')));
    a.fire('load', {}); await a.flush();
  });
  out.trackPending = await scenario(async (a) => {
    let resolve; const p = new Promise((r) => { resolve = r; });
    a.win.__webcodingPreviewBridge.track(p);
    a.fire('load', {}); await a.flush();
    a.win.parent.postMessage({ type: 'marker' }, 'test');
    resolve(); await a.flush();
  });
  out.loadHandlerError = await scenario(async (a) => {
    a.fire('load', {}); a.fire('error', { message: 'from a later load handler' }); await a.flush();
  });
  out.console = await scenario(async (a) => {
    for (let i = 0; i < 150; i++) a.win.console.log('x'.repeat(1000), i, { k: i });
    a.win.console.warn('w'); a.win.console.error(new Error('e'));
  });
  out.consoleLevels = await scenario(async (a) => {
    a.win.console.log('l', 1, null, [1, 2]); a.win.console.warn('w'); a.win.console.error(new TypeError('bad'));
  });
  out.globalReadOnly = await scenario(async (a) => {
    try { a.win.__webcodingPreviewBridge = null; } catch (e) {}
    a.win.parent.postMessage({ type: String(typeof a.win.__webcodingPreviewBridge.track) }, 'test');
  });
  console.log(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
`

type bridgeMsg struct {
	Origin   string `json:"origin"`
	Type     string `json:"type"`
	Revision int64  `json:"revision"`
	Nonce    string `json:"nonce"`
	Message  string `json:"message"`
	Level    string `json:"level"`
	Text     string `json:"text"`
}

type bridgeRun struct {
	Messages     []bridgeMsg `json:"messages"`
	ConsoleCalls int         `json:"consoleCalls"`
}

func TestBridgeRuntimeUnderNode(t *testing.T) {
	s := BridgeScript(9, "mount-nonce")
	body := strings.TrimSuffix(strings.TrimPrefix(s, "<script "+BridgeAttr+">"), "</script>")
	out := runNode(t, strings.Replace(bridgeHarness, "%BRIDGE%", jsonString(body), 1))
	var runs map[string]bridgeRun
	if err := json.Unmarshal(out, &runs); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	types := func(name string) []string {
		var ts []string
		for _, m := range runs[name].Messages {
			ts = append(ts, m.Type)
		}
		return ts
	}
	expectTypes := func(name string, want ...string) {
		t.Helper()
		if got := types(name); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: message types %v, want %v", name, got, want)
		}
	}
	expectTypes("ready", MessageReady)
	if m := runs["ready"].Messages[0]; m.Revision != 9 || m.Nonce != "mount-nonce" || m.Origin != "*" {
		t.Errorf("ready message = %+v", m)
	}
	expectTypes("readyNeedsLoad")
	expectTypes("errorFirst", MessageError)
	if m := runs["errorFirst"].Messages[0]; m.Message != "boom" || m.Revision != 9 || m.Nonce != "mount-nonce" {
		t.Errorf("error message = %+v", m)
	}
	expectTypes("errorDefault", MessageError)
	if got := runs["errorDefault"].Messages[0].Message; got != DefaultErrorMessage {
		t.Errorf("default error = %q", got)
	}
	if got := runs["errorLong"].Messages[0].Message; got != strings.Repeat("\U0001F600", MaxErrorMessageChars) {
		t.Errorf("long error has %d code points, want %d", len([]rune(got)), MaxErrorMessageChars)
	}
	if got := runs["rejectionDefault"].Messages[0].Message; got != DefaultRejectionMessage {
		t.Errorf("default rejection = %q", got)
	}
	if got := runs["rejectionString"].Messages[0].Message; got != "plain reason" {
		t.Errorf("string rejection = %q", got)
	}
	expectTypes("trackReject", MessageError)
	if got := runs["trackReject"].Messages[0].Message; got != "Missing local module import: ./x.js" {
		t.Errorf("tracked rejection = %q", got)
	}
	expectTypes("trackPending", "marker", MessageReady)
	expectTypes("loadHandlerError", MessageError)
	c := runs["console"]
	if len(c.Messages) != MaxConsoleMessages || c.ConsoleCalls != 152 {
		t.Errorf("console: %d messages (want %d), %d original calls (want 152)", len(c.Messages), MaxConsoleMessages, c.ConsoleCalls)
	}
	for _, m := range c.Messages {
		if m.Type != MessageConsole || m.Level != "log" || len([]rune(m.Text)) != MaxConsoleTextChars {
			t.Fatalf("console message %+v (text %d chars)", m.Type, len([]rune(m.Text)))
		}
	}
	levels := runs["consoleLevels"].Messages
	if len(levels) != 3 || levels[0].Text != "l 1 null [1,2]" || levels[1].Level != "warn" || levels[2].Level != "error" || levels[2].Text != "TypeError: bad" {
		t.Errorf("console levels = %+v", levels)
	}
	expectTypes("globalReadOnly", "function")
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
