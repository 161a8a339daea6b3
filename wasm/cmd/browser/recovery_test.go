//go:build js && wasm

package main

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func labels(acts []entryAction) string {
	var s []string
	for _, a := range acts {
		s = append(s, a.Label)
	}
	return strings.Join(s, "|")
}

// These tests run in Chromium (e2e/browser TestBrowserPackageUnitsInChromium: the package is
// GOOS=js only).

func TestToolCallErrorAndDetails(t *testing.T) {
	var err error = &toolCallError{Tool: "workspace.writeFile", Code: "PREVIEW_RUNTIME_ERROR", Message: "boom",
		Details: json.RawMessage(`{"revision":4,"applied":true}`)}
	if err.Error() != "[PREVIEW_RUNTIME_ERROR] boom" {
		t.Fatal(err.Error())
	}
	var te *toolCallError
	if !errors.As(err, &te) || !detailsApplied(te.Details) {
		t.Fatal("applied")
	}
	args := withExpectedRevision(map[string]any{"path": "a", "expectedRevision": 3}, 9).(map[string]any)
	if args["expectedRevision"] != int64(9) || args["path"] != "a" {
		t.Fatalf("fresh revision %v", args)
	}
	if _, ok := withExpectedRevision(map[string]any{"path": "a"}, 9).(map[string]any)["expectedRevision"]; ok {
		t.Fatal("an unguarded call must stay unguarded")
	}
}

func TestStoreRerunIsBounded(t *testing.T) {
	a := &app{}
	first := a.storeRerun(nil)
	for i := 0; i < maxRecoveryTargets; i++ {
		a.storeRerun(nil)
	}
	a.recoveryStore.mu.Lock()
	defer a.recoveryStore.mu.Unlock()
	if _, ok := a.recoveryStore.items[first]; ok || len(a.recoveryStore.items) != maxRecoveryTargets {
		t.Fatalf("store holds %d items (first kept: %v)", len(a.recoveryStore.items), ok)
	}
}
