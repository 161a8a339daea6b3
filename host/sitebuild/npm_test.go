package sitebuild

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func stubNpm(t *testing.T, fn func() (string, error)) {
	t.Helper()
	old := npmPath
	npmPath = fn
	t.Cleanup(func() { npmPath = old })
}

// A site with a lock file and no node_modules on a machine without npm: a clear error that
// names npm, and Build stops before bundling.
func TestEnsureNodeModulesWithoutNpm(t *testing.T) {
	site := t.TempDir()
	writeFiles(t, site, map[string]string{"package.json": `{"name":"t","version":"1.0.0"}`, "package-lock.json": `{"lockfileVersion":3}`})
	stubNpm(t, func() (string, error) { return "", errors.New("not found") })
	err := EnsureNodeModules(site)
	if err == nil || !strings.Contains(err.Error(), "npm is not on PATH") || !strings.Contains(err.Error(), "node_modules is missing or out of date") {
		t.Fatalf("EnsureNodeModules without npm = %v", err)
	}
}

// An installed site (node_modules/.package-lock.json present) or one without a lock file
// never looks for npm.
func TestEnsureNodeModulesSkips(t *testing.T) {
	stubNpm(t, func() (string, error) { t.Error("npm looked up"); return "", errors.New("no") })
	installed := t.TempDir()
	writeFiles(t, installed, map[string]string{"package-lock.json": `{}`, "node_modules/.package-lock.json": `{}`})
	if err := EnsureNodeModules(installed); err != nil {
		t.Fatal(err)
	}
	if err := EnsureNodeModules(t.TempDir()); err != nil {
		t.Fatal(err)
	}
}

// A node_modules installed from an older lock file (a package added or its version changed
// since) is out of date: the build looks for npm to run npm ci again instead of bundling with
// what is there (esbuild would fail with "Could not resolve").
func TestEnsureNodeModulesOutOfDate(t *testing.T) {
	lock := `{"lockfileVersion":3,"packages":{"":{},"node_modules/a":{"version":"1.0.0"},"node_modules/b":{"version":"2.0.0"}}}`
	for name, installed := range map[string]string{
		"missing package": `{"lockfileVersion":3,"packages":{"node_modules/a":{"version":"1.0.0"}}}`,
		"other version":   `{"lockfileVersion":3,"packages":{"node_modules/a":{"version":"1.0.0"},"node_modules/b":{"version":"1.9.0"}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			looked := false
			stubNpm(t, func() (string, error) { looked = true; return "", errors.New("no npm here") })
			site := t.TempDir()
			writeFiles(t, site, map[string]string{"package-lock.json": lock, "node_modules/.package-lock.json": installed})
			if err := EnsureNodeModules(site); err == nil || !looked || !strings.Contains(err.Error(), "out of date") {
				t.Fatalf("EnsureNodeModules = %v (npm looked up: %v)", err, looked)
			}
		})
	}
	// npm's record says installed, but a package's folder is gone: out of date too.
	gone := t.TempDir()
	looked := false
	stubNpm(t, func() (string, error) { looked = true; return "", errors.New("no npm here") })
	writeFiles(t, gone, map[string]string{"package-lock.json": lock, "node_modules/.package-lock.json": lock,
		"node_modules/a/package.json": `{}`})
	if err := EnsureNodeModules(gone); err == nil || !looked {
		t.Fatalf("EnsureNodeModules with node_modules/b missing = %v (npm looked up: %v)", err, looked)
	}
	up := t.TempDir()
	stubNpm(t, func() (string, error) { t.Error("npm looked up"); return "", errors.New("no") })
	writeFiles(t, up, map[string]string{"package-lock.json": lock, "node_modules/.package-lock.json": lock,
		"node_modules/a/package.json": `{}`, "node_modules/b/package.json": `{}`})
	if err := EnsureNodeModules(up); err != nil {
		t.Fatal(err)
	}
}

// With npm present, a missing node_modules is installed by npm ci from the lock file (a local
// file: dependency, so no network is needed), and the bundle resolves the installed package.
func TestEnsureNodeModulesRunsNpmCi(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm not on PATH")
	}
	root := t.TempDir()
	site := filepath.Join(root, "site")
	writeFiles(t, root, map[string]string{
		"dep/package.json": `{"name":"localdep","version":"1.0.0","main":"index.js"}`,
		"dep/index.js":     `export const answer = "from-node-modules-41";`,
	})
	writeFiles(t, site, map[string]string{
		"package.json": `{"name":"t","version":"1.0.0","private":true,"dependencies":{"localdep":"file:../dep"}}`,
		"js/main.js":   `import { answer } from "localdep"; console.log(answer);`,
	})
	lock := exec.Command("npm", "install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund")
	lock.Dir = site
	if b, err := lock.CombinedOutput(); err != nil {
		t.Fatalf("npm install --package-lock-only: %v\n%s", err, b)
	}
	if _, err := os.Stat(filepath.Join(site, "node_modules")); err == nil {
		t.Fatal("node_modules exists before EnsureNodeModules")
	}
	if err := EnsureNodeModules(site); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(site, "node_modules", ".package-lock.json")); err != nil {
		t.Fatalf("npm ci did not install: %v", err)
	}
	js, err := bundle(site, "js/main.js")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), "from-node-modules-41") {
		t.Errorf("bundle lacks the installed dependency: %s", js)
	}
}

// Builds that find node_modules out of date at the same time run npm ci once, one after the
// other: npm ci deletes node_modules first, so a second concurrent install would pull the
// packages from under the first build's bundler (the parallel browser tests did exactly that).
func TestEnsureNodeModulesInstallsOnceWhenConcurrent(t *testing.T) {
	site := t.TempDir()
	lock := `{"lockfileVersion":3,"packages":{"node_modules/a":{"version":"1.0.0"}}}`
	writeFiles(t, site, map[string]string{"package-lock.json": lock})
	npm := filepath.Join(t.TempDir(), "npm")
	script := "#!/bin/sh\necho run >> runs\nsleep 0.3\nmkdir -p node_modules/a && echo '{}' > node_modules/a/package.json && cp package-lock.json node_modules/.package-lock.json\n"
	if err := os.WriteFile(npm, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	stubNpm(t, func() (string, error) { return npm, nil })
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = EnsureNodeModules(site) }()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	runs, _ := os.ReadFile(filepath.Join(site, "runs"))
	if n := strings.Count(string(runs), "run"); n != 1 {
		t.Fatalf("npm ci ran %d times, want 1", n)
	}
}
