package previewc_test

import (
	"encoding/base64"
	"strings"
	"testing"
)

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func TestMeasureLoads(t *testing.T) {
	deferJS := `L.push("defer:"+(document.getElementById("b")?"body":"nobody")+":"+document.readyState);`
	mod := `import d from "https://workspace.invalid/d.json" with {type:"json"}; L.push("mod:"+document.readyState+":"+d.v+":"+import.meta.url.slice(0,10));`
	imap := `{"imports":{"https://workspace.invalid/m.js":"data:text/javascript;base64,` + b64(mod) + `","https://workspace.invalid/d.json":"data:application/json;base64,` + b64(`{"v":7}`) + `"}}`
	doc := `<!doctype html><html><head>` + probeScript +
		`<script type="importmap">` + imap + `</script>` +
		`<script type="module">import "https://workspace.invalid/m.js";L.push("inline-mod")</script>` +
		`<script src="data:text/javascript;base64,` + b64(deferJS) + `" defer></script>` +
		`<script>L.push("classic")</script>` +
		`</head><body><p id="b">x</p></body></html>`
	got := runInFrame(t, doc)
	t.Logf("%s", strings.Join(got, " | "))
}
