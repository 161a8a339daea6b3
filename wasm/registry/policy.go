package registry

import (
	"context"
	"encoding/json"

	"github.com/webcoding/studio/wasm/mcp"
)

// Decision is a policy verdict.
type Decision int

const (
	// Allow runs the call.
	Allow Decision = iota + 1
	// Ask means a person must approve first; without an approver the call fails with
	// TOOL_APPROVAL_REQUIRED (retryable).
	Ask
	// Deny refuses the call: TOOL_POLICY_DENIED.
	Deny
)

func (d Decision) String() string {
	switch d {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return "invalid"
}

// PolicyRequest is what a policy sees of a call: the tool's definition (annotations included),
// the call's identity and context, and the validated arguments.
type PolicyRequest struct {
	Tool       mcp.Tool
	ToolCallID string
	Source     string
	Mode       string
	SessionID  string
	Arguments  json.RawMessage
}

// Policy decides whether a call may run. It receives the call's context, so a policy that
// waits (for a person) must return when ctx is done. An error (other than ctx's own) yields
// TOOL_POLICY_FAILED (retryable).
type Policy interface {
	Decide(ctx context.Context, req PolicyRequest) (Decision, error)
}

// PolicyFunc adapts a function to Policy.
type PolicyFunc func(ctx context.Context, req PolicyRequest) (Decision, error)

// Decide calls f.
func (f PolicyFunc) Decide(ctx context.Context, req PolicyRequest) (Decision, error) {
	return f(ctx, req)
}

// Approver asks a person (or a script standing in for one) to approve a call. It returns
// Allow or Deny, or Ask when it cannot decide (no person is there); a ctx error when the
// call was cancelled while waiting.
type Approver interface {
	Approve(ctx context.Context, req PolicyRequest) (Decision, error)
}

// DefaultPolicy is the studio policy of REFERENCE §8: read-only tools and direct-mode calls
// (explicit UI and palette actions) are allowed; every other call is put to approver. With a
// nil approver those calls are Ask (TOOL_APPROVAL_REQUIRED).
func DefaultPolicy(approver Approver) Policy {
	return PolicyFunc(func(ctx context.Context, req PolicyRequest) (Decision, error) {
		if req.Mode == mcp.ModeDirect || (req.Tool.Annotations != nil && req.Tool.Annotations.ReadOnlyHint) {
			return Allow, nil
		}
		if approver == nil {
			return Ask, nil
		}
		return approver.Approve(ctx, req)
	})
}

// StaticApprover approves the listed tools (all tools when All is set) and answers Ask for
// the rest. Tools annotated destructiveHint need AllowDestructive as well. It is what the CLI's
// and the MCP server's --approve and --allow-destructive flags configure (SPEC §3).
type StaticApprover struct {
	All              bool
	Tools            map[string]bool
	AllowDestructive bool
}

// Approve implements Approver.
func (s StaticApprover) Approve(_ context.Context, req PolicyRequest) (Decision, error) {
	if !(s.All || s.Tools[req.Tool.Name]) {
		return Ask, nil
	}
	if req.Tool.Annotations != nil && req.Tool.Annotations.DestructiveHint && !s.AllowDestructive {
		return Ask, nil
	}
	return Allow, nil
}
