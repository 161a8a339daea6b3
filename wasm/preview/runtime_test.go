package preview

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRuntimeScriptIsSafeInAScriptElement: whatever the config holds, the script text never
// closes its element or opens an HTML comment, and the config round-trips as JSON.
func TestRuntimeScriptIsSafeInAScriptElement(t *testing.T) {
	cfg := RuntimeConfig{Revision: 7, Nonce: `</script><!--"'&`, Entry: "a b/ü.html",
		Files:   map[string]RuntimeFile{"x</script>.js": {Type: "text/javascript", Text: "</script><!-- \u2028"}, "i.png": {Type: "image/png", B64: "AAEC"}},
		Storage: &RuntimeStorage{Local: map[string]string{"k": "</SCRIPT>"}}}
	s := RuntimeScript(cfg)
	low := strings.ToLower(s)
	if strings.Contains(low, "</script") || strings.Contains(s, "<!--") {
		t.Fatal("the runtime script can end its element or open a comment")
	}
	i := strings.LastIndex(s, "})(")
	var back map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSuffix(s[i+3:], ");")), &back); err != nil {
		t.Fatalf("config is not JSON: %v", err)
	}
	if back["nonce"] != cfg.Nonce || back["base"] != VirtualOrigin+"/a%20b/%C3%BC.html" || back["csp"] != RuntimePolicy(false) || back["v"].(float64) != 1 {
		t.Fatalf("config %v", back)
	}
}

func TestRuntimePolicy(t *testing.T) {
	off, on := RuntimePolicy(false), RuntimePolicy(true)
	for _, p := range []string{off, on} {
		for _, want := range []string{"default-src 'none'", "form-action 'none'", "object-src blob: data:", "connect-src blob: data:"} {
			if !strings.Contains(p, want) {
				t.Errorf("%q lacks %q", p, want)
			}
		}
		if strings.Contains(p, "http:") || strings.Contains(p, "ws:") || strings.Contains(p, "*") || strings.Contains(p, "127.0.0.1") {
			t.Errorf("policy lets plain http, websockets or loopback through: %q", p)
		}
	}
	if strings.Contains(off, "https:") {
		t.Errorf("internet off but https: allowed: %q", off)
	}
	if !strings.Contains(on, "connect-src blob: data: https:") || !strings.Contains(on, "img-src blob: data: https:") {
		t.Errorf("internet on but https: not allowed: %q", on)
	}
}

// TestIndexedDBShimOnlyWhenUsed: the IndexedDB shim's source is in the document only when a
// text file of the workspace mentions indexedDB.
func TestIndexedDBShimOnlyWhenUsed(t *testing.T) {
	shim := "/*FAKE-IDB-SHIM*/"
	plain := RuntimeScript(RuntimeConfig{Nonce: "n", IndexedDB: shim, Files: map[string]RuntimeFile{"app.js": {Type: "text/javascript", Text: "localStorage.x = 1"}}})
	if strings.Contains(plain, "FAKE-IDB-SHIM") {
		t.Fatal("shim included for a page that does not use indexedDB")
	}
	uses := RuntimeScript(RuntimeConfig{Nonce: "n", IndexedDB: shim, Files: map[string]RuntimeFile{"app.js": {Type: "text/javascript", Text: "indexedDB.open('x')"}}})
	if !strings.Contains(uses, "FAKE-IDB-SHIM") {
		t.Fatal("shim missing for a page that uses indexedDB")
	}
}
