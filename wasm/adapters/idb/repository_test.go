//go:build js && wasm

package idb

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/webcoding/studio/wasm/workspace"
	"github.com/webcoding/studio/wasm/workspace/workspacetest"
)

var dbCounter atomic.Int64

// TestRepositoryContract runs the workspace Repository contract against real IndexedDB (only
// in a browser: e2e/browser TestIndexedDBRepository runs this binary in Chromium).
func TestRepositoryContract(t *testing.T) {
	workspacetest.RunRepository(t, func(t *testing.T) workspace.Repository {
		r := New(fmt.Sprintf("web-coding-test-%d", dbCounter.Add(1)))
		t.Cleanup(func() { _ = r.Delete(context.Background()) })
		return r
	})
}

// TestSurvivesReopen checks that a second Repository over the same database sees the data
// (what a page reload does).
func TestSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	name := fmt.Sprintf("web-coding-test-%d", dbCounter.Add(1))
	a := New(name)
	defer a.Delete(ctx)
	s := workspace.Seed()
	s.Revision = 41
	if err := a.SaveSnapshot(ctx, s); err != nil {
		t.Fatal(err)
	}
	if err := a.SaveChanges(ctx, workspace.Metadata{RootName: s.RootName, ActivePath: "app.js", Revision: 42},
		[]*workspace.File{workspace.NewTextFile("app.js", "x()")}, nil); err != nil {
		t.Fatal(err)
	}
	_ = a.Close()
	got, err := New(name).Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.Revision != 42 || got.ActivePath != "app.js" || len(got.Files) != len(s.Files) {
		t.Fatalf("reopened: %+v, %d files", got.Metadata, len(got.Files))
	}
	for _, f := range got.Files {
		if f.Path == "app.js" && f.Source != "x()" {
			t.Fatalf("app.js = %q", f.Source)
		}
	}
}

// TestMissingIndexedDB checks that a page without IndexedDB gets errors, not panics.
func TestMissingIndexedDB(t *testing.T) {
	defer hideIndexedDB()()
	r := New(fmt.Sprintf("web-coding-test-%d", dbCounter.Add(1)))
	if _, err := r.Load(context.Background()); err == nil {
		t.Fatal("Load without IndexedDB succeeded")
	}
	if err := r.SaveSnapshot(context.Background(), workspace.Seed()); err == nil {
		t.Fatal("SaveSnapshot without IndexedDB succeeded")
	}
}
