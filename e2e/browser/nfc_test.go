package browser

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/unicode/norm"

	"github.com/webcoding/studio/e2e/chromium"
)

// nfcSamples are strings whose NFC form is not themselves or that sit on NFC's edges:
// decomposed Latin (one and several marks, marks out of canonical order), Hangul jamo and
// syllables, singletons (Ångström and Ohm signs), a CJK compatibility ideograph, composition
// exclusions (Devanagari qa, Hebrew with dagesh), Greek with tonos and dialytika, Vietnamese
// with two marks, and text NFC leaves alone.
var nfcSamples = []string{
	"cafe\u0301.html", "café.html", "A\u030a", "\u212b", "\u2126", "o\u0308\u0304", "o\u0304\u0308",
	"a\u0323\u0302", "a\u0302\u0323", "e\u0323\u0302", "\u1100\u1161", "\u1100\u1161\u11a8", "한국어/메모.html",
	"\u1112\u1161\u11ab\u1100\u1173\u11af", "\uf900", "\u0915\u093c", "\u05e9\u05bc\u05c1", "\u03b9\u0308\u0301",
	"\u0391\u0301", "Vie\u0323\u0302t Nam", "ﬁle.css", "plain/ascii-name.js", "\U0001d15e", "\u0f73",
	"\u00e9\u0301", "s\u0323\u0307", "\u1e9b\u0323", "x\u0328\u0301\u0323",
}

// TestNFCMatchesXText: the page compares file names under the browser's NFC
// (String.prototype.normalize, wasm/cmd/browser/nfc.go) while native and wasip1 builds use
// golang.org/x/text (docs/design.md §5.19); both give the same form for every sample, and the
// page refuses a decomposed "café.html" beside the composed one, as the CLI does.
func TestNFCMatchesXText(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	in, _ := json.Marshal(nfcSamples)
	var got []string
	got, err := chromium.Eval[[]string](tab, 10*time.Second, ``+string(in)+`.map(s => s.normalize("NFC"))`)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range nfcSamples {
		if want := norm.NFC.String(s); got[i] != want {
			t.Errorf("NFC(%+q): browser %+q, x/text %+q", s, got[i], want)
		}
	}
	if res := toolCall(t, tab, "workspace.createFile", `{"path":"caf\u00e9.html","source":"<p>composed</p>"}`); res["isError"] == true {
		t.Fatalf("creating café.html (NFC): %v", toJSON(res))
	}
	res := toolCall(t, tab, "workspace.createFile", `{"path":"cafe\u0301.html","source":"<p>decomposed</p>"}`)
	if res["isError"] != true || !strings.Contains(toJSON(res), `"name-collision"`) {
		t.Fatalf("creating café.html (NFD) beside the NFC one: want WORKSPACE_FILE_CONFLICT name-collision, got %v", toJSON(res))
	}
}
