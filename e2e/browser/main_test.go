package browser

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/webcoding/studio/e2e/chromium"
)

// repoRoot is the module root (two levels up from this package).
func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

func TestMain(m *testing.M) {
	code := m.Run()
	stopSite()
	chromium.Shutdown()
	os.Exit(code)
}
