package studio

import (
	"context"
	"errors"
	"fmt"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/workspace"
)

// The preview as context (issue 17): two read-only, revision-bound tools that tell a model or
// an MCP client what the preview of the current revision shows and said.

// Notes in the results of preview.getConsole and preview.inspect: what the host could not do.
const (
	noteNoRuntime  = "No page ran here: this host compiles the preview without running it (headless), so there are no console entries or runtime errors. Run the studio in a browser to read them."
	noteComputed   = "Computed from the entry page's markup as the HTML parser builds it, before any script ran; no computed styles or layout (computed: false)."
	noteLive       = "Read from the running preview page of this revision (the live DOM, computed styles and box in CSS px of the preview's viewport; computed: true). Tag, role, name, text and outerHTML are derived from the element's live markup."
	noteUnreadable = "The preview page's answer could not be read (it was malformed), so this was read from the entry page's markup without computed styles (computed: false)."
	noteNotLive    = "The preview page of this revision is not running (pending, failed before it was ready, navigated away or timed out), so this was read from the entry page's markup without computed styles (computed: false)."
)

type (
	inConsole struct {
		SinceSequence    int64    `json:"sinceSequence"`
		Levels           []string `json:"levels"`
		Limit            int      `json:"limit"`
		ExpectedRevision *int64   `json:"expectedRevision"`
	}
	consoleOut struct {
		Revision  int64                  `json:"revision"`
		Runtime   bool                   `json:"runtime"`
		Entries   []preview.ConsoleEntry `json:"entries"`
		Truncated bool                   `json:"truncated"`
		Note      string                 `json:"note,omitempty"`
		persist
	}
	inInspect struct {
		Selector         string `json:"selector"`
		ExpectedRevision *int64 `json:"expectedRevision"`
	}
	inspectOut struct {
		Revision int64  `json:"revision"`
		Path     string `json:"path"`
		preview.Element
		Computed bool              `json:"computed"`
		Styles   map[string]string `json:"styles,omitempty"`
		Box      *preview.Box      `json:"box,omitempty"`
		Note     string            `json:"note"`
		persist
	}
)

// guardRevision is the optional expectedRevision guard of a read-only tool: nil, or
// WORKSPACE_REVISION_CONFLICT {expectedRevision, currentRevision, operation} (retryable).
func guardRevision(expected *int64, current int64, operation string) error {
	if expected != nil && *expected != current {
		return workspace.RevisionConflict(*expected, current, operation)
	}
	return nil
}

// previewConsole is preview.getConsole: the current revision's console entries, uncaught
// errors and unhandled rejections (preview.SelectConsole over the port's
// preview.ConsoleObserver). Headless ports run no page: runtime false, no entries, a note.
func (e *studioSession) previewConsole(ctx context.Context, c *registry.Call) (any, error) {
	in, err := decode[inConsole](c)
	if err != nil {
		return nil, err
	}
	rev := e.m.Revision()
	if err := guardRevision(in.ExpectedRevision, rev, "getConsole"); err != nil {
		return nil, err
	}
	out := consoleOut{Revision: rev, Entries: []preview.ConsoleEntry{}, persist: e.meta(ctx)}
	co, ok := e.preview.(preview.ConsoleObserver)
	if !ok {
		out.Note = noteNoRuntime
		return out, nil
	}
	out.Runtime = true
	out.Entries, out.Truncated = preview.SelectConsole(co.ConsoleEntries(),
		preview.ConsoleQuery{Revision: rev, Since: in.SinceSequence, Levels: in.Levels, Limit: in.Limit})
	return out, nil
}

