package chromium

import (
	"testing"

	cdplog "github.com/chromedp/cdproto/log"
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

func TestArgDescriptionReadsSmallArraysAndObjectsAsJSON(t *testing.T) {
	str := func(name, v string) *runtime.PropertyPreview {
		return &runtime.PropertyPreview{Name: name, Type: runtime.PropertyPreviewTypeString, Value: v}
	}
	num := func(name, v string) *runtime.PropertyPreview {
		return &runtime.PropertyPreview{Name: name, Type: runtime.PropertyPreviewTypeNumber, Value: v}
	}
	arr := func(overflow bool, ps ...*runtime.PropertyPreview) runtime.RemoteObject {
		return runtime.RemoteObject{Type: runtime.RemoteObjectTypeObject, Subtype: runtime.RemoteObjectSubtypeArray, ClassName: "Array", Description: "Array(" + itoa(len(ps)) + ")", Preview: &runtime.ObjectPreview{Overflow: overflow, Properties: ps}}
	}
	obj := runtime.RemoteObject{Type: runtime.RemoteObjectTypeObject, ClassName: "Object", Description: "Object", Preview: &runtime.ObjectPreview{Properties: []*runtime.PropertyPreview{str("a", `x"y`), num("b", "2"), {Name: "c", Type: runtime.PropertyPreviewTypeObject, Subtype: runtime.PropertyPreviewSubtypeNull, Value: "null"}, {Name: "d", Type: runtime.PropertyPreviewTypeBoolean, Value: "true"}}}}
	nested := arr(false, &runtime.PropertyPreview{Name: "0", Type: runtime.PropertyPreviewTypeObject, Value: "Array(2)"})
	for _, c := range []struct {
		obj  runtime.RemoteObject
		want string
	}{
		{arr(false, str("0", "#960064"), str("1", "#649600"), str("2", "#006496")), `["#960064","#649600","#006496"]`},
		{obj, `{"a":"x\"y","b":2,"c":null,"d":true}`},
		{arr(true, num("0", "1")), "Array(1)"},    // cut preview: V8's description
		{arr(false, num("0", "NaN")), "Array(1)"}, // JSON would say null
		{nested, "Array(1)"}, // nested objects are not in the preview
		{runtime.RemoteObject{Type: runtime.RemoteObjectTypeObject, Subtype: runtime.RemoteObjectSubtypeMap, ClassName: "Map", Description: "Map(0)", Preview: &runtime.ObjectPreview{}}, "Map(0)"},
		{runtime.RemoteObject{Type: runtime.RemoteObjectTypeObject, ClassName: "t.F", Description: "t.F", Preview: &runtime.ObjectPreview{Properties: []*runtime.PropertyPreview{num("code", "4")}}}, `{"code":4}`},
	} {
		if got := argDescription(&c.obj); got != c.want {
			t.Errorf("argDescription(%q) = %q, want %q", c.obj.Description, got, c.want)
		}
	}
}

func itoa(n int) string { return string(rune('0' + n)) }

// The texts are Chromium's (2026-12-07), from a served real site (e2e/realsites: Flat UI's
// GitHub buttons are http: frames of an https: page).
func TestBlockedMixedContentReadsTheBlockedURL(t *testing.T) {
	const page = "Mixed Content: The page at 'https://127.0.0.1:41969/' was loaded over HTTPS, but requested an insecure "
	for _, c := range []struct {
		entry cdplog.Entry
		want  string
	}{
		{cdplog.Entry{Source: cdplog.EntrySourceSecurity, Level: cdplog.EntryLevelError,
			Text: page + "frame 'http://ghbtns.com/github-btn.html?user=designmodo&type=follow&count=true'. This request has been blocked; the content must be served over HTTPS."},
			"http://ghbtns.com/github-btn.html?user=designmodo&type=follow&count=true"},
		{cdplog.Entry{Source: cdplog.EntrySourceSecurity, Level: cdplog.EntryLevelError,
			Text: page + "script 'http://x.test/a.js'. This request has been blocked; the content must be served over HTTPS."},
			"http://x.test/a.js"},
		// Upgraded, not blocked: Chromium requests the https: URL (an ordinary failed request).
		{cdplog.Entry{Source: cdplog.EntrySourceSecurity, Level: cdplog.EntryLevelWarning,
			Text: page + "element 'http://iurevych.github.com/v.mp4'. This request was automatically upgraded to HTTPS, For more information see https://blog.chromium.org/2019/10/no-more-mixed-messages-about-https.html"},
			""},
		{cdplog.Entry{Source: cdplog.EntrySourceNetwork, Level: cdplog.EntryLevelError, Text: "Failed to load resource: net::ERR_NAME_NOT_RESOLVED"}, ""},
		{cdplog.Entry{Source: cdplog.EntrySourceSecurity, Level: cdplog.EntryLevelError, Text: "Mixed Content: has been blocked, no URL"}, ""},
	} {
		if got := blockedMixedContent(&c.entry); got != c.want {
			t.Errorf("blockedMixedContent(%q) = %q, want %q", c.entry.Text, got, c.want)
		}
	}
}
