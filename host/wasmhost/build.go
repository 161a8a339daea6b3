package wasmhost

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// SourceModule is the Go module path of the studio source tree that BuildModule compiles.
const SourceModule = "github.com/webcoding/studio"

// ReactorPackage is the package BuildModule builds, relative to the source root.
const ReactorPackage = "./wasm/cmd/reactor"

var buildMu sync.Mutex

// BuildModule builds the wasip1 reactor (wasm/cmd/reactor) with
// GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath [-tags TAGS] into outDir and
// returns the path of the .wasm file, ModuleName(root, tags): outDir/reactor-HASH.wasm, or
// outDir/reactor-HASH-TAG1-TAG2.wasm with build tags (sorted), e.g. "conformance" for
// test-only tools (SPEC §2.17). HASH names the source tree, so checkouts sharing one outDir
// never overwrite or reuse each other's module.
//
// Cheap cache: the build is skipped when the output exists and is newer than go.mod, go.sum
// and every non-test .go file and every .js file (embedded: the preview runtime) under wasm/
// of its tree. The output is written to a temporary
// file and renamed (one rename: the tree is in the name, there is no separate marker), so
// concurrent builders never see a partial module or one labelled with another tree. Builds in
// one process are serialized.
//
// The source tree is found from the working directory upwards (the directory whose go.mod
// declares SourceModule), else from this file's compile-time location. Built modules are build
// outputs: never commit or embed them.
//
// Errors: no source tree or no go command found; outDir cannot be created; go build failed (its
// output is included).
func BuildModule(ctx context.Context, outDir string, tags ...string) (string, error) {
	root, err := SourceRoot()
	if err != nil {
		return "", err
	}
	tags = slices.Clone(tags)
	slices.Sort(tags)
	tags = slices.Compact(tags)
	for _, t := range tags {
		if t == "" || strings.ContainsAny(t, ", \t/\\") {
			return "", fmt.Errorf("wasmhost: bad build tag %q", t)
		}
	}
	name := ModuleName(root, tags)
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return "", fmt.Errorf("wasmhost: build: %w", err)
	}
	out, err := filepath.Abs(filepath.Join(outDir, name))
	if err != nil {
		return "", fmt.Errorf("wasmhost: build: %w", err)
	}

	buildMu.Lock()
	defer buildMu.Unlock()
	if fresh, err := upToDate(out, root); err != nil {
		return "", err
	} else if fresh {
		return out, nil
	}
	goBin, err := goCommand()
	if err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), ".reactor-*.wasm")
	if err != nil {
		return "", fmt.Errorf("wasmhost: build: %w", err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	args := []string{"build", "-buildmode=c-shared", "-trimpath"}
	if len(tags) > 0 {
		args = append(args, "-tags", strings.Join(tags, ","))
	}
	args = append(args, "-o", tmp.Name(), ReactorPackage)
	// Sources edited while the build runs must make the next call rebuild: the output gets the
	// start time as its modification time.
	started := time.Now().Add(-time.Second)
	cmd := exec.CommandContext(ctx, goBin, args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	var outBuf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &outBuf, &outBuf
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("wasmhost: GOOS=wasip1 GOARCH=wasm %s %s: %w\n%s", goBin, strings.Join(args, " "), err, outBuf.Bytes())
	}
	if err := os.Chtimes(tmp.Name(), started, started); err != nil {
		return "", fmt.Errorf("wasmhost: build: %w", err)
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return "", fmt.Errorf("wasmhost: build: %w", err)
	}
	return out, nil
}

// ModuleName is the file name BuildModule gives the module built from the source tree at root
// with tags (sorted, as BuildModule passes them): "reactor-" + the first 12 hex digits of the
// SHA-256 of the cleaned root path, then "-TAG" per tag, then ".wasm".
func ModuleName(root string, tags []string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(root)))
	name := "reactor-" + hex.EncodeToString(sum[:6])
	if len(tags) > 0 {
		name += "-" + strings.Join(tags, "-")
	}
	return name + ".wasm"
}

// upToDate reports whether out exists and is newer than every input of the build from the
// tree at root (out's name says which tree it was built from; see ModuleName).
func upToDate(out, root string) (bool, error) {
	st, err := os.Stat(out)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("wasmhost: build: %w", err)
	}
	built := st.ModTime()
	stale := false
	newer := func(fi fs.FileInfo) bool { return !fi.ModTime().Before(built) }
	for _, f := range []string{"go.mod", "go.sum"} {
		if fi, err := os.Stat(filepath.Join(root, f)); err == nil && newer(fi) {
			return false, nil
		}
	}
	err = filepath.WalkDir(filepath.Join(root, "wasm"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || (strings.HasPrefix(n, ".") && p != filepath.Join(root, "wasm")) {
				return filepath.SkipDir
			}
			return nil
		}
		// Embedded sources count too (the preview runtime's .js files are go:embed'ed).
		if !(strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".js")) || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if newer(fi) {
			stale = true
			return filepath.SkipAll
		}
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("wasmhost: build: scan sources: %w", err)
	}
	return !stale, nil
}

// SourceRoot returns the root of the studio source tree: the nearest directory at or above
// the working directory whose go.mod declares SourceModule, else the one above this source file
// (when the binary was built from a checkout without -trimpath).
func SourceRoot() (string, error) {
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		starts = append(starts, filepath.Dir(file))
	}
	for _, dir := range starts {
		for {
			if declaresModule(filepath.Join(dir, "go.mod")) {
				return dir, nil
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return "", fmt.Errorf("wasmhost: cannot find the studio source tree (a go.mod declaring %s) above the working directory; run from a checkout, or give a built module", SourceModule)
}

func declaresModule(gomod string) bool {
	f, err := os.Open(gomod)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) == 2 && fields[0] == "module" {
			return strings.Trim(fields[1], `"`) == SourceModule
		}
	}
	return false
}

// goCommand finds the go command: PATH first, then this binary's GOROOT.
func goCommand() (string, error) {
	if p, err := exec.LookPath("go"); err == nil {
		return p, nil
	}
	if root := runtime.GOROOT(); root != "" {
		p := filepath.Join(root, "bin", "go")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New("wasmhost: the go command is not on PATH; install Go or give a built module")
}
