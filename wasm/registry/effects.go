package registry

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/mcp"
)

// Effect scopes.
const (
	// EffectWorkspace: the effect lives in the workspace's files (an edit).
	EffectWorkspace = "workspace"
	// EffectFolder: the effect lives in the linked folder (a save); checking it reads the
	// folder back.
	EffectFolder = "folder"
)

// Effect says where the effect of a successful mutating call lives (issue 14 item 4): the
// workspace instance it ran in and the fingerprint of each path it touched, taken right after
// the call ("" = no file at that path). It is stored with the call's durable record, so a
// replay of the key can check that the effect is where the caller looks.
//
//	{"instance": "ws-…", "scope": "workspace"|"folder", "paths": {"styles.css": "sha256:…", "old.js": ""}}
type Effect struct {
	Instance string            `json:"instance"`
	Scope    string            `json:"scope"`
	Paths    map[string]string `json:"paths"`
}

// EffectCheck is what Effects.Check found: SameInstance when the caller's workspace instance
// is the one the effect was stamped in; Changed lists (sorted) the paths whose fingerprint
// differs now from the stamped one.
type EffectCheck struct {
	SameInstance bool
	Changed      []string
}

// Effects locates the effects of mutating calls (Options.Effects; the studio's workspace
// implements it). The registry calls Capture right before the handler of a mutating call
// (annotations without readOnlyHint) that carries an idempotencyKey, Stamp after it succeeded
// (with Capture's value), and Check on each replay of such a call's record. Implementations
// must be safe for concurrent use and must not call back into the registry.
//
// Replay rules (issue 14): same instance → the replay succeeds (mcp.Replay.Superseded when
// Changed is not empty: never a reason to run again); another instance with nothing changed
// → success (the effect is present here); another instance with changes → the typed
// TOOL_IDEMPOTENCY_NOT_APPLIED, which a later call with the same key gets again (never an
// assumed success). A Check error is treated as "not applied here" (the safe side).
type Effects interface {
	Capture() any
	Stamp(ctx context.Context, call *Call, before any, structured json.RawMessage) (*Effect, error)
	Check(ctx context.Context, e Effect) (EffectCheck, error)
}

// SetEffects sets Options.Effects after New (the studio creates its workspace while
// registering its tools). Call it before serving calls; it is not synchronized with them.
func (r *Registry) SetEffects(fx Effects) { r.opts.Effects = fx }

// maxNotAppliedPaths bounds the paths listed in a TOOL_IDEMPOTENCY_NOT_APPLIED's details.
const maxNotAppliedPaths = 20

// mutating reports whether e's tool may change state (no readOnlyHint).
func mutating(e *entry) bool {
	return e.def.Annotations == nil || !e.def.Annotations.ReadOnlyHint
}

// invokeStamped is invoke for a call whose effect the registry must be able to locate later:
// with Options.Effects and a mutating tool, the success outcome carries its Effect.
func (s *callState) invokeStamped(runCtx, callerCtx context.Context, e *entry) outcome {
	fx := s.r.opts.Effects
	if fx == nil || !mutating(e) {
		return s.invoke(runCtx, callerCtx, e)
	}
	before := fx.Capture()
	out := s.invoke(runCtx, callerCtx, e)
	if out.err == nil {
		call := s.call
		if eff, err := fx.Stamp(context.WithoutCancel(callerCtx), &call, before, out.sc); err == nil && eff != nil {
			out.effect = eff
		}
	}
	return out
}

// checkReplay applies the replay rules of Effects to a success outcome being replayed for
// operation key (empty for in-memory replays).
func (s *callState) checkReplay(ctx context.Context, key string, out outcome) outcome {
	fx := s.r.opts.Effects
	if out.err != nil || out.effect == nil || fx == nil {
		return out
	}
	c, err := fx.Check(context.WithoutCancel(ctx), *out.effect)
	if err != nil {
		return s.notApplied(key, out.effect, nil, err.Error())
	}
	if c.SameInstance {
		out.replay = &mcp.Replay{OperationKey: key, Instance: mcp.ReplaySameInstance, Superseded: len(c.Changed) > 0, SupersededPaths: c.Changed}
		return out
	}
	if len(c.Changed) > 0 {
		return s.notApplied(key, out.effect, c.Changed, "")
	}
	out.replay = &mcp.Replay{OperationKey: key, Instance: mcp.ReplayOtherInstance}
	return out
}

// notApplied is TOOL_IDEMPOTENCY_NOT_APPLIED for a completed record whose effect is not in
// this workspace instance: details {operationKey, state:"completed", reason, instance (where
// it ran), scope, paths (≤ 20 of those that differ here), morePaths?, checkError?, reconcile}.
func (s *callState) notApplied(key string, eff *Effect, changed []string, checkErr string) outcome {
	reason := "effect-absent"
	if checkErr != "" {
		reason = "effect-unverified"
	}
	paths := changed
	if paths == nil {
		for p := range eff.Paths {
			paths = append(paths, p)
		}
		slices.Sort(paths)
	}
	details := map[string]any{"operationKey": key, "state": "completed", "reason": reason, "instance": eff.Instance, "scope": eff.Scope,
		"reconcile": "Open the workspace the call ran in (or save it there), or apply the change here under a new idempotencyKey; this key will keep answering TOOL_IDEMPOTENCY_NOT_APPLIED here."}
	if len(paths) > maxNotAppliedPaths {
		details["morePaths"] = len(paths) - maxNotAppliedPaths
		paths = paths[:maxNotAppliedPaths]
	}
	details["paths"] = paths
	if checkErr != "" {
		details["checkError"] = checkErr
	}
	where := "this workspace"
	if eff.Scope == EffectFolder {
		where = "the linked folder"
	}
	msg := fmt.Sprintf("The call with this idempotencyKey completed in another workspace instance, but its effect is not in %s (%s): it was not applied here. Reconcile before relying on it.", where, strings.Join(paths, ", "))
	if checkErr != "" {
		msg = fmt.Sprintf("The call with this idempotencyKey completed in another workspace instance, and its effect could not be verified in %s: %s. Reconcile before relying on it.", where, checkErr)
	}
	return outcome{state: audit.StateFailed, err: mcp.NewError(mcp.CodeToolIdempotencyNotApplied, false, details, "%s", msg)}
}