// previewInspect is preview.inspect: with a port whose page runs (preview.LiveInspector, the
// browser) the running page of the current revision answers (computed true, styles, box;
// docs/design.md §5.22); else — or when that page is not running, or its answer was
// malformed — preview.Inspect over the current revision's files (computed false, a note).
//
// Live errors (as preview.audit's): PREVIEW_REVISION_SUPERSEDED {requestedRevision,
// actualRevision, operation: "inspect"} (retryable) when the preview moved meanwhile;
// PREVIEW_RUNTIME_ERROR {revision, reason: "timeout"} (retryable) when the page did not answer
// within preview.LiveInspectSeconds.
//
// Errors: WORKSPACE_REVISION_CONFLICT (expectedRevision guard); TOOL_VALIDATION_FAILED
// {field: "selector", reason, detail?} for a selector Inspect cannot use;
// PREVIEW_TARGET_NOT_FOUND {target: "html-entry"} without an HTML entry, and {target:
// "element", path, selector, revision} when nothing matches.
func (e *studioSession) previewInspect(ctx context.Context, c *registry.Call) (any, error) {
	in, err := decode[inInspect](c)
	if err != nil {
		return nil, err
	}
	snap := e.m.Snapshot()
	if err := guardRevision(in.ExpectedRevision, snap.Revision, "inspect"); err != nil {
		return nil, err
	}
	note := noteComputed
	if li, ok := e.preview.(preview.LiveInspector); ok {
		if _, err := preview.ParseSelector(in.Selector); err == nil {
			sel, path, err := li.InspectLive(ctx, snap.Revision, in.Selector)
			switch {
			case err == nil:
				box := sel.Box
				return inspectOut{Revision: snap.Revision, Path: path, Element: sel.Element, Computed: true, Styles: sel.Styles, Box: &box, Note: noteLive, persist: e.meta(ctx)}, nil
			case errors.Is(err, preview.ErrRevisionMoved):
				now := e.m.Revision()
				return nil, mcp.NewError(mcp.CodePreviewRevisionSuperseded, true,
					map[string]any{"requestedRevision": snap.Revision, "actualRevision": now, "operation": "inspect"},
					"%s while the page was being inspected; inspect again.", movedOn(snap.Revision, now))
			case errors.Is(err, preview.ErrNotLive):
				note = noteNotLive // the parsed markup below
			case errors.Is(err, preview.ErrInspectTimeout):
				return nil, mcp.NewError(mcp.CodePreviewRuntimeError, true, map[string]any{"revision": snap.Revision, "reason": "timeout"},
					"The preview page of revision %d did not answer the inspection within %d s; inspect again, or Refresh the preview.", snap.Revision, preview.LiveInspectSeconds)
			case errors.Is(err, preview.ErrNoMatch):
				return nil, mcp.NewError(mcp.CodePreviewTargetNotFound, false,
					map[string]any{"target": "element", "path": path, "selector": in.Selector, "revision": snap.Revision},
					"No element of the running page %s matches the selector at revision %d.", path, snap.Revision)
			case errors.As(err, new(*preview.SelectorError)):
				return nil, selectorInvalid(err)
			case errors.As(err, new(*preview.SelectionError)):
				note = noteUnreadable // the page's answer was malformed: the parsed markup below
			default:
				return nil, err
			}
		}
	}
	el, path, err := preview.Inspect(previewFiles(snap.Files), in.Selector)
	switch {
	case errors.As(err, new(*preview.SelectorError)):
		return nil, selectorInvalid(err)
	case errors.Is(err, preview.ErrNoEntry):
		return nil, workspace.PreviewTargetNotFound("html-entry", "")
	case errors.Is(err, preview.ErrNoMatch):
		return nil, mcp.NewError(mcp.CodePreviewTargetNotFound, false,
			map[string]any{"target": "element", "path": path, "selector": in.Selector, "revision": snap.Revision},
			"No element of %s matches the selector at revision %d.", path, snap.Revision)
	case err != nil:
		return nil, err
	}
	return inspectOut{Revision: snap.Revision, Path: path, Element: el, Note: note, persist: e.meta(ctx)}, nil
}

// selectorInvalid is TOOL_VALIDATION_FAILED {field: "selector", reason, detail?} for a
// *preview.SelectorError err.
func selectorInvalid(err error) error {
	var se *preview.SelectorError
	errors.As(err, &se)
	d := map[string]any{"field": "selector", "reason": se.Reason}
	if se.Detail != "" {
		d["detail"] = se.Detail
	}
	return mcp.NewError(mcp.CodeToolValidationFailed, false, d, "The selector cannot be used (%s). Use a CSS selector such as h1, #id, .class, [attr=value], main > p:nth-of-type(2).", se.Reason)
}

// inspectStyles is the output schema of preview.inspect's styles: exactly
// preview.ComputedStyleProps, each a string of at most preview.MaxStyleValueChars.
func inspectStyles() string {
	props := make([]prop, len(preview.ComputedStyleProps))
	for i, name := range preview.ComputedStyleProps {
		props[i] = p(name, str(0, preview.MaxStyleValueChars))
	}
	return object(props, preview.ComputedStyleProps...)
}

// inspectBox is the output schema of preview.inspect's box (CSS px).
var inspectBox = object([]prop{p("x", `{"type":"number"}`), p("y", `{"type":"number"}`),
	p("width", `{"type":"number","minimum":0}`), p("height", `{"type":"number","minimum":0}`)}, "x", "y", "width", "height")

type (
	inAudit struct {
		ExpectedRevision *int64 `json:"expectedRevision"`
	}
	auditOut struct {
		Revision   int64                    `json:"revision"`
		Engine     string                   `json:"engine"`
		Violations []preview.AuditViolation `json:"violations"`
		Truncated  bool                     `json:"truncated"`
		persist
	}
)

