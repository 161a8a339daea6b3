package audit

import "testing"

// TestFingerprintKnownValues pins the persisted form of Fingerprint: durable records store
// these strings, so any change to the stable serialization (key order, number form, string
// escaping) would orphan them. The values were computed before the string encoder moved to
// wasm/jsonstring (issue 19) and must never change.
func TestFingerprintKnownValues(t *testing.T) {
	for _, c := range []struct{ tool, args, want string }{
		{"workspace.writeFile", `{"path":"index.html","source":"<h1>Hi & bye</h1>"}`, "fnv1a64:91221279a20fc908:70"},
		{"workspace.writeFile", `{"source":"line1\nline2\t\"q\" \\ \b\f\r\u0001\u001f","path":"a.js"}`, "fnv1a64:858107183b30742d:88"},
		{"workspace.applyPatch", `{"search":"\u2028\u2029 é 한국어 😀","replace":"<>&'","path":"x"}`, "fnv1a64:f4a2a4faef6fb192:86"},
		{"workspace.readFile", `{"n":[1,1.0,1e0,10e-1,-0,1e21,1.5e-7,123456789012345678901234567890],"z":null,"t":true}`, "fnv1a64:4726989ec0ffda33:90"},
		{"workspace.getStatus", ``, "fnv1a64:53602f9db78a4918:22"},
		{"workspace.getStatus", `{"b":{"d":1,"c":[{"y":2,"x":"\ud83d\ude00"}]},"a":""}`, "fnv1a64:14fe5c757756c3dd:65"},
		{"bad", `{"unterminated":`, "fnv1a64:457261004c3e0701:29"},
	} {
		if got := Fingerprint(c.tool, []byte(c.args)); got != c.want {
			t.Errorf("Fingerprint(%s, %s) = %s, want %s", c.tool, c.args, got, c.want)
		}
	}
}
