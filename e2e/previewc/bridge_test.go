package previewc_test

import (
	"reflect"
	"testing"
)

// TestBridgeRunsBeforeHiddenScript: issue 13 item 8 — a script hidden from a hand tokenizer
// inside <svg><style> (where <style> is not raw text) runs only after the bridge installed
// itself: it sees the bridge's window property.
func TestBridgeRunsBeforeHiddenScript(t *testing.T) {
	s := site{
		"index.html": `<!doctype html><svg><style><script>window.L=["hidden:"+("__webcodingPreviewBridge" in window)];</script></style></svg>` +
			`<html><head><script>window.L=window.L||[];addEventListener("load",function(){setTimeout(function(){window["top"].postMessage({probe:L},"*")},50)})</script></head><body>x</body></html>`,
	}
	want := []string{"hidden:true"}
	if got := inPreview(t, s); !reflect.DeepEqual(got, want) {
		t.Errorf("in the preview: %q, want %q (the hidden script ran before the bridge)", got, want)
	}
}
