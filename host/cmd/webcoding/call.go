package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/webcoding/studio/host/mcpserver"
	"github.com/webcoding/studio/host/wasmhost"
	"github.com/webcoding/studio/wasm/jsonstring"
	"github.com/webcoding/studio/wasm/mcp"
)

// maxLineBytes bounds one stdin line: the host's request limit less room for the JSON-RPC
// envelope and the _meta the CLI adds. A longer line is answered with TOOL_VALIDATION_FAILED
// (details.reason "too-large") without being held in memory.
const maxLineBytes = wasmhost.DefaultMaxRequestBytes - 64<<10

func init() {
	register(&command{
		Name:    "call",
		Usage:   "[--surface studio|realtime|live] [--dir DIR] [--mode direct|agent] [--approve all|none|TOOL,...] [--autosave] [--downloads DIR] [--durable memory|redis://…|postgres://…] [--module PATH] [--host-timeout D]",
		Summary: "run JSON Lines of tools/call params from stdin; one result per line on stdout",
		Run:     runCall,
	})
}

// callFlags are the flags of `call` (SPEC §3).
type callFlags struct {
	mode, approve, durable string
	surface                *string
	autosave               bool
	ws                     *workspaceFlags
}

// runCall reads JSON Lines of MCP tools/call params ({"name","arguments"?,"_meta"?}) from stdin
// and writes one canonical CallToolResult line per non-blank input line to stdout, in order
// (blank lines are skipped; a trailing "\r" is ignored).
//
// The CLI sets the call context in each request's _meta: source "local", mode from --mode, and
// a generated toolCallId ("cli-<hex>") when the line has none. A line that sets source or mode
// to something else is refused (a line cannot leave agent mode's approvals), as is a line that
// is not valid params (the result is the same TOOL_VALIDATION_FAILED the core gives) or is
// longer than maxLineBytes. A JSON-RPC error from the core becomes an error result too.
//
// Workspace (SPEC §3): --dir links a folder (else the seed workspace); edits live in memory
// and reach the folder only through workspace.saveAll or --autosave, which follows every
// successful call of a tool that is not read-only (mcpserver.ReadOnlyTool: annotations
// readOnlyHint) that left unsaved changes with a workspace.saveAll (direct mode, id
// "cli-autosave-<hex>"; its result is not printed; a failed save turns the call's line into an
// error result with details.applied true, see mcpserver.AutosaveFailed). A read-only call
// (workspace.getStatus, workspace.readFile, ...) always gets its own result, even while an
// earlier save keeps failing. When
// changes are left unsaved at the end, one last line says so:
//
//	{"unsaved":{"dirtyPaths":[...],"deletedPaths":[...]},"message":"Changes were not written ..."}
//
// In agent mode --approve becomes the session's static approver (see approvalConfig); every
// listed name must be a tool of tools/list, canonical or provider form (else exit 2). In direct
// mode it is accepted and ignored, with a one-line note on stderr.
//
// --durable memory gives the session the core's in-memory durable store (idempotency records
// for this command's lifetime). --durable redis://… or postgres://… keeps them in that server
// (openDurable; the module reaches it through the host's durable_* functions), so a call with
// an idempotencyKey that completed in an earlier process is replayed, not run again. A backend
// that does not answer stops the command (exit 1) before any call, and any other value is a
// usage error: a run never goes ahead without the durable guard asked for.
//
// Usage errors (exit 2) include a --dir that does not exist or is not a directory.
//
// Errors (exit 1): the module cannot start (a --dir it cannot read included); a call
// fails in the host (deadline, trap) — its line still gets a TOOL_EXECUTION_UNKNOWN result,
// then the command stops, because the module's state was lost; stdin or stdout fail.
func runCall(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("call", e)
	f := callFlags{ws: addWorkspaceFlags(fs, true)}
	fs.StringVar(&f.mode, "mode", mcp.ModeDirect, "call mode: direct (explicit calls, allowed by policy) or agent (--approve decides)")
	fs.StringVar(&f.approve, "approve", "", "agent-mode approvals: all, none, or a comma-separated list of tool names (default none)")
	fs.BoolVar(&f.autosave, "autosave", false, "write edits back to --dir after each change (workspace.saveAll)")
	fs.StringVar(&f.durable, "durable", "", "durable operations backend: memory, or a redis://… or postgres://… `URL` (records outlive the command)")
	f.surface = addSurfaceFlag(fs)
	hf := addHostFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := f.validate(); err != nil {
		return err
	}
	catalog, err := surfaceCatalog(*f.surface, f.ws.dir, map[bool]string{true: "--autosave"}[f.autosave])
	if err != nil {
		return err
	}
	if err := f.ws.checkDir(); err != nil {
		return err
	}
	durable, closeDurable, err := setupDurable(ctx, "call", f.durable, hf)
	if err != nil {
		return err
	}
	defer closeDurable() // after the host is closed (deferred later, runs first)
	if f.approve != "" && f.mode == mcp.ModeDirect {
		fmt.Fprintln(e.stderr, "webcoding call: note: --approve is ignored in --mode direct (direct calls need no approvals)")
	}
	f.ws.apply(hf)
	hf.journal = "call"
	session := siteSession(f.ws.dir)

	h, err := e.newHost(ctx, e, hf)
	if err != nil {
		return err
	}
	defer h.Close(context.WithoutCancel(ctx))
	c := &rpcClient{h: h}
	if err := configureSession(ctx, c, sessionConfig{approval: f.mode == mcp.ModeAgent, approve: f.approve, durable: durable.name, catalog: catalog}); err != nil {
		return err
	}
	var readOnly map[string]bool // tools --autosave does not follow (mcpserver.ReadOnlyTool)
	if f.autosave {
		tools, err := listAllTools(ctx, c)
		if err != nil {
			return fmt.Errorf("tools/list: %w", err)
		}
		readOnly = make(map[string]bool, len(tools))
		for _, t := range tools {
			readOnly[t.Name] = mcpserver.ReadOnlyTool(t)
		}
	}
	in := bufio.NewReaderSize(e.stdin, 64<<10)
	out := bufio.NewWriter(e.stdout)
	calls := 0
	for {
		line, size, rerr := mcpserver.ReadLine(in, maxLineBytes)
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return fmt.Errorf("read stdin: %w", rerr)
		}
		if size > 0 || len(bytes.TrimSpace(line)) > 0 {
			result, sent, herr := callLine(ctx, c, f.mode, session, line, size)
			if sent {
				calls++
			}
			if herr == nil && f.autosave && sent && !readOnly[lineToolName(line)] && !isErrorResult(result) {
				terr, err := autosave(ctx, c)
				if err != nil {
					_ = writeLine(out, result)
					return err
				}
				if terr != nil {
					result = mcpserver.AutosaveFailed(result, terr)
				}
			}
			if werr := writeLine(out, result); werr != nil {
				return werr
			}
			if herr != nil {
				return herr
			}
		}
		if rerr != nil { // io.EOF
			break
		}
	}
	if calls == 0 || catalog != "" { // the other surfaces have no studio workspace to save (live saves through editor.save*)
		return nil
	}
	return reportUnsaved(ctx, c, out, f.ws.dir, "run workspace.saveAll or use --autosave")
}

