package browser

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// TestRedrawStorm (issue 15: patch, never replace): the trace toolbar's "Show all (N)"
// button is redrawn by every traced call (its label counts the rows). The test holds a
// reference to that element, drives a storm of redraws — model-style writes through
// webcodingHandle (trace rows, explorer, tabs, preview) and typing in the composer — and
// presses and releases the button 200 times while the redraws run, each press waiting for at
// least one redraw of the button's region before its release. It asserts that the region
// was redrawn ≥ 100 times, that the held element is still the connected #trace-show, and
// that all 200 clicks reached it (a click listener on the element) and the app (the button
// toggles Recent / Show all: 200 toggles end where they started).
func TestRedrawStorm(t *testing.T) {
	tab := openIsolatedStudio(t, "")
	if _, err := chromium.Eval[bool](tab, 5*time.Second, `(() => {
		const b = document.querySelector("#inspector-tab-trace"); if (b) b.click(); return true; })()`); err != nil {
		t.Fatal(err)
	}
	paletteWait(t, tab, "trace toolbar visible", `(() => { const b = document.querySelector("#trace-show");
		return !!b && b.getClientRects().length > 0 && b.dataset.action === "trace-all"; })()`)
	// Hold the element, count its clicks and the redraws (morph mutations) of its region.
	if _, err := chromium.Eval[bool](tab, 5*time.Second, `(() => {
		const b = document.querySelector("#trace-show");
		b.scrollIntoView({block: "center"});
		window.__held = b; window.__clicks = 0; window.__redraws = 0; window.__stop = false;
		b.addEventListener("click", () => { window.__clicks++; });
		new MutationObserver(() => { window.__redraws++; }).observe(document.querySelector("#trace-toolbar"),
			{subtree: true, childList: true, characterData: true, attributes: true});
		// The storm: model-style writes (each adds trace rows and redraws the toolbar, the
		// explorer, the tabs and the preview) and typing in the composer, until told to stop.
		window.__storm = (async () => {
			const box = document.querySelector("#prompt");
			for (let i = 0; !window.__stop && i < 5000; i++) {
				const req = {jsonrpc: "2.0", id: "storm-" + i, method: "tools/call", params: {name: "workspace.writeFile",
					arguments: {path: "storm.txt", source: "storm " + i + "\n"}, _meta: {source: "local", mode: "direct"}}};
				await webcodingHandle(JSON.stringify(req));
				if (box) { box.value += "x"; box.dispatchEvent(new Event("input", {bubbles: true})); }
			}
		})();
		return true;
	})()`); err != nil {
		t.Fatal(err)
	}
	defer chromium.Eval[bool](tab, 5*time.Second, `window.__stop = true`)

	center := func() (float64, float64) {
		t.Helper()
		pt, err := chromium.Eval[[]float64](tab, 5*time.Second, `(() => { const r = window.__held.getBoundingClientRect();
			return [r.left + r.width / 2, r.top + r.height / 2]; })()`)
		if err != nil || len(pt) != 2 {
			t.Fatalf("button position: %v %v", pt, err)
		}
		return pt[0], pt[1]
	}
	mouse := func(typ input.DispatchMouseEventType, x, y float64) chromedp.Action[chromedp.Void] {
		return chromedp.Action[chromedp.Void](func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
			_, err := cdp.Call(ctx, tg, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: typ, X: x, Y: y,
				Button: input.MouseButtonLeft, Buttons: 1, ClickCount: 1})
			return chromedp.Void{}, err
		})
	}
	const clicks = 200
	for i := 0; i < clicks; i++ {
		x, y := center()
		before, _ := chromium.Eval[int](tab, 5*time.Second, `window.__redraws`)
		if err := tab.Do(5*time.Second, mouse(input.DispatchMouseEventTypeMousePressed, x, y)); err != nil {
			t.Fatal(err)
		}
		// A redraw of the button's region lands between this press and its release.
		if _, err := chromium.WaitFor[bool](tab, 10*time.Second, `window.__redraws > `+strconv.Itoa(before)); err != nil {
			t.Fatalf("click %d: no redraw between press and release: %v", i, err)
		}
		if err := tab.Do(5*time.Second, mouse(input.DispatchMouseEventTypeMouseReleased, x, y)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := chromium.Eval[bool](tab, 30*time.Second, `(async () => { window.__stop = true; await window.__storm; return true; })()`); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Clicks, Redraws int
		Same, Connected bool
		Action          string
	}
	got, err := chromium.WaitFor[struct {
		Clicks, Redraws int
		Same, Connected bool
		Action          string
	}](tab, 10*time.Second, `(() => { const b = document.querySelector("#trace-show");
		if (b.dataset.action !== "trace-all") return false; // the render after the last toggle
		return {Clicks: window.__clicks, Redraws: window.__redraws, Same: b === window.__held,
			Connected: window.__held.isConnected, Action: b.dataset.action}; })()`)
	if err != nil {
		s, _ := chromium.Eval[string](tab, 5*time.Second, `JSON.stringify({clicks: window.__clicks, redraws: window.__redraws,
			action: document.querySelector("#trace-show").dataset.action})`)
		t.Fatalf("final state: %v (%s)", err, s)
	}
	t.Logf("%d clicks handled during %d redraws of #trace-toolbar", got.Clicks, got.Redraws)
	if got.Redraws < 100 {
		t.Errorf("only %d redraws of the region", got.Redraws)
	}
	if !got.Same || !got.Connected {
		t.Errorf("the held button was replaced (same %v, connected %v)", got.Same, got.Connected)
	}
	if got.Clicks != clicks {
		t.Errorf("%d of %d clicks reached the button", got.Clicks, clicks)
	}
	noConsoleErrors(t, tab)
}
