package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/e2e/chromium"
)

// TestAdapterTestsInChromium runs the Go tests of the js-only adapters (compiled for
// GOOS=js) inside Chromium: the promise glue, the iframe preview port with a fake shim, and the
// surface pages' entry (wasm/cmd/surface).
func TestAdapterTestsInChromium(t *testing.T) {
	t.Parallel()
	// wasm/cmd/surface: each session build of a surface page mounts on its own preview port
	// (TestEveryBuildHasItsOwnPort; docs/design.md §5.35).
	for _, pkg := range []string{"./wasm/adapters/jsbridge", "./wasm/adapters/iframe", "./wasm/cmd/surface"} {
		t.Run(strings.TrimPrefix(strings.TrimPrefix(pkg, "./wasm/adapters/"), "./wasm/"), func(t *testing.T) {
			bin := chromium.BuildTestWasm(t, repoRoot(), pkg)
			out, code := chromium.RunGoWasm(t, bin, 90*time.Second, "-test.v")
			if code != 0 || !strings.Contains(out, "\nPASS") {
				t.Fatalf("%s tests exited with %d:\n%s", pkg, code, out)
			}
			if strings.Contains(out, "--- FAIL") {
				t.Fatalf("failures:\n%s", out)
			}
			if pkg == "./wasm/adapters/jsbridge" && !strings.Contains(out, "--- PASS: TestPromiseHeldByThePage") {
				t.Fatalf("TestPromiseHeldByThePage did not run:\n%s", out)
			}
			if pkg == "./wasm/cmd/surface" && !strings.Contains(out, "--- PASS: TestEveryBuildHasItsOwnPort") {
				t.Fatalf("TestEveryBuildHasItsOwnPort did not run:\n%s", out)
			}
		})
	}
}

// TestIndexedDBRepository runs wasm/adapters/idb's Go tests (the workspace Repository
// contract, reopen, missing IndexedDB) compiled for GOOS=js inside Chromium.
func TestIndexedDBRepository(t *testing.T) {
	t.Parallel()
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
