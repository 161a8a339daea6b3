package fidelity

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/wasm/preview"
)

// TestQuirksModeAsServed: a page Chromium lays out in quirks mode served over HTTP (document.
// compatMode "BackCompat") compiles with preview.Result.Quirks, and in the preview its document
// is in the same mode — loaded from a blob: URL, since an iframe srcdoc document is never in
// quirks mode — with the layout that follows from it (a percentage height against the
// viewport's); a standards page stays srcdoc (docs/design.md §5.53).
func TestQuirksModeAsServed(t *testing.T) {
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
	var modes []string
	for i, src := range pages {
		current = src
		if err := tab.Do(20*time.Second, navigate(srv.URL+"/p"+itoa(i))); err != nil {
			t.Fatal(err)
		}
		mode, err := chromium.Eval[string](tab, 5*time.Second, `document.compatMode`)
		if err != nil {
			t.Fatal(err)
		}
		res := preview.Compile([]preview.File{{Path: "index.html", Language: preview.LangHTML, Kind: preview.KindText, Source: src}}, preview.Options{Bridge: true})
		if res.Quirks != (mode == "BackCompat") {
			t.Errorf("%q: Chromium %s, Result.Quirks %v", src, mode, res.Quirks)
		}
		modes = append(modes, mode)
	}
	// The same pages in the preview, one mount each in one parent; each document reads its mode,
	// whether it is a srcdoc document, and whether a div of height 50% in a body of no height
	// has one (quirks mode: the body fills the viewport; standards mode: 0).
	tab2 := openParent(t)
	for i, src := range pages {
		name := "quirks-" + itoa(i)
		addSite(name, map[string]string{"index.html": src + `<div id="half" style="height:50%"></div>`})
		mount(t, tab2, name, i+1, "n-quirks-"+itoa(i), "")
		waitAck(t, tab2, i+1)
		got, err := chromium.EvalInFrame[string](tab2, 5*time.Second,
			`document.compatMode + " " + (location.href === "about:srcdoc") + " " + (document.getElementById("half").offsetHeight > 0)`)
		if err != nil {
			t.Fatal(err)
		}
		quirks := modes[i] == "BackCompat"
		want := modes[i] + " " + strconv.FormatBool(!quirks) + " " + strconv.FormatBool(quirks)
		if got != want {
			t.Errorf("%q in the preview: %q, want %q (served: %s)", src, got, want, modes[i])
		}
	}
}
