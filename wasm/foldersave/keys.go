package foldersave

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/workspace"
)

// PlanKey is the key of the record that keeps the pre-save hashes of one save:
// "workspace.saveAll.plan:<scope>:<revision>", a completed record whose result is
// {"previousHashes": {path: "sha256:…"}} for every dirty or deleted path the folder held. It is
// written once, before the save's first item is claimed, so a page that stops in the middle of
// a write can still tell "the folder holds the bytes from before the save" (failed, safe to
// retry) from "the folder holds other bytes" (unknown) when it reconciles.
func PlanKey(scope string, rev int64) string {
	return "workspace.saveAll.plan:" + scope + ":" + strconv.FormatInt(rev, 10)
}

// previousHash returns the pre-save hash noted for path in the save of key ("" when none);
// plans caches the plan records read during one reconciliation.
func previousHash(ctx context.Context, store *durable.Store, scope, key, path string, plans map[string]map[string]string) string {
	rest, ok := strings.CutPrefix(key, saveKeyPrefix(scope))
	if !ok {
		return ""
	}
	rev, _, _ := strings.Cut(rest, ":")
	m, seen := plans[rev]
	if !seen {
		m = map[string]string{}
		if rec, found, err := store.Get(ctx, "workspace.saveAll.plan:"+scope+":"+rev); err == nil && found && rec.State == durable.StateCompleted {
			var v struct {
				PreviousHashes map[string]string `json:"previousHashes"`
			}
			if json.Unmarshal(rec.Result, &v) == nil && v.PreviousHashes != nil {
				m = v.PreviousHashes
			}
		}
		plans[rev] = m
	}
	return m[path]
}

// saveKeyPrefix is the key prefix of the scope's save records.
func saveKeyPrefix(scope string) string { return "workspace.saveAll:" + scope + ":" }

// parseSaveKey splits "workspace.saveAll:<scope>:<revision>:<op>:<path>" (the scope may hold
// ":" only before the revision; the path may hold ":").
func parseSaveKey(key, scope string) (op, path string, ok bool) {
	rest, found := strings.CutPrefix(key, saveKeyPrefix(scope))
	if !found {
		return "", "", false
	}
	_, rest, found = strings.Cut(rest, ":") // revision
	if !found {
		return "", "", false
	}
	op, path, found = strings.Cut(rest, ":")
	if !found || (op != workspace.SaveOpWrite && op != workspace.SaveOpDelete) || path == "" {
		return "", "", false
	}
	return op, path, true
}

// plannedHash returns the sha256 a write's fingerprint names.
func plannedHash(fp string) string {
	if i := strings.LastIndex(fp, ":sha256:"); i >= 0 {
		return fp[i+1:]
	}
	return ""
}
