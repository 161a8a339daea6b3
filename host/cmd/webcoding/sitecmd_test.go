package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// A bad --base is a usage error with the reason, before anything is built.
func TestBuildBadBaseIsUsage(t *testing.T) {
	out := t.TempDir()
	for base, want := range map[string]string{
		"/a/../b/":   "'..' segments",
		"/a/./b/":    "'.' or '..' segments",
		"/a//b/":     "empty segments",
		"web-coding": "must start and end",
		"/a b/":      "must not contain ' '",
		"/a?x/":      "must not contain '?'",
		"/a..b/":     `must not contain ".."`,
	} {
		code, stdout, stderr := runCLI(t, &fakeHost{}, "", "build", "--base", base, "--out", out)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, want) {
			t.Errorf("--base %q: exit %d, stderr %q; want 2 and %q", base, code, stderr, want)
		}
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Fatalf("a refused build wrote %d entries", len(entries))
	}
	for _, ok := range []string{"/web-coding/", "/", "/a/b-c_d.e/"} {
		if err := checkBase(ok); err != nil {
			t.Errorf("checkBase(%q): %v", ok, err)
		}
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// serveOutput runs serve on dir until its first stderr output, stops it and returns stderr.
func serveOutput(t *testing.T, dir string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var errb lockedBuffer
	e := &env{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &errb, getenv: func(string) string { return "" }}
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--dir", dir}, e) }()
	deadline := time.Now().Add(10 * time.Second)
	for errb.String() == "" && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // let every line of the start be written
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("serve: exit %d: %s", code, errb.String())
	}
	return errb.String()
}

// serve names each built site, and says so when the directory holds none.
func TestServeSaysWhenNoSiteIsBuilt(t *testing.T) {
	empty := t.TempDir()
	os.Mkdir(filepath.Join(empty, "assets"), 0o755) // a directory without index.html is no site
	if got := serveOutput(t, empty); !strings.Contains(got, "no built site") || strings.Contains(got, "/assets/") {
		t.Fatalf("stderr %q", got)
	}
	built := t.TempDir()
	os.MkdirAll(filepath.Join(built, "web-coding"), 0o755)
	os.WriteFile(filepath.Join(built, "web-coding", "index.html"), []byte("<!doctype html>"), 0o644)
	if got := serveOutput(t, built); strings.Contains(got, "no built site") || !strings.Contains(got, "open http://127.0.0.1:") || !strings.Contains(got, "/web-coding/ (Ctrl+C stops)") {
		t.Fatalf("stderr %q", got)
	}
}

// The build's progress lines carry the time since the start and the step, one per line.
func TestBuildProgressPrinter(t *testing.T) {
	var b bytes.Buffer
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	at := start
	p := progressPrinter(&b, start, func() time.Time { return at })
	p("compiling the browser core")
	at = start.Add(83400 * time.Millisecond)
	p("bundling")
	want := "webcoding build: [+0.0s] compiling the browser core\nwebcoding build: [+83.4s] bundling\n"
	if b.String() != want {
		t.Fatalf("progress output %q, want %q", b.String(), want)
	}
}
