package chromium

import (
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestServiceWorkersSetting: with ServiceWorkers false a new context's top-level page has no
// navigator.serviceWorker (and a page of the site cannot register one), a frame keeps its
// own, a second tab of that context has none either, and NewServiceWorkerTab's page registers
// a worker that then controls the page. The pages are served on loopback (a secure context,
// where service workers are offered).
func TestServiceWorkersSetting(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/sw.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Write([]byte(`self.addEventListener("activate", (e) => e.waitUntil(self.clients.claim()));`))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><iframe id="f" srcdoc="<p>frame</p>"></iframe>`))
	})
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	url := "http://" + ln.Addr().String() + "/"

	saved := ServiceWorkers
	ServiceWorkers = false
	t.Cleanup(func() { ServiceWorkers = saved })

	offered := `"serviceWorker" in navigator`
	inFrame := `"serviceWorker" in document.getElementById("f").contentWindow.navigator`
	open := func(tab *Tab) {
		t.Helper()
		if err := tab.Do(20*time.Second, chromedp.Navigate(url)); err != nil {
			t.Fatal(err)
		}
	}

	without := NewIsolatedTab(t)
	open(without)
	if got, err := Eval[bool](without, 10*time.Second, offered); err != nil || got {
		t.Fatalf("ServiceWorkers false: serviceWorker in the page's navigator = %v (%v)", got, err)
	}
	if got, err := Eval[bool](without, 10*time.Second, inFrame); err != nil || !got {
		t.Fatalf("ServiceWorkers false: the frame lost its navigator.serviceWorker: %v (%v)", got, err)
	}
	second := NewTabIn(t, without)
	open(second)
	if got, err := Eval[bool](second, 10*time.Second, offered); err != nil || got {
		t.Fatalf("a second tab of a context without service workers has one: %v (%v)", got, err)
	}

	with := NewServiceWorkerTab(t)
	open(with)
	if _, err := Eval[bool](with, 20*time.Second, `navigator.serviceWorker.register("/sw.js").then(() => true)`); err != nil {
		t.Fatalf("NewServiceWorkerTab: register: %v", err)
	}
	if _, err := WaitFor[bool](with, 20*time.Second, `!!navigator.serviceWorker.controller`); err != nil {
		t.Fatalf("NewServiceWorkerTab: the worker never controlled the page: %v", err)
	}
}