// lineToolName is the tool name of a line callLine sent (it parsed as tools/call params).
func lineToolName(line []byte) string {
	p, terr := mcp.ParseCallToolParams(line)
	if terr != nil {
		return ""
	}
	return p.Name
}

// isErrorResult reports whether a result line is an error result.
func isErrorResult(line []byte) bool {
	var r struct {
		IsError bool `json:"isError"`
	}
	return json.Unmarshal(line, &r) != nil || r.IsError
}

// autosave writes unsaved changes back with workspace.saveAll (direct mode) when there are any
// and the folder can take them. A failed save is returned as terr: the call's line then
// becomes an error result (mcpserver.AutosaveFailed: applied, not written), never a success
// with a note. err is a host failure, which stops the command.
func autosave(ctx context.Context, c *rpcClient) (terr *mcp.ToolError, err error) {
	u, err := workspaceStatus(ctx, c)
	if err != nil {
		return nil, err
	}
	if u == nil || !u.any() || !u.Filesystem.SaveAllAvailable {
		return nil, nil
	}
	_, _, res, err := toolCall(ctx, c, "workspace.saveAll", nil, mcp.ModeDirect, "cli-autosave-")
	if err != nil {
		return nil, err
	}
	if res.IsError {
		return res.Error, nil
	}
	return nil, nil
}

