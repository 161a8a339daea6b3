package mcpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webcoding/studio/host/wasmhost"
	"github.com/webcoding/studio/wasm/mcp"
)

// SaveAllTool is the tool Options.Autosave calls after a successful mutation.
const SaveAllTool = "workspace.saveAll"

// DisconnectFolderTool unlinks the workspace's folder. Its annotations do not mark it
// destructive (in the browser the user can link the folder again), but a headless server has
// no way to relink it: after the call every edit stays in memory, workspace.saveAll can never
// write again and the edits are lost when the server exits. So this server requires
// Options.AllowDestructive for it, exactly as for a destructiveHint tool (server-side policy,
// enforced before the call reaches the core; see Server.destructive).
const DisconnectFolderTool = "workspace.disconnectFolder"

// destructive reports whether a call of canonical needs Options.AllowDestructive: the tool's
// destructiveHint, or DisconnectFolderTool (see there).
func (s *Server) destructive(canonical string) bool {
	if canonical == DisconnectFolderTool {
		return true
	}
	t, ok := s.tools[canonical]
	return ok && t.Annotations != nil && t.Annotations.DestructiveHint
}

// handler is the raw SDK tool handler of one canonical tool.
//
// It never returns an error: every outcome is a result. A call cancelled while it waited for
// the core, or for the calls read before it (Server.Run), is a TOOL_CANCELLED result (it did
// not run); MCP lets the client ignore it.
func (s *Server) handler(canonical string) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		s.wg.Add(1)
		defer s.wg.Done()
		var p *sdk.CallToolParamsRaw
		if req != nil {
			p = req.Params
		}
		if p == nil {
			p = &sdk.CallToolParamsRaw{}
		}
		var raw []byte
		id := ""
		if t, ordered := s.order.ticketOf(p.Meta); !ordered {
			raw, id = s.callCanonical(ctx, canonical, p.Arguments, p.Meta)
		} else {
			// Wait for the calls read before this one (see arrivals); a call cancelled
			// while it waits never runs.
			defer s.order.finish(t)
			if err := s.order.wait(ctx, t); err == nil {
				raw, id = s.callCanonical(ctx, canonical, p.Arguments, p.Meta)
			} else if v, ok := p.Meta["toolCallId"].(string); ok && v != "" {
				id = v
			} else {
				id = newCallID()
			}
		}
		if raw == nil { // cancelled before it reached the core
			raw = mustMarshal(mcp.ErrorResult(id, mcp.NewError(mcp.CodeToolCancelled, true,
				map[string]any{"reason": "cancelled-before-start"}, "Tool call cancelled before it started; it did not run.")))
		}
		return s.project(raw, id, canonical)
	}
}

// callCanonical runs one canonical tools/call (plus the autosave) and returns the canonical
// result bytes and its toolCallId; nil bytes when ctx ended first.
func (s *Server) callCanonical(ctx context.Context, canonical string, args json.RawMessage, meta sdk.Meta) ([]byte, string) {
	params, id, terr := s.buildParams(canonical, args, meta)
	if terr == nil && canonical == DisconnectFolderTool && !s.opts.AllowDestructive {
		terr = mcp.NewError(mcp.CodeToolApprovalRequired, false, map[string]any{"reason": "server-policy", "tool": s.servedName(canonical)},
			"Tool %q needs approval before it can run: a headless server cannot link the folder again, so later edits could never be saved.", s.servedName(canonical))
	}
	if terr != nil {
		return mustMarshal(mcp.ErrorResult(id, mcp.ToolErrorOf(terr))), id
	}
	res, herr := s.coreCall(ctx, params, id)
	if res == nil && herr == nil {
		return nil, id
	}
	if herr != nil {
		return mustMarshal(mcp.ErrorResult(id, mcp.ToolErrorOf(herr))), id
	}
	if !s.readOnly(canonical) {
		s.noteConfirmed(canonical, res)
	}
	if s.opts.Autosave && canonical != SaveAllTool && !s.readOnly(canonical) {
		res = s.autosave(ctx, res, id)
	}
	return res, id
}

