package chromium

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// WasmExecJS returns the path of the Go toolchain's wasm_exec.js ($GOROOT/lib/wasm, or
// misc/wasm on toolchains before Go 1.24).
func WasmExecJS() (string, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("chromium: go env GOROOT: %w", err)
	}
	root := strings.TrimSpace(string(out))
	for _, p := range []string{filepath.Join(root, "lib", "wasm", "wasm_exec.js"), filepath.Join(root, "misc", "wasm", "wasm_exec.js")} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("chromium: wasm_exec.js not found under %s", root)
}

// BuildTestWasm compiles the tests of pkg (an import path or ./relative path, resolved in
// dir) for GOOS=js GOARCH=wasm into a file under t.TempDir() and returns its path.
func BuildTestWasm(t testing.TB, dir, pkg string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "test.wasm")
	cmd := exec.Command("go", "test", "-c", "-o", out, pkg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=js go test -c %s: %v\n%s", pkg, err, b)
	}
	return out
}

const runnerPage = `<!doctype html><meta charset="utf-8"><title>go wasm test</title>
<script src="/wasm_exec.js"></script>
<script>
window.__out = [];
window.__exit = null;
(function(){
  var dec = new TextDecoder("utf-8"), buf = "";
  var origWrite = globalThis.fs.writeSync;
  globalThis.fs.writeSync = function(fd, b) { buf += dec.decode(b); var nl = buf.lastIndexOf("\n"); if (nl >= 0) { window.__out.push(buf.slice(0, nl + 1)); buf = buf.slice(nl + 1); } return b.length; };
  var go = new Go();
  go.argv = ["test.wasm"].concat(ARGS);
  go.exit = function(code) { if (buf) { window.__out.push(buf); buf = ""; } window.__exit = code; };
  WebAssembly.instantiateStreaming(fetch("/test.wasm"), go.importObject).then(function(r){ return go.run(r.instance); })
    .catch(function(e){ window.__out.push("runner: " + e + "\n"); window.__exit = 99; });
})();
</script>`

// RunGoWasm runs a GOOS=js test binary in a fresh tab with args (e.g. "-test.v") and
// returns its combined output and exit code. It fails the test when the binary does not
// exit within timeout.
func RunGoWasm(t testing.TB, wasmPath string, timeout time.Duration, args ...string) (string, int) {
	t.Helper()
	execJS, err := WasmExecJS()
	if err != nil {
		t.Fatal(err)
	}
	argJSON := "[]"
	if len(args) > 0 {
		q := make([]string, len(args))
		for i, a := range args {
			q[i] = fmt.Sprintf("%q", a)
		}
		argJSON = "[" + strings.Join(q, ",") + "]"
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, strings.Replace(runnerPage, "ARGS", argJSON, 1))
	})
	mux.HandleFunc("/wasm_exec.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		http.ServeFile(w, r, execJS)
	})
	mux.HandleFunc("/test.wasm", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/wasm")
		http.ServeFile(w, r, wasmPath)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	defer srv.Close()

	tab := NewTab(t)
	err = tab.Do(timeout, chromedp.Navigate("http://"+ln.Addr().String()+"/"))
	var exit int
	if err == nil {
		exit, err = WaitFor[int](tab, timeout, "window.__exit === null ? false : window.__exit + 1")
		exit--
	}
	out, _ := Eval[[]string](tab, 5*time.Second, "window.__out")
	if err != nil {
		t.Fatalf("go wasm test did not finish: %v\noutput:\n%s", err, strings.Join(out, ""))
	}
	return strings.Join(out, ""), exit
}
