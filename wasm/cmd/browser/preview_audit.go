//go:build js && wasm

package main

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"syscall/js"

	"github.com/webcoding/studio/wasm/planner"
	"github.com/webcoding/studio/wasm/ui/views"
)

// The accessibility audit panel (issue 17; docs/design.md §5.17): "Audit" in the preview
// toolbar (which opens the panel) and "Run accessibility audit" in it call preview.audit through tools/call — the same registry call a model, the catalog or an
// MCP client makes — and lists the violations with their impact and selectors. "Ask to fix"
// attaches one violation as an audit context chip (planner.AttachAudit through addChip, the
// same path as a pick or a runtime error's Ask to fix: docs/design.md §5.23) and focuses the
// prompt; the user sees the chip's exact context text, may remove it, and sends it with a
// prompt of their own (nothing runs by itself).

// auditPanel (app.auditState) is the last audit shown.
type auditPanel struct {
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
			a.auditState.Lock()
			v := a.auditState.v
			a.auditState.Unlock()
			a.setRegion("preview-audit", views.AuditHTML(v))
		},
		action: func(a *app, act uiAction) bool {
			switch act.Name {
			case "preview-audit":
				a.auditState.Lock()
				if a.auditState.v.Running {
					a.auditState.Unlock()
					return true
				}
				a.auditState.v.Running, a.auditState.v.Err = true, ""
				a.auditState.Unlock()
				// The toolbar's Audit button opens the panel the results go to.
				if box := js.Global().Get("document").Call("getElementById", "preview-audit-box"); !box.IsNull() {
					box.Set("open", true)
				}
				a.markDirty()
				var out auditResult
				err := a.tool(context.Background(), "preview.audit", nil, &out)
				a.auditState.Lock()
				a.auditState.v.Running = false
				if err != nil {
					var te *toolCallError
					msg := err.Error()
					if errors.As(err, &te) {
						msg = "[" + te.Code + "] " + te.Message
					}
					a.auditState.v.Err = msg
				} else {
					v := views.AuditView{Done: true, Revision: out.Revision, Truncated: out.Truncated, Violations: []views.AuditViolation{}}
					for _, x := range out.Violations {
						v.Violations = append(v.Violations, views.AuditViolation{ID: x.ID, Impact: x.Impact, Help: x.Help, HelpURL: x.HelpURL, Count: x.Count, Selectors: x.Selectors})
					}
					a.auditState.v = v
				}
				a.auditState.Unlock()
			case "audit-ask":
				i, err := strconv.Atoi(act.Data["arg"])
				a.auditState.Lock()
				v := a.auditState.v
				a.auditState.Unlock()
				if err != nil || i < 0 || i >= len(v.Violations) {
					return true
				}
				x := v.Violations[i]
				addChip(a, planner.Attachment{Kind: planner.AttachAudit, Rule: x.ID, Impact: x.Impact, Message: x.Help,
					Selector: strings.Join(x.Selectors, ", "), Count: x.Count})
			default:
				return false
			}
			a.markDirty()
			return true
		},
	})
}
