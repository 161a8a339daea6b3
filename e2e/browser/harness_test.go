package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// TestWaitForToleratesNotYetDrawn: a wait whose condition reads an element the page draws
// later (`querySelector(...).textContent` throws until then) keeps polling and succeeds, and
// a condition that never holds times out naming the last exception it threw. Before,
// chromium.WaitFor ended at the first exception ("Cannot read properties of null"), which
// made TestApprovalCardDiff fail whenever its diff arrived a moment after the card.
func TestWaitForToleratesNotYetDrawn(t *testing.T) {
	t.Parallel()
	tab := chromium.NewRecycledTab(t)
	page := `data:text/html,<!doctype html><title>late</title><script>setTimeout(() => {
		const p = document.createElement("p"); p.id = "late"; p.textContent = "drawn"; document.body.append(p); }, 300)</script>`
	if err := tab.Do(10*time.Second, chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	got, err := chromium.WaitFor[string](tab, 10*time.Second, `document.querySelector("#late").textContent`)
	if err != nil || got != "drawn" {
		t.Fatalf("wait for a late element: %q, %v", got, err)
	}
	_, err = chromium.WaitFor[bool](tab, 300*time.Millisecond, `document.querySelector("#never").textContent === "x"`)
	if err == nil || !strings.Contains(err.Error(), "the condition last threw") || !strings.Contains(err.Error(), "null") {
		t.Fatalf("a wait that never holds: want a timeout naming the exception, have %v", err)
	}
}
