package audit_test

import (
	"encoding/json"
	"fmt"

	"github.com/webcoding/studio/wasm/audit"
)

func ExampleRedactJSON() {
	details := json.RawMessage(`{"path":"index.html","apiKey":"sk-or-v1-secret","files":[{"source":"<h1>hi</h1>"}]}`)
	fmt.Println(string(audit.RedactJSON(details)))
	// Output:
	// {"apiKey":"[apiKey redacted]","files":[{"source":"[source redacted]"}],"path":"index.html"}
}

func ExampleFingerprint() {
	a := audit.Fingerprint("workspace.getFile", json.RawMessage(`{"path":"index.html","line":1.0}`))
	b := audit.Fingerprint("workspace.getFile", json.RawMessage(`{"line":1,"path":"index.html"}`))
	fmt.Println(a == b, a)
	// Output:
	// true fnv1a64:d880d62610f7adf9:48
}

func ExampleSafeArgumentPreview() {
	fmt.Println(audit.SafeArgumentPreview(json.RawMessage(`{"path":"styles.css","theme":"dark","source":"body{}"}`)))
	// Output:
	// path: styles.css · theme: dark
}
