package chromium

import (
	"testing"

	"github.com/chromedp/cdproto/runtime"
)

func TestArgDescriptionDropsErrorStackFrames(t *testing.T) {
	for _, c := range []struct {
		obj  runtime.RemoteObject
		want string
	}{
		{runtime.RemoteObject{Subtype: runtime.RemoteObjectSubtypeError, Description: "TypeError: Failed to fetch\n    at http://127.0.0.1:1/demo.js:243:26"}, "TypeError: Failed to fetch"},
		{runtime.RemoteObject{Subtype: runtime.RemoteObjectSubtypeError, Description: "Error: two\nlines\n    at f (http://127.0.0.1:1/a.js:1:1)\n    at g"}, "Error: two\nlines"},
		{runtime.RemoteObject{Subtype: runtime.RemoteObjectSubtypeError, Description: "Error: no stack"}, "Error: no stack"},
		{runtime.RemoteObject{Subtype: runtime.RemoteObjectSubtypeNode, Description: "div#a\n    at x"}, "div#a\n    at x"},
	} {
		if got := argDescription(&c.obj); got != c.want {
			t.Errorf("argDescription(%q) = %q, want %q", c.obj.Description, got, c.want)
		}
	}
}
