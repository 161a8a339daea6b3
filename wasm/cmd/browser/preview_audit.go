//go:build js && wasm

package main

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"syscall/js"

	"github.com/webcoding/studio/wasm/ui/views"
)

// The accessibility audit panel (issue 17; docs/design.md §5.17): "Audit" in the preview
// toolbar (which opens the panel) and "Run accessibility audit" in it call preview.audit through tools/call — the same registry call a model, the catalog or an
// MCP client makes — and lists the violations with their impact and selectors. "Ask to fix"
// puts a bounded description of one violation (views.AuditAskText) into the prompt and
// focuses it; the user reads it and sends it (nothing runs by itself).

var auditState struct {
	sync.Mutex
	v views.AuditView
}

type auditResult struct {
	Revision   int64 `json:"revision"`
	Violations []struct {
		ID        string   `json:"id"`
		Impact    string   `json:"impact"`
		Help      string   `json:"help"`
		HelpURL   string   `json:"helpUrl"`
		Count     int      `json:"count"`
		Selectors []string `json:"selectors"`
	} `json:"violations"`
	Truncated bool `json:"truncated"`
}

func init() {
	registerFeature(&feature{
		name: "preview-audit",
		render: func(a *app) {
			auditState.Lock()
			v := auditState.v
			auditState.Unlock()
			setRegion("preview-audit", views.AuditHTML(v))
		},
		action: func(a *app, act uiAction) bool {
			switch act.Name {
			case "preview-audit":
				auditState.Lock()
				if auditState.v.Running {
					auditState.Unlock()
					return true
				}
				auditState.v.Running, auditState.v.Err = true, ""
				auditState.Unlock()
				// The toolbar's Audit button opens the panel the results go to.
				if box := js.Global().Get("document").Call("getElementById", "preview-audit-box"); !box.IsNull() {
					box.Set("open", true)
				}
				a.markDirty()
				var out auditResult
				err := a.tool(context.Background(), "preview.audit", nil, &out)
				auditState.Lock()
				auditState.v.Running = false
				if err != nil {
					var te *toolCallError
					msg := err.Error()
					if errors.As(err, &te) {
						msg = "[" + te.Code + "] " + te.Message
					}
					auditState.v.Err = msg
				} else {
					v := views.AuditView{Done: true, Revision: out.Revision, Truncated: out.Truncated, Violations: []views.AuditViolation{}}
					for _, x := range out.Violations {
						v.Violations = append(v.Violations, views.AuditViolation{ID: x.ID, Impact: x.Impact, Help: x.Help, HelpURL: x.HelpURL, Count: x.Count, Selectors: x.Selectors})
					}
					auditState.v = v
				}
				auditState.Unlock()
			case "audit-ask":
				i, err := strconv.Atoi(act.Data["arg"])
				auditState.Lock()
				v := auditState.v
				auditState.Unlock()
				if err != nil || i < 0 || i >= len(v.Violations) {
					return true
				}
				box := js.Global().Get("document").Call("getElementById", "prompt")
				if !box.IsNull() {
					box.Set("value", views.AuditAskText(v.Violations[i], v.Revision))
					box.Call("dispatchEvent", js.Global().Get("Event").New("input", map[string]any{"bubbles": true}))
					box.Call("focus")
				}
			default:
				return false
			}
			a.markDirty()
			return true
		},
	})
}
