package chromium

import (
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestMain(m *testing.M) {
	code := m.Run()
	Shutdown()
	os.Exit(code)
}

// TestEvalInFrameSeesThePageGlobals: EvalInFrame evaluates in the sandboxed child frame's
// main world in both process models — the headless shell keeps the frame in the page's
// process (the frame tree path), Chromium gives it a process of its own (the iframe target
// path) — so a test step can call a function of the framed page. Before, the shell's path
// evaluated in an isolated world, where the page's globals do not exist
// (TestFidelity/css-bom-swap failed with "Uncaught").
func TestEvalInFrameSeesThePageGlobals(t *testing.T) {
	page := `data:text/html,<!doctype html><iframe sandbox="allow-scripts" srcdoc="<script>function answer(){return 6*7}</script><p id=p>in frame</p>"></iframe>`
	for _, c := range []struct {
		name string
		open func(testing.TB) *Tab
	}{{"shell", NewIsolatedTab}, {"full", NewFullTab}} {
		t.Run(c.name, func(t *testing.T) {
			tab := c.open(t)
			if err := tab.Do(20*time.Second, chromedp.Navigate(page)); err != nil {
				t.Fatal(err)
			}
			got, err := WaitInFrame[string](tab, 10*time.Second, `answer() + " " + document.getElementById("p").textContent`, "42 in frame")
			if err != nil {
				t.Fatalf("%s: %q, %v", c.name, got, err)
			}
		})
	}
}