// noteConfirmed records a successful mutation's result with the core client: a save clears the
// confirmed edits, any other success adds the paths its structuredContent names (path,
// fromPath, toPath, sourcePath, and the lists dirtyPaths and deletedPaths), or the tool's name
// when it names none (undo, redo, …), so that a reset can say what it lost.
func (s *Server) noteConfirmed(canonical string, res []byte) {
	var r struct {
		IsError           bool                       `json:"isError"`
		StructuredContent map[string]json.RawMessage `json:"structuredContent"`
	}
	if json.Unmarshal(res, &r) != nil || r.IsError {
		return
	}
	if canonical == SaveAllTool {
		s.core.saved()
		return
	}
	var paths []string
	for _, k := range []string{"path", "fromPath", "toPath", "sourcePath", "dirtyPaths", "deletedPaths"} {
		var one string
		var many []string
		if json.Unmarshal(r.StructuredContent[k], &one) == nil && one != "" {
			paths = append(paths, one)
		} else if json.Unmarshal(r.StructuredContent[k], &many) == nil {
			paths = append(paths, many...)
		}
	}
	if len(paths) == 0 {
		paths = []string{"the edits of " + s.servedName(canonical)}
	}
	s.core.confirmed(paths)
}

func (s *Server) readOnly(canonical string) bool {
	t, ok := s.tools[canonical]
	return ok && ReadOnlyTool(t)
}

// ReadOnlyTool reports whether t is annotated readOnlyHint. Autosave (this server's
// Options.Autosave and `webcoding call --autosave`) never follows such a call: it changed
// nothing, so a save that fails cannot turn its normal result into an error (issue 14).
func ReadOnlyTool(t mcp.Tool) bool {
	return t.Annotations != nil && t.Annotations.ReadOnlyHint
}

// coreCall sends tools/call params to the core. It returns the result bytes, or a tool error
// for a JSON-RPC error or a host failure, or (nil, nil) when ctx ended before the call ran.
func (s *Server) coreCall(ctx context.Context, params []byte, id string) ([]byte, error) {
	res, rerr, err := s.core.call(ctx, mcp.MethodToolsCall, params)
	switch {
	case err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()):
		// Cancelled while waiting for the core (the core itself runs under a context the
		// client cannot cancel, so its failures never wrap ctx.Err()).
		return nil, nil
	case err != nil:
		s.log.Error("core call failed", "toolCallId", id, "error", err)
		details := map[string]any{"reason": "host-failure"}
		lost := ""
		if errors.Is(err, wasmhost.ErrInstanceReset) {
			if paths := s.core.lostPaths(); len(paths) > 0 {
				details["lostPaths"] = paths
				lost = " Confirmed edits that were not saved were lost when the core was reset: " + strings.Join(paths, ", ") + "."
			}
		}
		return nil, mcp.NewError(mcp.CodeToolExecutionUnknown, false, details,
			"The host could not complete the call; whether it took effect is unknown, and unsaved edits may be lost: %v%s", err, lost)
	case rerr != nil:
		return nil, mcp.NewError(mcp.CodeToolExecutionFailed, false,
			map[string]any{"jsonrpc": map[string]any{"code": rerr.Code, "message": rerr.Message}},
			"The core refused the request: %s (JSON-RPC %d).", rerr.Message, rerr.Code)
	}
	return res, nil
}

// buildParams returns the canonical tools/call params: the canonical name, the arguments as
// received, and the client's _meta (less the protocol's own keys, protocolMetaKey) with
// source "mcp", mode "agent" and a toolCallId (the client's, else "mcp-" and 16 hex digits).
func (s *Server) buildParams(canonical string, args json.RawMessage, meta sdk.Meta) ([]byte, string, error) {
	id := ""
	if v, ok := meta["toolCallId"].(string); ok && v != "" {
		id = v
	}
	if id == "" {
		id = newCallID()
	}
	for field, want := range map[string]string{"source": mcp.SourceMCP, "mode": mcp.ModeAgent} {
		if v, ok := meta[field]; ok && v != want {
			return nil, id, mcp.NewError(mcp.CodeToolValidationFailed, false,
				map[string]any{"reason": "mcp-context", "field": "_meta." + field},
				"Invalid tools request: \"_meta.%s\" is %v, but this MCP server runs calls with %s %q; a call cannot change it.", field, jsonText(v), field, want)
		}
	}
	m := make(map[string]any, len(meta)+3)
	for k, v := range meta {
		if !protocolMetaKey(k) {
			m[k] = v
		}
	}
	m["source"] = mcp.SourceMCP
	m["mode"] = mcp.ModeAgent
	m["toolCallId"] = id
	if _, ok := m["sessionId"]; !ok && s.opts.SessionID != "" {
		m["sessionId"] = s.opts.SessionID
	}
	type params struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments,omitempty"`
		Meta      map[string]any  `json:"_meta"`
	}
	b, err := Marshal(params{Name: canonical, Arguments: args, Meta: m})
	if err != nil { // the SDK decoded both from JSON: cannot happen
		return nil, id, mcp.NewError(mcp.CodeToolValidationFailed, false, nil, "Invalid tools request: %v", err)
	}
	// The core checks the whole JSON-RPC request before the registry sees it, so arguments
	// the registry's own guard refuses (a repeated key, ...) would come back as a JSON-RPC
	// parse error. Apply that guard here: the client gets the registry's TOOL_VALIDATION_FAILED.
	if _, terr := mcp.ParseCallToolParams(b); terr != nil {
		return nil, id, terr
	}
	return b, id, nil
}

