package fidelity

import (
	"slices"
	"testing"
	"time"

	"github.com/webcoding/studio/e2e/chromium"
)

// TestDialogsAsServed: alert, confirm and prompt show in the preview as over HTTP (the
// sandbox allows modals), with the page's own texts, and the page goes on once each is
// accepted — seen by the tab's dialog recorder, which e2e/realsites compares ("dialogs").
func TestDialogsAsServed(t *testing.T) {
	s := server(t)
	files := map[string]string{"index.html": `<!doctype html><title>d</title>` + probe + `<script>
addEventListener("load", function () {
  alert("saved");
  log("confirm " + confirm("delete?"));
  log("prompt " + prompt("name?", "x"));
  log("done");
});
</script>`}
	addSite("dialogs", files)
	want := []string{"alert: saved", "confirm: delete?", "prompt: name?"}

	served := chromium.NewTab(t)
	served.AcceptDialogs()
	if err := served.Do(20*time.Second, navigate(s.URL+"/site/dialogs/")); err != nil {
		t.Fatal(err)
	}
	out, err := chromium.WaitFor[string](served, 10*time.Second, `(function(){ var t = (document.getElementById("out") || {}).textContent || ""; return /done/.test(t) ? t : ""; })()`)
	if err != nil || out != "confirm true\nprompt \ndone\n" { // accepted without a text: ""
		t.Fatalf("served: %q %v %q", out, err, served.Dialogs())
	}
	if got := served.Dialogs(); !slices.Equal(got, want) {
		t.Errorf("served dialogs %q, want %q", got, want)
	}

	tab := openParent(t)
	tab.AcceptDialogs()
	mount(t, tab, "dialogs", 1, "n-dialogs", "")
	waitAck(t, tab, 1)
	if _, err := chromium.WaitInFrame[string](tab, 10*time.Second, `(document.getElementById("out") || {}).textContent`, out); err != nil {
		t.Fatalf("preview: %v %q", err, tab.Dialogs())
	}
	if got := tab.Dialogs(); !slices.Equal(got, want) {
		t.Errorf("preview dialogs %q, want %q", got, want)
	}
}
