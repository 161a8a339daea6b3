package browser

import (
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/webcoding/studio/e2e/chromium"
)

// defaultTabs is how many tests run at once (each in its own tab and browser context) when
// -test.parallel is not given. Most of a browser test's time is spent waiting for the page
// (preview acks, idle flushes, polling), so a few tabs share two cores well; go test's own
// default (GOMAXPROCS) would leave the cores idle while two tabs wait. Tests that stop the
// shared site server or read the browser's download events do not call t.Parallel and run
// alone, before the parallel ones.
const defaultTabs = 4

// repoRoot is the module root (two levels up from this package).
func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(defaultTabs))
	}
	// The tabs of tests have no service worker (chromium.ServiceWorkers), except those of the
	// worker's own tests (openServiceWorkerStudio, chromium.NewServiceWorkerTab); benchmarks
	// measure what users run, with the worker.
	chromium.ServiceWorkers = flag.Lookup("test.bench").Value.String() != ""
	code := m.Run()
	stopSite()
	chromium.Shutdown()
	os.Exit(code)
}
