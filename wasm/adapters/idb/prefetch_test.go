//go:build js && wasm

package idb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/workspace"
)

// prefetchOf builds what site/js/core.js prefetchWorkspace resolves to for the snapshot s,
// with every text file's source replaced by marker+path, so a Load that used it shows.
func prefetchOf(s workspace.Snapshot, marker string) js.Value {
	order := make([]string, 0, len(s.Files))
	keys := js.Global().Get("Array").New()
	values := js.Global().Get("Array").New()
	for _, f := range s.Files {
		order = append(order, f.Path)
		g := *f
		if g.Kind != workspace.KindAsset {
			g.Source = marker + f.Path
		}
		keys.Call("push", f.Path)
		values.Call("push", encodeFile(&g))
	}
	o := newObject()
	o.Set("meta", encodeMeta(s.Metadata, order))
	o.Set("keys", keys)
	o.Set("values", values)
	return o
}

func setPrefetch(global string, v js.Value) {
	js.Global().Set(global, js.Global().Get("Promise").Call("resolve", v))
}

func marked(s workspace.Snapshot, marker string) int {
	n := 0
	for _, f := range s.Files {
		if strings.HasPrefix(f.Source, marker) {
			n++
		}
	}
	return n
}

// TestPrefetch: the first Load takes the shim's read when its "current" record is the stored
// one, and reads everything itself when it is stale (another tab wrote since), failed, never
// settles, is not a Promise, or was already taken; an empty database stays ErrNoWorkspace.
func TestPrefetch(t *testing.T) {
	ctx := context.Background()
	name := fmt.Sprintf("web-coding-test-%d", dbCounter.Add(1))
	writer := New(name)
	defer writer.Delete(ctx)
	const global = "__testPrefetch"
	defer js.Global().Delete(global)

	// Empty database: ErrNoWorkspace with and without a prefetch saying so.
	setPrefetch(global, newObject())
	r := New(name)
	r.UsePrefetch(global)
	if _, err := r.Load(ctx); !errors.Is(err, workspace.ErrNoWorkspace) {
		t.Fatalf("empty database: %v", err)
	}
	_ = r.Close()

	s := workspace.Seed()
	s.Revision = 5
	if err := writer.SaveSnapshot(ctx, s); err != nil {
		t.Fatal(err)
	}
	stored, err := New(name).Load(ctx)
	if err != nil {
		t.Fatal(err)
	}

	// Current: the prefetched files are used, once; the global is taken.
	setPrefetch(global, prefetchOf(stored, "PREFETCHED:"))
	r = New(name)
	r.UsePrefetch(global)
	got, err := r.Load(ctx)
	if err != nil || marked(got, "PREFETCHED:") == 0 || len(got.Files) != len(stored.Files) || got.Revision != 5 {
		t.Fatalf("current prefetch: %v, %d of %d files from it, revision %d", err, marked(got, "PREFETCHED:"), len(got.Files), got.Revision)
	}
	if !js.Global().Get(global).IsUndefined() {
		t.Fatal("the global was not taken")
	}
	if again, err := r.Load(ctx); err != nil || marked(again, "PREFETCHED:") != 0 {
		t.Fatalf("second Load: %v, %d prefetched files", err, marked(again, "PREFETCHED:"))
	}
	_ = r.Close()

	// Stale: another tab wrote after the shim read.
	if err := writer.SaveChanges(ctx, workspace.Metadata{RootName: stored.RootName, ActivePath: stored.ActivePath, Revision: 6},
		[]*workspace.File{workspace.NewTextFile("app.js", "second tab")}, nil); err != nil {
		t.Fatal(err)
	}
	cases := map[string]js.Value{
		"stale":       js.Global().Get("Promise").Call("resolve", prefetchOf(stored, "PREFETCHED:")),
		"error":       js.Global().Get("Promise").Call("resolve", js.ValueOf(map[string]any{"error": "QuotaExceededError"})),
		"not-promise": js.ValueOf(42),
		"unsettled":   js.Global().Get("Promise").New(js.FuncOf(func(js.Value, []js.Value) any { return nil })),
	}
	for _, c := range []string{"stale", "error", "not-promise", "unsettled"} {
		js.Global().Set(global, cases[c])
		r := New(name)
		r.UsePrefetch(global)
		start := time.Now()
		got, err := r.Load(ctx)
		_ = r.Close()
		if err != nil || got.Revision != 6 || marked(got, "PREFETCHED:") != 0 {
			t.Fatalf("%s: %v, revision %d, %d prefetched files", c, err, got.Revision, marked(got, "PREFETCHED:"))
		}
		app := ""
		for _, f := range got.Files {
			if f.Path == "app.js" {
				app = f.Source
			}
		}
		if app != "second tab" {
			t.Fatalf("%s: app.js = %q, want the second tab's write", c, app)
		}
		if c == "unsettled" && time.Since(start) < prefetchWait {
			t.Fatalf("unsettled: Load returned after %v, before the %v wait", time.Since(start), prefetchWait)
		}
	}
}
