package fidelity

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/wasm/preview"
)

// TestQuirksDiagnosticMatchesChromium: preview.QuirksDiagnostic warns exactly for the pages
// Chromium, served over HTTP, lays out in quirks mode (document.compatMode "BackCompat"); and
// the preview's document is never in quirks mode (docs/design.md §5.49).
func TestQuirksDiagnosticMatchesChromium(t *testing.T) {
	pages := []string{
		`<!doctype html><p>x`,
		"\ufeff <!-- c -->\n<!DOCTYPE HTML><p>x",
		`<!DOCTYPE html SYSTEM "about:legacy-compat"><p>x`,
		`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd"><p>x`,
		`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd"><p>x`,
		`<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd"><p>x`,
		`<html><body><p>x`,
		`x<!doctype html>`,
		`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><p>x`,
		`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.0 Transitional//EN" "http://www.w3.org/TR/REC-html40/loose.dtd"><p>x`,
		`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN"><p>x`,
		`<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN"><p>x`,
		`<!doctype svg><p>x`,
		`<!DOCTYPE html PUBLIC><p>x`,
		// Any HTML whitespace separates a doctype's parts (XHTML 1.0's own example breaks
		// lines); a doctype the tokenizer marks force-quirks (a keyword without its
		// identifier, a character between the identifiers, an identifier cut off by ">").
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html\n     PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\"\n    \"DTD/xhtml1-strict.dtd\"><p>x",
		"<!DOCTYPE html PUBLIC\n\"-//W3C//DTD XHTML 1.0 Strict//EN\" \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd\"><p>x",
		"<!DOCTYPE html\tPUBLIC \"-//W3C//DTD HTML 4.01//EN\"><p>x",
		"<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\"\n\t\"http://www.w3.org/TR/html4/loose.dtd\"><p>x",
		`<!DOCTYPE html SYSTEM><p>x`,
		`<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN"x><p>x`,
		`<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN><p>x`,
		`<!DOCTYPE html SYSTEM "about:legacy-compat" junk><p>x`,
		`<!DOCTYPE html5><p>x`,
		`<!DOCTYPE html"x"><p>x`,
	}
	var current string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(current))
	}))
	defer srv.Close()
	tab := chromium.NewTab(t)
	for i, src := range pages {
		current = src
		if err := tab.Do(20*time.Second, navigate(srv.URL+"/p"+itoa(i))); err != nil {
			t.Fatal(err)
		}
		mode, err := chromium.Eval[string](tab, 5*time.Second, `document.compatMode`)
		if err != nil {
			t.Fatal(err)
		}
		_, warned := preview.QuirksDiagnostic("index.html", src)
		if warned != (mode == "BackCompat") {
			t.Errorf("%q: Chromium %s, warning %v", src, mode, warned)
		}
	}
	addSite("quirks-preview", map[string]string{"index.html": `<html><body><p>x</p></body></html>`})
	tab2 := openParent(t)
	mount(t, tab2, "quirks-preview", 1, "n-quirks", "")
	waitAck(t, tab2, 1)
	if mode, err := chromium.EvalInFrame[string](tab2, 5*time.Second, `document.compatMode`); err != nil || mode != "CSS1Compat" {
		t.Errorf("the preview's document of a page without doctype: %q %v, want CSS1Compat (the limit the warning names)", mode, err)
	}
}