// reportUnsaved writes the closing line when getStatus reports unsaved changes.
func reportUnsaved(ctx context.Context, c *rpcClient, out *bufio.Writer, dir, how string) error {
	u, err := workspaceStatus(ctx, c)
	if err != nil {
		return err
	}
	if u == nil || !u.any() {
		return nil
	}
	line, err := marshal(struct {
		Unsaved unsavedChanges `json:"unsaved"`
		Message string         `json:"message"`
	}{unsavedChanges{u.DirtyPaths, u.DeletedPaths}, unsavedNote(dir, how)})
	if err != nil {
		return err
	}
	return writeLine(out, line)
}

func (f *callFlags) validate() error {
	if f.mode != mcp.ModeDirect && f.mode != mcp.ModeAgent {
		return usagef("--mode must be direct or agent, got %q", f.mode)
	}
	return validateApprove(f.approve)
}

// callLine runs one stdin line through the module and returns its result line; sent says
// whether the line reached the module. herr is a host failure after which the command must
// stop (the result then describes it).
func callLine(ctx context.Context, c *rpcClient, mode, session string, line []byte, tooLong int) (result []byte, sent bool, herr error) {
	if tooLong > 0 {
		return errorLine(newCallID(), mcp.NewError(mcp.CodeToolValidationFailed, false,
			map[string]any{"reason": "too-large", "bytes": tooLong, "limit": maxLineBytes},
			"Invalid tools request: the line is %d bytes; the limit is %d bytes.", tooLong, maxLineBytes)), false, nil
	}
	params, id, terr := prepareParams(line, mode, session)
	if terr != nil {
		return errorLine(id, mcp.ToolErrorOf(terr)), false, nil
	}
	res, rerr, err := c.call(ctx, mcp.MethodToolsCall, params)
	if err != nil {
		return errorLine(id, mcp.NewError(mcp.CodeToolExecutionUnknown, false,
			map[string]any{"reason": "host-failure"},
			"The host could not complete the call; whether it took effect is unknown and the module's state was reset: %v", err)), true, err
	}
	if rerr != nil {
		return errorLine(id, rpcErrorToTool(rerr)), true, nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, res); err != nil {
		return errorLine(id, mcp.NewError(mcp.CodeToolResultValidationFailed, false, nil,
			"The module answered a result that is not JSON: %v", err)), true, nil
	}
	return b.Bytes(), true, nil
}

