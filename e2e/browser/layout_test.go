package browser

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
)

// layoutChecks measures what the layout of issue 15 promises, in the viewport as it is (no
// scrolling): the prompt box and the latest transcript entry inside the viewport (and the
// entry inside the transcript's visible box), every visible header item on the header's one
// row, the transcript's height, and the page's horizontal scroll.
const layoutChecks = `(() => {
	const vh = window.innerHeight, vw = document.documentElement.clientWidth;
	const inView = (r) => r.top >= 0 && r.bottom <= vh + 0.5 && r.left >= 0 && r.right <= vw + 0.5 && r.height > 0;
	const prompt = document.querySelector("#prompt").getBoundingClientRect();
	const tr = document.querySelector("#transcript"), last = tr.lastElementChild;
	const trBox = tr.getBoundingClientRect();
	let latest = "none";
	if (last) {
		tr.scrollTop = tr.scrollHeight; // the studio follows the newest entry; make sure
		const r = last.getBoundingClientRect();
		latest = inView(r) && r.top >= trBox.top - 0.5 && r.bottom <= trBox.bottom + 0.5 ? "visible" : "hidden at " + Math.round(r.top) + "-" + Math.round(r.bottom);
	}
	const h = document.querySelector(".app-header"), hr = h.getBoundingClientRect();
	const title = h.querySelector("h1").getBoundingClientRect();
	const offRow = [];
	for (const el of h.querySelectorAll("h1, span, p, button")) {
		const r = el.getBoundingClientRect();
		if (r.width === 0 || r.height === 0) continue;
		if (r.top >= title.bottom || r.bottom <= title.top) offRow.push((el.id || el.className || el.tagName) + "@" + Math.round(r.top));
	}
	window.scrollTo(500, window.scrollY);
	const scrollX = window.scrollX;
	window.scrollTo(0, 0);
	return { promptInView: inView(prompt), prompt: Math.round(prompt.top) + "-" + Math.round(prompt.bottom), vh, latest,
		transcriptHeight: Math.round(trBox.height), headerHeight: Math.round(hr.height), offRow: offRow.join(" "),
		scrollWidth: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth), vw, scrollX };
})()`

// TestLayoutPutsPromptFirst: at 1440×1000, 1280×800 and 390×844 (mobile) after a prompt run
// and with 20 files open in tabs, without scrolling: the prompt box and the latest chat
// message are visible, the header is one row (status, storage and model name included), the
// page has no horizontal scroll, the recipes are one compact "Suggestions" menu and, on the
// desktop sizes, the transcript has the height (≥ 160 px; it had ~90).
func TestLayoutPutsPromptFirst(t *testing.T) {
	t.Parallel()
	for _, vp := range []struct {
		w, h   int64
		mobile bool
	}{{1440, 1000, false}, {1280, 800, false}, {390, 844, true}} {
		t.Run(fmt.Sprintf("%dx%d", vp.w, vp.h), func(t *testing.T) {
			t.Parallel()
			tab := openAt(t, vp.w, vp.h, vp.mobile)
			for i := 1; i <= 20; i++ {
				p := "pages/page-" + strconv.Itoa(i) + "-with-a-long-name.html"
				directCall(t, tab, "workspace.createFile", `{"path":`+jsString(p)+`,"source":"<p>x</p>"}`)
				directCall(t, tab, "workspace.openFile", `{"path":`+jsString(p)+`}`)
			}
			waitTrue(t, tab, "20 tabs", `document.querySelectorAll("#editor-tabs [role=tab]").length >= 20`)
			sendPrompt(t, tab, "Show workspace status")
			waitContains(t, tab, "#transcript", "✓ workspace.getStatus")
			waitRunDone(t, tab)
			if n, _ := chromium.Eval[int](tab, 5*time.Second, `document.querySelectorAll("#recipes-menu:not([open]) #recipes .recipe").length`); n != 11 {
				// 14 recipes, of which the 3 folder recipes are offered only with a folder linked.
				t.Errorf("%d recipes in a closed Suggestions menu, want all 11 offered without a folder there", n)
			}
			if _, err := chromium.Eval[bool](tab, 5*time.Second, `(document.activeElement && document.activeElement.blur(), window.scrollTo(0, 0), true)`); err != nil {
				t.Fatal(err)
			}
			m, err := chromium.Eval[map[string]any](tab, 5*time.Second, layoutChecks)
			if err != nil {
				t.Fatal(err)
			}
			if m["promptInView"] != true {
				t.Errorf("the prompt box (y %v) is not in the %v px high viewport", m["prompt"], m["vh"])
			}
			if m["latest"] != "visible" {
				t.Errorf("the latest chat message is %v", m["latest"])
			}
			if m["offRow"] != "" {
				t.Errorf("header items off its one row: %v (header %v px high)", m["offRow"], m["headerHeight"])
			}
			if m["scrollWidth"].(float64) > m["vw"].(float64) || m["scrollX"].(float64) != 0 {
				t.Errorf("horizontal page scroll with 20 tabs: scroll width %v, viewport %v, scrollX %v", m["scrollWidth"], m["vw"], m["scrollX"])
			}
			if !vp.mobile && m["transcriptHeight"].(float64) < 160 {
				t.Errorf("the transcript is %v px high, want ≥ 160", m["transcriptHeight"])
			}
			noConsoleErrors(t, tab)
		})
	}
}

// TestRecipesMenu: the Suggestions menu opens, a recipe runs its prompt, and the menu closes
// with focus on the prompt.
func TestRecipesMenu(t *testing.T) {
	t.Parallel()
	tab := openStudio(t)
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS(`#recipes-menu > summary`)),
		chromedp.Click(chromedp.CSS(`[aria-label="Recipe: Show workspace status"]`))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "✓ workspace.getStatus")
	waitTrue(t, tab, "menu closed, prompt focused", `!document.querySelector("#recipes-menu").open && document.activeElement === document.querySelector("#prompt")`)
	waitRunDone(t, tab)
	if s, _ := chromium.Eval[string](tab, 5*time.Second, `document.querySelector("#transcript").textContent`); !strings.Contains(s, "Show workspace status") {
		t.Errorf("transcript %q lacks the recipe's prompt", s)
	}
	noConsoleErrors(t, tab)
}
