package studio

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/webcoding/studio/wasm/jsonrpc"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/planner"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/rpcsession"
)

// Session methods of the studio catalog: core operations that are not tools (SPEC §2.11).
// The CLI maps `webcoding agent`, `webcoding preview` and `webcoding export` onto them.
const (
	// MethodAgentRun runs the local agent through the registry.
	//
	//	params {"prompt": non-blank string, "sessionId"?: 1..256 characters,
	//	        "context"?: [planner.Attachment…] (at most planner.MaxAttachments context chips:
	//	        picked elements, runtime errors and audit findings, data only; decodeAttachments)}
	//	result planner.Report {"calls": [{"request", "result"}…], "summary", "failed",
	//	       "failedTool"?, "errorCode"?, "retryable"?, "revisionConflict"?}
	MethodAgentRun = "agent/run"
	// MethodPreviewCompile compiles the current workspace as the preview would mount it
	// (bridge included, nonce HeadlessNonce).
	//
	//	params {} (or absent)
	//	result {"entry", "revision", "diagnostics": [...], "bytes", "html"}; entry is "" for the
	//	       waiting page; bytes is len(html) in UTF-8 bytes
	MethodPreviewCompile = "preview/compile"
	// MethodPreviewExport returns the standalone export (CSS/JS inlined, assets as data: URLs,
	// no bridge).
	//
	//	params {} (or absent)
	//	result {"html"}; a workspace without an HTML file is a JSON-RPC error -32602 with
	//	       data {"reason": "no-html-entry"}
	MethodPreviewExport = "preview/export"
)

// CompileResult is the preview/compile result.
type CompileResult struct {
	Entry       string               `json:"entry"`
	Revision    int64                `json:"revision"`
	Diagnostics []preview.Diagnostic `json:"diagnostics"`
	Bytes       int                  `json:"bytes"`
	HTML        string               `json:"html"`
}

// DecodeAgentRun decodes the params of agent/run on every surface: a JSON object with a
// non-blank "prompt" string, an optional "sessionId" of 1..mcp.MaxSessionIDChars characters,
// and the surface's extra members (returned raw in fields); any other member, or a wrong
// type, is a JSON-RPC invalid-params error whose message starts "agent/run: ".
func DecodeAgentRun(params json.RawMessage, extra ...string) (prompt, session string, fields map[string]json.RawMessage, jerr *jsonrpc.Error) {
	if len(bytes.TrimSpace(params)) == 0 {
		return "", "", nil, invalidParams("agent/run: params {prompt, sessionId?} are required")
	}
	fields, err := mcp.DecodeObject(params, append([]string{"prompt", "sessionId"}, extra...), nil)
	if err != nil {
		return "", "", nil, invalidParams("agent/run: " + err.Error())
	}
	if json.Unmarshal(fields["prompt"], &prompt) != nil || strings.TrimSpace(prompt) == "" {
		return "", "", nil, invalidParams("agent/run: prompt must be a non-blank string")
	}
	if raw, ok := fields["sessionId"]; ok {
		if json.Unmarshal(raw, &session) != nil || session == "" || len([]rune(session)) > mcp.MaxSessionIDChars {
			return "", "", nil, invalidParams("agent/run: sessionId must be a string of 1..256 characters")
		}
	}
	return prompt, session, fields, nil
}

func invalidParams(msg string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}

// noParams accepts absent, null-free empty params: nothing or {}.
func noParams(params json.RawMessage) *jsonrpc.Error {
	if len(bytes.TrimSpace(params)) == 0 {
		return nil
	}
	if _, err := mcp.DecodeObject(params, nil, nil); err != nil {
		return invalidParams("params must be an empty object: " + err.Error())
	}
	return nil
}

func (e *studioSession) methods(r *registry.Registry) map[string]rpcsession.Method {
	return map[string]rpcsession.Method{
		MethodAgentRun: func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
			prompt, session, m, jerr := DecodeAgentRun(params, "context")
			if jerr != nil {
				return nil, jerr
			}
			atts, aerr := decodeAttachments(m["context"])
			if aerr != "" {
				return nil, invalidParams("agent/run: context: " + aerr)
			}
			if terr := mcp.ToolErrorOf(e.m.Writable()); terr != nil { // a read-only workspace runs no agent (issue 14)
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "agent/run: " + terr.Message,
					Data: map[string]any{"code": string(terr.Code)}}
			}
			ctx = registry.WithRun(ctx, "agent/run") // "Approve all for this run" scope
			st := e.m.Status(ctx)
			rep := planner.Run(ctx, r.Call, prompt, planner.RunOptions{
				SessionID: session, FolderLinked: st.Filesystem.FolderLinked, ActivePath: st.ActivePath,
				Revision: st.Revision, LiveRevision: e.m.Revision,
				// Only a port that runs the page (the browser's sandbox iframe) was refreshed;
				// a headless one compiled the document and ran nothing (SPEC §2.6, issue 14).
				PreviewExecuted: e.preview.Runtime() != preview.RuntimeHeadless, Attachments: atts})
			return rep, nil
		},
		MethodPreviewCompile: func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
			if err := noParams(params); err != nil {
				return nil, err
			}
			s := e.m.Snapshot()
			res := preview.Compile(snapshotPreviewFiles(s), preview.Options{Revision: s.Revision, Nonce: HeadlessNonce, Bridge: true})
			return CompileResult{Entry: res.Entry, Revision: s.Revision, Diagnostics: res.Diagnostics, Bytes: len(res.HTML), HTML: res.HTML}, nil
		},
		MethodPreviewExport: func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
			if err := noParams(params); err != nil {
				return nil, err
			}
			html, err := preview.Export(previewFiles(e.m.Files()))
			if err != nil {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "preview/export: " + err.Error(),
					Data: map[string]any{"reason": "no-html-entry"}}
			}
			return map[string]any{"html": html}, nil
		},
	}
}
