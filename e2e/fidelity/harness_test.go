package fidelity

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcoding/studio/e2e/chromium"
	"github.com/webcoding/studio/e2e/fidelity/harness"
)

func TestMain(m *testing.M) {
	code := m.Run()
	harness.Close()
	chromium.Shutdown()
	os.Exit(code)
}

// The harness (server, studio stand-in, mount and message helpers) is e2e/fidelity/harness,
// shared with e2e/realsites; these names keep the suite's tests short.

type msg = harness.Msg

func server(t testing.TB) *httptest.Server { return harness.Server(t) }

func addSite(name string, files map[string]string) { harness.AddSite(name, files) }

func openParent(t testing.TB) *chromium.Tab { return harness.OpenParent(t) }

func mount(t testing.TB, tab *chromium.Tab, name string, rev int, nonce, query string) {
	t.Helper()
	harness.Mount(t, tab, name, rev, nonce, query)
}

func messages(t testing.TB, tab *chromium.Tab) []msg { t.Helper(); return harness.Messages(t, tab) }

// reportsAfter waits settle for the reports a mount sends after its ack (a failed image or
// fetch is reported when it fails, which may be after the page's load) and returns every
// "webcoding.preview.report" message the parent received, in order.
func reportsAfter(t testing.TB, tab *chromium.Tab, settle time.Duration) []msg {
	t.Helper()
	time.Sleep(settle)
	var out []msg
	for _, m := range messages(t, tab) {
		if m.Type == "webcoding.preview.report" {
			out = append(out, m)
		}
	}
	return out
}

func waitAck(t testing.TB, tab *chromium.Tab, rev int) msg {
	t.Helper()
	return harness.WaitAck(t, tab, rev)
}

func waitAckFor(t testing.TB, tab *chromium.Tab, rev int, timeout time.Duration) msg {
	t.Helper()
	return harness.WaitAckFor(t, tab, rev, timeout)
}

func navigate(url string) chromedp.Action[chromedp.Void] { return harness.Navigate(url) }

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// newLoopback starts a loopback server that counts every request (CORS open, so only the
// preview's policy can keep a request from it) and returns its URL.
func newLoopback(t *testing.T, hits *atomic.Int64) string {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Access-Control-Allow-Origin", "*")
		_, _ = w.Write([]byte("loopback reached"))
	}))
	t.Cleanup(s.Close)
	return s.URL
}
