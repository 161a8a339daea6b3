package sitebuild

import (
	"strings"
	"testing"
)

// FuzzFillIndex: fillIndex never panics; on success every {{BASE}}, {{BUILD}} and
// {{ASSET:…}} placeholder is gone and every known asset reference became its hashed name; an
// error names an unknown or unterminated asset placeholder.
func FuzzFillIndex(f *testing.F) {
	f.Add(`<base href="{{BASE}}"><script src="{{ASSET:js/main.js}}"></script>`)
	f.Add(`{{ASSET:nope}}`)
	f.Add(`{{ASSET:`)
	f.Add(`{{ASSET:studio.wasm}}{{ASSET:studio.wasm}}{{BUILD}}`)
	f.Add(`{{ASSET:{{ASSET:js/main.js}}}}`)
	rep := Report{Build: "abcdef012345", Assets: map[string]string{
		"js/main.js": "assets/main.11111111.js", "studio.wasm": "assets/studio.22222222.wasm"}}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := fillIndex([]byte(in), "/web-coding/", rep)
		if err != nil {
			if !strings.Contains(err.Error(), "asset") && !strings.Contains(err.Error(), "{{ASSET:") {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		s := string(out)
		if strings.Contains(in, "{{ASSET:") && strings.Count(s, "{{ASSET:") >= strings.Count(in, "{{ASSET:") {
			t.Fatalf("asset placeholders left: %q → %q", in, s)
		}
		if !strings.Contains(in, "{{") && s != strings.NewReplacer().Replace(in) {
			t.Fatalf("text without placeholders changed: %q → %q", in, s)
		}
	})
}
