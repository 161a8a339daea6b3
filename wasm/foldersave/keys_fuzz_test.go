package foldersave

import (
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/workspace"
)

// FuzzSaveKey: parseSaveKey inverts SaveItem.OperationKey for every scope, revision, op and
// non-empty path (paths and scopes may hold ":"), never panics on arbitrary keys, and
// plannedHash recovers the hash of a write fingerprint.
func FuzzSaveKey(f *testing.F) {
	f.Add("folder:1234", int64(7), true, "css/a b.css", "")
	f.Add("folder:x:y", int64(0), false, "a:b/c:d.txt", "workspace.saveAll:folder:x:1:write:p")
	f.Add("", int64(-3), true, "%", "workspace.saveAll::")
	f.Fuzz(func(t *testing.T, scope string, rev int64, write bool, path, raw string) {
		_, _, _ = parseSaveKey(raw, scope)
		_ = plannedHash(raw)
		op := workspace.SaveOpDelete
		if write {
			op = workspace.SaveOpWrite
		}
		data := []byte(path + scope)
		it := workspace.SaveItem{Op: op, Path: path, Revision: rev, ScopeID: scope, SourceHash: workspace.SourceHash(data)}
		gotOp, gotPath, ok := parseSaveKey(it.OperationKey(), scope)
		if path == "" {
			if ok {
				t.Fatalf("empty path parsed from %q", it.OperationKey())
			}
			return
		}
		if !ok || gotOp != op || gotPath != path {
			t.Fatalf("parse(%q) = %q %q %v, want %q %q", it.OperationKey(), gotOp, gotPath, ok, op, path)
		}
		if write && plannedHash(it.Fingerprint()) != it.SourceHash {
			t.Fatalf("plannedHash(%q) = %q", it.Fingerprint(), plannedHash(it.Fingerprint()))
		}
		if pk := PlanKey(scope, rev); strings.HasPrefix(pk, saveKeyPrefix(scope)) {
			t.Fatalf("plan key %q is inside the save records' prefix", pk)
		}
	})
}
