package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/webcoding/studio/wasm/mcp"
)

func init() {
	register(&command{
		Name:    "agent",
		Usage:   `[--dir DIR] [--provider local] [--approve all|none|TOOL,...] [--save] [--downloads DIR] [--durable URL] [--module PATH] [--host-timeout D] "prompt"`,
		Summary: "run the local agent on a prompt; JSON Lines of its calls and results, then the summary",
		Run:     runAgent,
	})
}

// agentFlags are the flags of `agent` (SPEC §3).
type agentFlags struct {
	provider, endpoint, model, dataPolicy string
	approve, durable                      string
	save                                  bool
	ws                                    *workspaceFlags
}

// agentCall is one output line per tool call: the tools/call params the agent (or --save)
// sent and the canonical result.
type agentCall struct {
	Request json.RawMessage `json:"request"`
	Result  json.RawMessage `json:"result"`
}

// agentSummary is the last output line: the agent's report without its calls, whether the
// changes were written (saved), what is left unsaved and a sentence saying so.
type agentSummary struct {
	Summary          string          `json:"summary"`
	Failed           bool            `json:"failed"`
	FailedTool       string          `json:"failedTool,omitempty"`
	ErrorCode        string          `json:"errorCode,omitempty"`
	Retryable        *bool           `json:"retryable,omitempty"`
	RevisionConflict bool            `json:"revisionConflict,omitempty"`
	Saved            bool            `json:"saved"`
	Unsaved          *unsavedChanges `json:"unsaved,omitempty"`
	Message          string          `json:"message,omitempty"`
}

type unsavedChanges struct {
	DirtyPaths   []string `json:"dirtyPaths"`
	DeletedPaths []string `json:"deletedPaths"`
}

// runAgent runs the local agent (agent/run: the deterministic planner of REFERENCE §7,
// executing through the registry with source local, mode agent, so approvals apply) on the
// prompt, over --dir or the seed workspace. --approve (default none) becomes the session's
// static approver. Output, JSON Lines:
//
//	{"request":{tools/call params},"result":{CallToolResult}}   one per call, in order
//	{"summary","failed","failedTool"?,"errorCode"?,"retryable"?,"saved","unsaved"?,"message"?}
//
// --save ends with workspace.saveAll through the registry (agent mode, so --approve decides;
// its call is printed like the agent's) unless the run failed, so a half-done plan is never
// written; saved is true when it succeeded. Without --save, or when saving failed or was
// skipped, unsaved lists what was not written and message says so.
//
// Errors: exit 2 for bad flags or a missing/blank prompt; exit 1 when the module cannot start,
// fails, or refuses agent/run.
func runAgent(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("agent", e)
	f := agentFlags{ws: addWorkspaceFlags(fs, true)}
	fs.StringVar(&f.provider, "provider", "local", "the model: local (the deterministic local agent) or openrouter (not yet supported)")
	fs.StringVar(&f.endpoint, "endpoint", "", "provider endpoint `URL` (openrouter only)")
	fs.StringVar(&f.model, "model", "", "provider model `ID` (openrouter only)")
	fs.StringVar(&f.dataPolicy, "data-policy", "", "provider data policy allow|deny|zdr (openrouter only)")
	fs.StringVar(&f.approve, "approve", "none", "approvals: all, none, or a comma-separated list of tool names")
	fs.BoolVar(&f.save, "save", false, "end with workspace.saveAll (through the registry, so --approve applies)")
	fs.StringVar(&f.durable, "durable", "", "durable operations backend `URL` (redis://, postgres://)")
	hf := addHostFlags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usagef("%v", err)
	}
	if fs.NArg() != 1 || strings.TrimSpace(fs.Arg(0)) == "" {
		return usagef("give exactly one non-blank prompt after the flags (got %d arguments)", fs.NArg())
	}
	prompt := fs.Arg(0)
	if err := validateApprove(f.approve); err != nil {
		return err
	}
	switch f.provider {
	case "local":
	case "openrouter":
		return fmt.Errorf("--provider openrouter is not yet supported")
	default:
		return usagef("--provider must be local or openrouter, got %q", f.provider)
	}
	switch f.dataPolicy {
	case "", "allow", "deny", "zdr":
	default:
		return usagef("--data-policy must be allow, deny or zdr, got %q", f.dataPolicy)
	}
	if f.endpoint != "" || f.model != "" || f.dataPolicy != "" {
		fmt.Fprintln(e.stderr, "webcoding agent: --endpoint, --model and --data-policy apply to --provider openrouter only; ignored")
	}
	if f.durable != "" {
		fmt.Fprintln(e.stderr, "webcoding agent: --durable is not yet supported")
	}
	f.ws.apply(hf)

	h, err := e.newHost(ctx, e, hf)
	if err != nil {
		return err
	}
	defer h.Close(context.WithoutCancel(ctx))
	c := &rpcClient{h: h}
	if err := configureApproval(ctx, c, f.approve); err != nil {
		return err
	}
	params, err := marshal(map[string]string{"prompt": prompt})
	if err != nil {
		return err
	}
	raw, rerr, err := c.call(ctx, "agent/run", params)
	if err != nil {
		return err
	}
	if rerr != nil {
		return fmt.Errorf("agent/run: the core answered %v", rerr)
	}
	var rep struct {
		Calls []agentCall `json:"calls"`
		agentSummary
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		return fmt.Errorf("agent/run: the module answered something that is not a report: %v", err)
	}
	out := bufio.NewWriter(e.stdout)
	for _, call := range rep.Calls {
		if err := writeJSONLine(out, call); err != nil {
			return err
		}
	}
	sum := rep.agentSummary
	how := "run again with --save to write them"
	switch {
	case f.save && rep.Failed:
		how = "--save was skipped because the run failed"
	case f.save:
		p, res, r, err := toolCall(ctx, c, "workspace.saveAll", nil, mcp.ModeAgent, "cli-save-")
		if err != nil {
			return err
		}
		if err := writeJSONLine(out, agentCall{Request: p, Result: res}); err != nil {
			return err
		}
		sum.Saved = !r.IsError
		if r.IsError && r.Error != nil {
			how = fmt.Sprintf("workspace.saveAll failed with %s", r.Error.Code)
		}
	}
	u, err := workspaceStatus(ctx, c)
	if err != nil {
		return err
	}
	switch {
	case u != nil && u.any():
		sum.Unsaved = &unsavedChanges{DirtyPaths: u.DirtyPaths, DeletedPaths: u.DeletedPaths}
		sum.Message = unsavedNote(f.ws.dir, how)
	case f.save && rep.Failed:
		sum.Message = "workspace.saveAll was not run because the run failed; nothing was written."
	}
	return writeJSONLine(out, sum)
}

// writeJSONLine writes v as one JSON line (no HTML escaping) and flushes.
func writeJSONLine(out *bufio.Writer, v any) error {
	b, err := marshal(v)
	if err != nil {
		return err
	}
	return writeLine(out, b)
}
