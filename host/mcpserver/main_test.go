package mcpserver

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/webcoding/studio/host/wasmhost"
)

// testModule is the real core module, built once per test binary (cached across runs in the
// CLI's module cache directory).
var testModule string

// binDir holds the webcoding binary, built on first use (webcodingBinary).
var binDir string

func TestMain(m *testing.M) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	p, err := wasmhost.BuildModule(ctx, filepath.Join(cache, "webcoding", "module"))
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpserver tests: building the module:", err)
		os.Exit(1)
	}
	testModule = p
	binDir, err = os.MkdirTemp("", "mcpserver-test-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(binDir)
	os.Exit(code)
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// webcodingBinary builds host/cmd/webcoding once per test binary and returns its path.
func webcodingBinary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		p := filepath.Join(binDir, "webcoding")
		out, err := exec.Command("go", "build", "-o", p, "github.com/webcoding/studio/host/cmd/webcoding").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build webcoding: %v\n%s", err, out)
			return
		}
		binPath = p
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// newModuleHost starts the real core over the seed workspace (folder: "" ) or a folder.
func newModuleHost(t testing.TB) *wasmhost.Host {
	t.Helper()
	h, err := wasmhost.New(context.Background(), wasmhost.Options{ModulePath: testModule, AbandonOnDeadline: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background()) })
	return h
}