// previewAudit is preview.audit: axe-core run by the browser's preview port (preview.Auditor)
// on the document of the current, acknowledged revision, its untrusted reply decoded by
// preview.DecodeAudit (docs/design.md §5.17).
//
// Errors: WORKSPACE_REVISION_CONFLICT (expectedRevision guard); PREVIEW_NEEDS_BROWSER
// {operation: "audit", runtime} (not retryable) on a port whose pages do not run (headless);
// PREVIEW_ACK_TIMEOUT {revision, timeoutMs} when the revision was not acknowledged in time;
// PREVIEW_REVISION_SUPERSEDED {requestedRevision, actualRevision, operation: "audit"}
// (retryable) when the revision or the page shown changed before or during the audit;
// PREVIEW_RUNTIME_ERROR {revision, reason} with reason "timeout" or "no-engine" (retryable),
// "engine" (axe failed in the page) or "invalid-reply" (the reply was refused), not retryable.
func (e *studioSession) previewAudit(ctx context.Context, c *registry.Call) (any, error) {
	in, err := decode[inAudit](c)
	if err != nil {
		return nil, err
	}
	rev := e.m.Revision()
	if err := guardRevision(in.ExpectedRevision, rev, "audit"); err != nil {
		return nil, err
	}
	au, ok := e.preview.(preview.Auditor)
	if !ok {
		return nil, mcp.NewError(mcp.CodePreviewNeedsBrowser, false,
			map[string]any{"operation": "audit", "runtime": e.preview.Runtime()},
			"preview.audit needs a browser: this host compiles the preview without running it, so there is no rendered page to audit. Open the studio in a browser and run the audit there.")
	}
	superseded := func() error {
		now := e.m.Revision()
		return mcp.NewError(mcp.CodePreviewRevisionSuperseded, true,
			map[string]any{"requestedRevision": rev, "actualRevision": now, "operation": "audit"},
			"%s before the audit finished; audit again.", movedOn(rev, now))
	}
	ack, err := e.preview.Await(ctx, rev, e.ackTimeout)
	switch {
	case errors.Is(err, preview.ErrAckTimeout):
		ms := e.ackTimeout.Milliseconds()
		return nil, mcp.NewError(mcp.CodePreviewAckTimeout, true, map[string]any{"revision": rev, "timeoutMs": ms},
			"Preview did not acknowledge revision %d within %d ms, so it cannot be audited. Refresh the preview.", rev, ms)
	case err != nil:
		return nil, err
	case ack.Revision != rev:
		return nil, superseded()
	}
	raw, err := au.Audit(ctx, rev, preview.DefaultAuditLimits)
	runtimeErr := func(reason string, retry bool, msg string) error {
		return mcp.NewError(mcp.CodePreviewRuntimeError, retry, map[string]any{"revision": rev, "reason": reason},
			"The audit of revision %d failed: %s", rev, mcp.Bound(msg, maxMessageChars))
	}
	switch {
	case errors.Is(err, preview.ErrAuditSuperseded):
		return nil, superseded()
	case errors.Is(err, preview.ErrAuditTimeout):
		return nil, runtimeErr("timeout", true, "it did not finish within "+itoa(int(preview.AuditTimeout.Seconds()))+" s.")
	case errors.Is(err, preview.ErrAuditNoEngine):
		return nil, runtimeErr("no-engine", true, "the audit engine (axe-core) could not be loaded.")
	case err != nil:
		return nil, err
	}
	rep, err := preview.DecodeAudit(raw)
	var af *preview.AuditFailure
	if errors.As(err, &af) {
		return nil, runtimeErr(af.Reason, false, af.Message)
	} else if err != nil {
		return nil, err
	}
	if e.m.Revision() != rev {
		return nil, superseded()
	}
	return auditOut{Revision: rev, Engine: rep.Engine, Violations: rep.Violations, Truncated: rep.Truncated, persist: e.meta(ctx)}, nil
}

// movedOn says how the preview left revision rev (now is the workspace's revision): another
// revision, or — the same revision — its page was shown again (a fresh frame after an
// uncertain acknowledgement, a Refresh), navigated to another workspace page, or is no longer
// acknowledged. Before, the second case read "moved on from revision 5 (now 5)".
func movedOn(rev, now int64) string {
	if now != rev {
		return fmt.Sprintf("The preview moved on from revision %d (now %d)", rev, now)
	}
	return fmt.Sprintf("The preview's page of revision %d changed (shown again in a new frame, navigated to another page, or no longer acknowledged)", rev)
}
