package screenshots

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/host/devserver"
	"github.com/webcoding/studio/host/sitebuild"
)

const loadTimeout = 60 * time.Second

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

func TestMain(m *testing.M) {
	code := m.Run()
	chromium.Shutdown()
	os.Exit(code)
}

// serve builds the site into a temp dir and serves it; it returns the studio URL.
func serve(t *testing.T) string {
	t.Helper()
	out := t.TempDir()
	root := repoRoot()
	_, err := sitebuild.Build(sitebuild.Options{Base: "/web-coding/", Out: out,
		Site: filepath.Join(root, "site"), Module: root, SkipSurfaces: true, BrotliQuality: 5})
	if err != nil {
		t.Fatalf("building the site: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: devserver.Handler(out)}
	go srv.Serve(ln)
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String() + "/web-coding/"
}

// outDir is where the PNGs go: WEBCODING_SCREENSHOTS ("docs" = the repository's docs/), else a
// temp dir.
func outDir(t *testing.T) string {
	switch v := os.Getenv("WEBCODING_SCREENSHOTS"); v {
	case "":
		return t.TempDir()
	case "docs":
		return filepath.Join(repoRoot(), "docs")
	default:
		return v
	}
}

func js(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

func waitContains(t *testing.T, tab *chromium.Tab, sel, want string) {
	t.Helper()
	expr := `(() => { const e = document.querySelector(` + js(sel) + `); return !!e && e.textContent.includes(` + js(want) + `); })()`
	if _, err := chromium.WaitFor[bool](tab, loadTimeout, expr); err != nil {
		got, _ := chromium.Eval[string](tab, 5*time.Second, `(document.querySelector(`+js(sel)+`)||{}).textContent || ""`)
		t.Fatalf("%s: want it to contain %q, have %q (%v); console: %v", sel, want, got, err, tab.Console())
	}
}

// overflowExpr reports the page's horizontal overflow: the document's scroll width beyond the
// viewport, and up to 8 visible elements whose right edge passes the viewport (for the message).
const overflowExpr = `(() => {
  const vw = document.documentElement.clientWidth;
  const sw = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
  const out = [];
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && r.right > vw + 0.5 && getComputedStyle(el).visibility !== "hidden") {
      let anc = el.parentElement, clipped = false;
      while (anc && anc !== document.body) {
        const ov = getComputedStyle(anc).overflowX;
        if (ov !== "visible") { clipped = true; break; }
        anc = anc.parentElement;
      }
      if (!clipped) out.push((el.id ? "#" + el.id : el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ? "." + el.className.split(" ")[0] : "")) + " right=" + Math.round(r.right));
    }
    if (out.length >= 8) break;
  }
  return JSON.stringify({vw, sw, offenders: out});
})()`

// horizontalOverflow returns why the page scrolls horizontally at the expected viewport
// width, or "" when it does not.
func horizontalOverflow(t *testing.T, tab *chromium.Tab, width int) string {
	t.Helper()
	s, err := chromium.Eval[string](tab, 5*time.Second, overflowExpr)
	if err != nil {
		t.Fatal(err)
	}
	var vw, sw int
	if _, err := fmt.Sscanf(s, `{"vw":%d,"sw":%d`, &vw, &sw); err != nil {
		t.Fatalf("overflow report %s: %v", s, err)
	}
	if vw != width {
		return fmt.Sprintf("viewport width %d, want %d (%s)", vw, width, s)
	}
	if sw > vw {
		return fmt.Sprintf("scroll width %d > viewport %d: %s", sw, vw, s)
	}
	// Mobile emulation does not always grow scrollWidth for content past the viewport, so an
	// unclipped element beyond the right edge counts as overflow on its own.
	if !strings.Contains(s, `"offenders":[]`) {
		return fmt.Sprintf("elements pass the right edge: %s", s)
	}
	x, err := chromium.Eval[float64](tab, 5*time.Second, `(() => { const y = window.scrollY; window.scrollTo(500, y); const x = window.scrollX; window.scrollTo(0, y); return x; })()`)
	if err != nil {
		t.Fatal(err)
	}
	if x != 0 {
		return fmt.Sprintf("the page scrolls horizontally (scrollX %v after scrollTo(500))", x)
	}
	return ""
}

func checkNoHorizontalOverflow(t *testing.T, tab *chromium.Tab, label string, width int) {
	t.Helper()
	if why := horizontalOverflow(t, tab, width); why != "" {
		t.Errorf("%s: horizontal overflow: %s", label, why)
	}
}

// capture takes a viewport screenshot, checks it, and writes it to dir/name.
func capture(t *testing.T, tab *chromium.Tab, dir, name string, w, h int) {
	t.Helper()
	if err := tab.Do(5*time.Second, chromedp.Sleep(400*time.Millisecond)); err != nil { // let the preview paint
		t.Fatal(err)
	}
	b, err := chromedp.Run(tab.Ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("screenshot %s is not a PNG: %v", name, err)
	}
	if got := img.Bounds().Size(); got != image.Pt(w, h) {
		t.Errorf("screenshot %s is %v, want %dx%d", name, got, w, h)
	}
	// Not blank: a rendered studio has many colours.
	colours := map[uint32]bool{}
	for y := 0; y < h; y += 7 {
		for x := 0; x < w; x += 7 {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[r>>8<<16|g>>8<<8|b>>8] = true
		}
	}
	if len(colours) < 16 {
		t.Errorf("screenshot %s looks blank (%d colours)", name, len(colours))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes)", filepath.Join(dir, name), len(b))
}

// open loads the studio in a fresh browser context at the given viewport.
func open(t *testing.T, url string, w, h int, mobile bool) *chromium.Tab {
	t.Helper()
	tab := chromium.NewIsolatedTab(t)
	opts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1)}
	if mobile {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait)
	}
	if err := tab.Do(loadTimeout, chromedp.EmulateViewport(int64(w), int64(h), opts...), chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#status-text", "Ready")
	waitContains(t, tab, "#preview-status", "acknowledged")
	return tab
}

func approveEmerald(t *testing.T, tab *chromium.Tab) {
	t.Helper()
	if err := tab.Do(10*time.Second,
		chromedp.SetValue(chromedp.CSS("#prompt"), "Make it emerald"),
		chromedp.Click(chromedp.CSS(`#chat-form button[type="submit"]`)),
	); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#approve-0", "Approve preview.setTheme")
	if err := tab.Do(10*time.Second, chromedp.Click(chromedp.CSS("#approve-0"))); err != nil {
		t.Fatal(err)
	}
	waitContains(t, tab, "#transcript", "✓ preview.setTheme")
	waitContains(t, tab, "#preview-status", "acknowledged")
	if got, err := chromium.WaitInFrame(tab, 10*time.Second,
		`getComputedStyle(document.documentElement).getPropertyValue("--accent").trim()`, "#10b981"); err != nil {
		t.Fatalf("iframe --accent = %q after approval: %v", got, err)
	}
}

func TestScreenshots(t *testing.T) {
	url := serve(t)
	dir := outDir(t)

	t.Run("desktop", func(t *testing.T) {
		tab := open(t, url, 1440, 1000, false)
		checkNoHorizontalOverflow(t, tab, "desktop first load", 1440)
		capture(t, tab, dir, "studio-desktop.png", 1440, 1000)
		approveEmerald(t, tab)
		if _, err := chromium.Eval[bool](tab, 5*time.Second, `(document.activeElement && document.activeElement.blur(), window.scrollTo(0, 0), true)`); err != nil {
			t.Fatal(err)
		}
		checkNoHorizontalOverflow(t, tab, "desktop after emerald", 1440)
		capture(t, tab, dir, "studio-emerald-desktop.png", 1440, 1000)
		if errs := tab.Errors(); len(errs) > 0 {
			t.Errorf("console errors: %v", errs)
		}
	})

	t.Run("laptop", func(t *testing.T) {
		tab := open(t, url, 1280, 800, false)
		checkNoHorizontalOverflow(t, tab, "1280x800 first load", 1280)
		capture(t, tab, dir, "studio-1280x800.png", 1280, 800)
		if errs := tab.Errors(); len(errs) > 0 {
			t.Errorf("console errors: %v", errs)
		}
	})

	t.Run("mobile", func(t *testing.T) {
		tab := open(t, url, 390, 844, true)
		checkNoHorizontalOverflow(t, tab, "mobile first load", 390)
		if _, err := chromium.Eval[bool](tab, 5*time.Second, `(window.scrollTo(0, 0), true)`); err != nil {
			t.Fatal(err)
		}
		capture(t, tab, dir, "studio-mobile.png", 390, 844)
		approveEmerald(t, tab)
		checkNoHorizontalOverflow(t, tab, "mobile after emerald", 390)
		if errs := tab.Errors(); len(errs) > 0 {
			t.Errorf("console errors: %v", errs)
		}
		if os.Getenv("WEBCODING_SCREENSHOTS_FULL") != "" { // the whole stacked page, for review
			b, err := chromedp.Run(tab.Ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(os.Getenv("WEBCODING_SCREENSHOTS_FULL"), "studio-mobile-full.png"), b, 0o644); err != nil {
				t.Fatal(err)
			}
			// Full-page captures leave the out-of-process preview frame white; scroll to it instead.
			for _, sel := range []string{".preview", ".chat"} {
				if _, err := chromium.Eval[bool](tab, 5*time.Second, `(document.querySelector("`+sel+`").scrollIntoView(), true)`); err != nil {
					t.Fatal(err)
				}
				capture(t, tab, os.Getenv("WEBCODING_SCREENSHOTS_FULL"), "studio-mobile-emerald"+strings.ReplaceAll(sel, ".", "-")+".png", 390, 844)
			}
		}
		// The check itself must be able to fail: a 600 px wide element makes the page overflow.
		if _, err := chromium.Eval[bool](tab, 5*time.Second, `(() => { const d = document.createElement("div"); d.id = "overflow-probe"; d.style.cssText = "width:600px;height:4px;flex:none"; document.body.append(d); return true; })()`); err != nil {
			t.Fatal(err)
		}
		if why := horizontalOverflow(t, tab, 390); why == "" || !strings.Contains(why, "overflow-probe") {
			t.Errorf("a 600 px element at 390 px was not reported as overflow (got %q)", why)
		}
	})
}
