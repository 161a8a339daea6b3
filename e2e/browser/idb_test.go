package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/e2e/chromium"
)

// TestIndexedDBRepository runs wasm/adapters/idb's Go tests (the workspace Repository
// contract, reopen, missing IndexedDB) compiled for GOOS=js inside Chromium.
func TestIndexedDBRepository(t *testing.T) {
	bin := chromium.BuildTestWasm(t, repoRoot(), "./wasm/adapters/idb")
	out, code := chromium.RunGoWasm(t, bin, 90*time.Second, "-test.v")
	t.Log(out)
	if code != 0 {
		t.Fatalf("idb tests exited with %d", code)
	}
	for _, name := range []string{"TestRepositoryContract", "TestSurvivesReopen", "TestMissingIndexedDB"} {
		if !strings.Contains(out, "--- PASS: "+name) {
			t.Errorf("%s did not pass", name)
		}
	}
}