// protocolMetaKey reports whether a _meta key belongs to the MCP protocol itself (the
// reserved "io.modelcontextprotocol/" prefix, e.g. the per-request protocol version newer
// clients send) rather than to the call; those are not passed to the registry.
func protocolMetaKey(k string) bool {
	return strings.HasPrefix(k, "io.modelcontextprotocol/") || strings.HasPrefix(k, "modelcontextprotocol.io/")
}

// autosave runs workspace.saveAll after a successful mutation and records the outcome in the
// result's _meta.autosave ({"saved": true}); a failed save makes the result an error
// (AutosaveFailed, issue 14: never a success with a note). The save runs in mode "direct": the
// user asked for it by starting the server with --autosave, so it is not an agent's decision.
func (s *Server) autosave(ctx context.Context, res []byte, id string) []byte {
	var r map[string]json.RawMessage
	if json.Unmarshal(res, &r) != nil || string(r["isError"]) == "true" {
		return res
	}
	params, _ := Marshal(map[string]any{"name": SaveAllTool, "arguments": map[string]any{},
		"_meta": map[string]any{"source": mcp.SourceMCP, "mode": mcp.ModeDirect, "toolCallId": id + "-autosave"}})
	var outcome map[string]any
	saved, terr := s.coreCall(context.WithoutCancel(ctx), params, id)
	if terr == nil {
		var sr mcp.CallToolResult
		if json.Unmarshal(saved, &sr) != nil {
			terr = mcp.NewError(mcp.CodeToolResultValidationFailed, false, nil, "The core answered a save result that is not JSON.")
		} else if sr.IsError && sr.Error != nil {
			terr = sr.Error
		}
	}
	if terr != nil {
		te := mcp.ToolErrorOf(terr)
		var failed map[string]json.RawMessage
		_ = json.Unmarshal(AutosaveFailed(res, te), &failed)
		failed["autosave"] = mustMarshal(map[string]any{"saved": false, "error": te}) // for _meta.autosave (project)
		return mustMarshal(failed)
	}
	s.core.saved()
	outcome = map[string]any{"saved": true}
	r["autosave"] = mustMarshal(outcome)
	return mustMarshal(r)
}

// project turns a canonical result into the MCP result (SPEC §2.10): toolCallId, error,
// autosave and replay move under _meta; content, isError and, on success, structuredContent (bytes
// unchanged) stay. A failed call's structuredContent (the error object again) is dropped,
// because it does not match the tool's outputSchema. A TOOL_APPROVAL_REQUIRED message is
// extended with the flags that allow the call.
func (s *Server) project(raw []byte, id, canonical string) (*sdk.CallToolResult, error) {
	var r struct {
		Content           json.RawMessage `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
		ToolCallID        string          `json:"toolCallId"`
		Error             *mcp.ToolError  `json:"error"`
		Autosave          json.RawMessage `json:"autosave"`
		Replay            json.RawMessage `json:"replay"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		terr := mcp.NewError(mcp.CodeToolResultValidationFailed, false, nil, "The core answered a result that is not JSON: %v", err)
		return s.project(mustMarshal(mcp.ErrorResult(id, terr)), id, canonical)
	}
	if r.ToolCallID == "" {
		r.ToolCallID = id
	}
	if r.Error != nil && r.Error.Code == mcp.CodeToolApprovalRequired {
		hint := s.approvalHint(canonical)
		r.Error.Message += " " + hint
		r.Content = s.replaceErrorText(r.Content, r.Error)
	}
	var out sdk.CallToolResult
	// The SDK decodes content blocks into its own types (text, image, resource, ...).
	if err := json.Unmarshal(mustMarshal(map[string]json.RawMessage{"content": nonNull(r.Content)}), &out); err != nil {
		terr := mcp.NewError(mcp.CodeToolResultValidationFailed, false, nil, "The core answered content the MCP SDK cannot carry: %v", err)
		return s.project(mustMarshal(mcp.ErrorResult(id, terr)), id, canonical)
	}
	// On failure the canonical structuredContent is the error object, which does not match the
	// tool's outputSchema; MCP clients validate structuredContent against it (the TypeScript
	// SDK even on isError results), so the projection carries the error in _meta.error and
	// the text block only.
	if !r.IsError && len(r.StructuredContent) > 0 && string(r.StructuredContent) != "null" {
		out.StructuredContent = r.StructuredContent
	}
	out.IsError = r.IsError
	out.Meta = sdk.Meta{"toolCallId": r.ToolCallID}
	if r.Error != nil {
		out.Meta["error"] = r.Error
	}
	if len(r.Autosave) > 0 {
		out.Meta["autosave"] = r.Autosave
	}
	if len(r.Replay) > 0 && string(r.Replay) != "null" {
		out.Meta["replay"] = r.Replay // where a replayed success's effect was found (issue 14)
	}
	return &out, nil
}

