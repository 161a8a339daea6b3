// Package mcpserver serves the studio's tool registry as a Model Context Protocol server on
// the official Go SDK (github.com/modelcontextprotocol/go-sdk), for `webcoding mcp` (SPEC §3,
// issue 7). The registry runs inside the wazero-hosted core module (host/wasmhost); this
// package only translates.
//
// # What is served
//
// tools/list is the core's canonical catalog, every page (registry.ListAllTools), read once in
// New: names, titles, descriptions, input and output schemas (raw JSON Schema 2020-12 bytes,
// never re-encoded) and the four annotation hints are passed through. Names are served in the
// provider-legal form by default (workspace.getStatus → workspace_getStatus, through
// provider.NewNameMap; SPEC §2.1) and mapped back before dispatch; Names "canonical" serves the
// dotted names. Tools are added with the SDK's low-level Server.AddTool and a raw handler, so
// the SDK neither rewrites the schemas nor validates arguments: the registry validates.
//
// # Calls
//
// Every tools/call goes to the core as a canonical tools/call with _meta.source "mcp" and
// _meta.mode "agent"; the client's other _meta members (idempotencyKey, timeoutMs,
// maxOutputBytes, toolCallId, anything else) are passed through, and a client that sets source
// or mode to something else gets a TOOL_VALIDATION_FAILED result. Read-only tools run;
// mutations follow Options.Approval (the core's static approver: named tools or all;
// destructiveHint tools only with AllowDestructive). workspace.disconnectFolder also needs
// AllowDestructive although its annotations do not mark it destructive: headless, nothing can
// link the folder again, so every later edit could never be saved (server-side policy, checked
// before the core; DisconnectFolderTool). A TOOL_APPROVAL_REQUIRED result's message names the
// flags that would allow the call. Arguments pass the registry's own request guard
// (mcp.ParseCallToolParams) before they are sent, so a repeated key is the registry's
// TOOL_VALIDATION_FAILED result, not a JSON-RPC failure of the core.
//
// The result is the MCP projection of the canonical result (SPEC §2.10): content,
// structuredContent and isError unchanged, toolCallId and error moved under _meta. A registry
// error is a result with isError true; JSON-RPC errors are for malformed requests only (and
// for unknown tool names, which MCP makes a protocol error and the SDK answers with -32602).
//
// # Cancellation
//
// The core module runs one call at a time and cannot be interrupted without losing its
// in-memory workspace (wasmhost: a cancelled call closes the instance). A call that the client
// cancels (notifications/cancelled) or abandons (disconnect) before it reaches the module never
// runs (if the SDK still answers it, the answer is a TOOL_CANCELLED result). A call already
// inside the module runs to its end (the host's --host-timeout still bounds it) and the client
// may ignore its result. Over LineTransport, tools/call requests reach the core in the order
// they were read, even when a client pipelines them (the SDK runs every handler in its own
// goroutine, so the transport numbers the calls; see arrivals); a call cancelled while it
// waits for earlier ones never runs. Server.Run and Server.Wait wait for such calls, so a save that started
// is never cut off by the process exiting. When stdin ends, LineTransport stops reading but
// answers every request already read before the session ends. When the session ends, Run
// asks the core for unsaved edits and names them on the log (Server.WarnUnsaved).
//
// A call that fails in the host (--host-timeout, a trap) resets the core: the next call starts
// a fresh instance over the folder. The server configures it with revisionAfter, the highest
// revision it answered (rpcsession.Config.RevisionAfter), so revision numbers never repeat and
// a stale expectedRevision cannot match; the failed call's TOOL_EXECUTION_UNKNOWN message
// (details.lostPaths) and the exit line name the paths whose confirmed edits were not saved
// before the reset.
//
// # Transports
//
// LineTransport is stdio's newline-delimited JSON with the error handling MCP clients need: a
// line that is not a JSON-RPC message (bad JSON, invalid UTF-8, over the size limit, a batch)
// is answered with a JSON-RPC error and the server keeps reading; the SDK's own StdioTransport
// ends the session instead. It also gives standard JSON-RPC codes where the SDK would answer
// code 0: a request before initialize and a second initialize get -32600, bad params -32602.
//
// HTTPHandler serves the Streamable HTTP transport at HTTPPath ("/mcp", and "/" for
// compatibility; 404 elsewhere) behind OriginGuard, which answers 403 to a request whose
// Origin header is present and not a loopback origin (MCP "Transports", security warning: DNS
// rebinding). A JSON array body (batch) is a JSON-RPC -32600 error. The server has no
// authentication, so Server.Listen refuses a non-loopback address, and HTTPHandler a request
// arriving on one, unless Options.AllowRemote.
//
// Owns: the translation between MCP and the core's registry: the served catalog and names,
// the approval flags, and the stdio and Streamable HTTP transports.
//
// Must never: check arguments against a schema or run a tool itself (the core's registry does),
// or accept a non-loopback connection without Options.AllowRemote.
package mcpserver