// prepareParams validates a line as tools/call params (the core's own parser, so a bad line
// gets the same canonical error the core would give) and returns the params with the CLI's
// _meta set, re-encoded without touching name and arguments. id is the call's toolCallId.
func prepareParams(line []byte, mode, session string) (params []byte, id string, terr error) {
	p, terr := mcp.ParseCallToolParams(line)
	if terr != nil {
		return nil, lineCallID(line), terr
	}
	if p.Meta != nil && p.Meta.ToolCallID != "" {
		id = p.Meta.ToolCallID
	} else {
		id = newCallID()
	}
	if p.Meta != nil && p.Meta.Source != "" && p.Meta.Source != mcp.SourceLocal {
		return nil, id, cliContextError("source", p.Meta.Source, mcp.SourceLocal)
	}
	if p.Meta != nil && p.Meta.Mode != "" && p.Meta.Mode != mode {
		return nil, id, cliContextError("mode", p.Meta.Mode, mode)
	}
	members, _ := mcp.DecodeObject(line, []string{"name", "arguments", "_meta"}, nil)
	meta := map[string]json.RawMessage{}
	if raw, ok := members["_meta"]; ok {
		_ = json.Unmarshal(raw, &meta) // ParseCallToolParams proved it is an object without repeated keys
	}
	meta["source"] = jsonstring.Append(nil, mcp.SourceLocal, jsonstring.NoHTML)
	meta["mode"] = jsonstring.Append(nil, mode, jsonstring.NoHTML)
	meta["toolCallId"] = jsonstring.Append(nil, id, jsonstring.NoHTML)
	if _, ok := meta["sessionId"]; !ok && session != "" {
		meta["sessionId"] = jsonstring.Append(nil, session, jsonstring.NoHTML)
	}

	params = append(params, `{"name":`...)
	params = append(params, members["name"]...)
	if args, ok := members["arguments"]; ok {
		params = append(params, `,"arguments":`...)
		params = append(params, args...)
	}
	params = append(params, `,"_meta":{`...)
	keys := make([]string, 0, len(meta))
	for k := range meta {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		if i > 0 {
			params = append(params, ',')
		}
		params = jsonstring.Append(params, k, jsonstring.NoHTML)
		params = append(params, ':')
		params = append(params, meta[k]...)
	}
	return append(params, "}}"...), id, nil
}

func cliContextError(field, got, want string) *mcp.ToolError {
	return mcp.NewError(mcp.CodeToolValidationFailed, false,
		map[string]any{"reason": "cli-context", "field": "_meta." + field},
		"Invalid tools request: \"_meta.%s\" is %q, but this CLI runs calls with %s %q; a line cannot change it.", field, got, field, want)
}

// lineCallID is the toolCallId of a line that failed validation when one can be read, else a
// generated one.
func lineCallID(line []byte) string {
	var v struct {
		Meta struct {
			ToolCallID string `json:"toolCallId"`
		} `json:"_meta"`
	}
	if mcp.CheckJSON(line) == nil && json.Unmarshal(line, &v) == nil {
		if id := v.Meta.ToolCallID; id != "" && utf8.RuneCountInString(id) <= mcp.MaxToolCallIDChars && !strings.ContainsRune(id, 0) {
			return id
		}
	}
	return newCallID()
}

// rpcErrorToTool maps a JSON-RPC error from the core to a canonical tool error.
func rpcErrorToTool(r *rpcErr) *mcp.ToolError {
	code := mcp.CodeToolExecutionFailed
	switch r.Code {
	case -32700, -32600, -32602:
		code = mcp.CodeToolValidationFailed
	case -32601:
		code = mcp.CodeToolRegistryNotReady // the module does not serve tools/call
	}
	return mcp.NewError(code, false, map[string]any{"jsonrpc": map[string]any{"code": r.Code, "message": r.Message}},
		"The core refused the request: %s (JSON-RPC %d).", r.Message, r.Code)
}

func errorLine(id string, e *mcp.ToolError) []byte {
	b, err := marshal(mcp.ErrorResult(id, e))
	if err != nil { // details are plain maps of strings and numbers: cannot happen
		panic(err)
	}
	return b
}

func writeLine(w *bufio.Writer, b []byte) error {
	w.Write(b)
	w.WriteByte('\n')
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write stdout: %w", err)
	}
	return nil
}

// newCallID returns "cli-" and 16 random hex digits.
func newCallID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "cli-" + hex.EncodeToString(b[:])
}

// siteSession is the sessionId the CLI gives calls over --dir (unless a line sets its own):
// "site-" and 16 hex digits of the folder's absolute path. Idempotency and durable records
// are scoped by session (REFERENCE §6.6), so the same key used on two different folders
// against one shared store never replays one folder's result for the other.
func siteSession(dir string) string {
	if dir == "" {
		return ""
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	sum := sha256.Sum256([]byte(dir))
	return "site-" + hex.EncodeToString(sum[:8])
}
