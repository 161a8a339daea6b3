package tmpshot

import (
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

func TestMain(m *testing.M) { c := m.Run(); chromium.Shutdown(); os.Exit(c) }

func TestShot(t *testing.T) {
	tab := chromium.NewTab(t)
	if err := tab.Do(30*time.Second, chromedp.EmulateViewport(1440, 1000), chromedp.Navigate(os.Getenv("SHOT_URL"))); err != nil {
		t.Fatal(err)
	}
	st, err := chromium.WaitFor[string](tab, 30*time.Second, `document.body.dataset.state !== "loading" ? document.body.dataset.state : ""`)
	t.Log("state", st, err)
	if js := os.Getenv("SHOT_JS"); js != "" {
		r, err := chromium.Eval[string](tab, 30*time.Second, js)
		t.Log("eval", r, err)
		time.Sleep(2 * time.Second)
	}
	buf, err := chromedp.Run(tab.Ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(os.Getenv("SHOT_OUT"), buf, 0o644)
	for _, e := range tab.Console() {
		t.Log(e)
	}
}