// approvalHint tells the user which flags allow a refused call.
func (s *Server) approvalHint(canonical string) string {
	name := s.servedName(canonical)
	destructive := s.destructive(canonical)
	approved := s.opts.Approval.All || slices.ContainsFunc(s.opts.Approval.Tools, func(t string) bool {
		return t == canonical || t == name
	})
	f := s.opts.Flags
	why := "destructiveHint"
	if canonical == DisconnectFolderTool {
		why = "headless, the folder cannot be linked again"
	}
	switch {
	case destructive && approved:
		return fmt.Sprintf("This MCP server approves %s, but it is destructive (%s): restart the server with %s to allow it.", name, why, f.AllowDestructive)
	case destructive:
		return fmt.Sprintf("This MCP server runs calls in agent mode and approves no call of %s: restart it with %s %s (or %s all) and %s, because the tool is destructive (%s).", name, f.Approve, name, f.Approve, f.AllowDestructive, why)
	default:
		return fmt.Sprintf("This MCP server runs calls in agent mode and approves no call of %s: restart it with %s %s (or %s all) to allow it.", name, f.Approve, name, f.Approve)
	}
}

// replaceErrorText rewrites the first text block that reads "[CODE] old message" to the
// extended error's text.
func (s *Server) replaceErrorText(content json.RawMessage, e *mcp.ToolError) json.RawMessage {
	var blocks []map[string]any
	if json.Unmarshal(content, &blocks) != nil {
		return content
	}
	prefix := "[" + string(e.Code) + "]"
	for _, b := range blocks {
		if t, _ := b["text"].(string); b["type"] == "text" && len(t) >= len(prefix) && t[:len(prefix)] == prefix {
			b["text"] = e.Error()
			return mustMarshal(blocks)
		}
	}
	blocks = append([]map[string]any{{"type": "text", "text": e.Error()}}, blocks...)
	return mustMarshal(blocks)
}

func nonNull(b json.RawMessage) json.RawMessage {
	if len(b) == 0 || string(b) == "null" {
		return json.RawMessage("[]")
	}
	return b
}

// newCallID returns "mcp-" and 16 random hex digits.
func newCallID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "mcp-" + hex.EncodeToString(b[:])
}

func jsonText(v any) string {
	b, err := Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Marshal encodes v as JSON without HTML escaping and without a trailing newline (the
// encoding of every line this package and the webcoding CLI write).
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func mustMarshal(v any) []byte {
	b, err := Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: marshal %T: %v", v, err))
	}
	return b
}

// AutosaveFailed turns res, the canonical success of a mutation, into an error result because
// the --autosave that followed it failed with terr (issue 14 item 5: a failed autosave is an
// error, never a success with a note). The error keeps the save's code and retryable flag,
// says that the change was applied to the workspace but not written to the folder, and carries
// details {applied: true, autosave: {saved: false, error}, revision?, result}. The result is
// canonical (mcp.ParseCallToolResult accepts it): the CLI prints it as is.
func AutosaveFailed(res []byte, terr *mcp.ToolError) []byte {
	var r struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
		ToolCallID        string          `json:"toolCallId"`
	}
	_ = json.Unmarshal(res, &r)
	details := map[string]any{"applied": true, "autosave": map[string]any{"saved": false, "error": terr}}
	var sc map[string]any
	if json.Unmarshal(r.StructuredContent, &sc) == nil && sc != nil {
		if rev, ok := sc["revision"]; ok {
			details["revision"] = rev
		}
		details["result"] = sc
	}
	e := mcp.NewError(terr.Code, terr.Retryable, details,
		"The change was applied to the workspace but --autosave could not write it to the folder: %s Save again (workspace.saveAll) once the cause is fixed; do not repeat the change.", terr.Message)
	return mustMarshal(mcp.ErrorResult(r.ToolCallID, e))
}
