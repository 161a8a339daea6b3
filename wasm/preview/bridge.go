package preview

import (
	"strings"

	"github.com/webcoding/studio/wasm/jsonstring"
)

// Bridge message types posted by the runtime (RuntimeScript) through its MessagePort after the
// MessageHello; the parent adds the mount's revision and nonce before handing them to Go.
const (
	// MessageReady: {type}: the page loaded (after load + one task) without an error.
	MessageReady = "webcoding.preview.ready"
	// MessageError: {type, message}: the first error event or unhandled rejection.
	MessageError = "webcoding.preview.error"
	// MessageConsole: {type, level, kind, text, path, line}; level is "log", "warn" or "error"
	// (info and debug count as log); kind is ConsoleKindConsole, ConsoleKindError (an uncaught
	// error) or ConsoleKindRejection (an unhandled rejection); path and line name the
	// workspace file and line where the stack named one ("" and 0 otherwise). ConsoleEntry.
	MessageConsole = "webcoding.preview.console"
)

// Bridge limits. Character counts are Unicode code points (SPEC §2.14).
const (
	// MaxErrorMessageChars bounds the message of MessageError (REFERENCE §4: 240).
	MaxErrorMessageChars = 240
	// MaxConsoleMessages is the number of MessageConsole posts per mount; later calls are
	// not forwarded (the console itself still receives them).
	MaxConsoleMessages = 100
	// MaxConsoleTextChars bounds the text of one MessageConsole.
	MaxConsoleTextChars = 500
)

// Default error messages when an error event or rejection carries no text (REFERENCE §5.5).
const (
	DefaultErrorMessage     = "Preview runtime error"
	DefaultRejectionMessage = "Unhandled preview rejection"
)

// BridgeAttr is the attribute that marks the injected bridge <script> element.
const BridgeAttr = "data-webcoding-preview-bridge"

// bridgeGlobal is the window property through which bootstrap scripts hand their root
// module import to the bridge (non-enumerable, non-writable).
const bridgeGlobal = "__webcodingPreviewBridge"

// locationGlobal is the window property holding the runtime's virtual Location (50-nav.js):
// the compiler rewrites scripts' references to the page's Location to this name
// (compiler.locationJS; docs/design.md §5.34).
const locationGlobal = "__webcodingLocation"

// topGlobal is the window property holding the page's top-level window as a page served on
// its own sees it (50-nav.js): the preview document's window, not the studio; the compiler
// rewrites scripts' `top`, `window.top`, `self.top` and `globalThis.top` to this name
// (compiler.locationJS; docs/design.md §5.47).
const topGlobal = "__webcodingTop"

// BridgeScript returns the complete bridge <script> element (carrying BridgeAttr) for a mount
// of revision with nonce and an empty file table: RuntimeScript inside <script>…</script>.
// The compiler uses RuntimeScript with the full RuntimeConfig; BridgeScript remains for the
// waiting page and callers that have no files.
func BridgeScript(revision int64, nonce string) string {
	return "<script " + BridgeAttr + ">" + RuntimeScript(RuntimeConfig{Revision: revision, Nonce: nonce}) + "</script>"
}

// jsonString encodes s as a JSON string literal, usable as a JavaScript string literal inside
// an HTML script element ('<', '>', '&', U+2028 and U+2029 are escaped): jsonstring.HTMLSafe.
func jsonString(s string) string { return jsonstring.String(s, jsonstring.HTMLSafe) }

// waitingPage is the document shown when the workspace has no HTML file (REFERENCE §5.1).
func waitingPage(opts Options) string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8">`)
	if opts.Bridge {
		b.WriteString(BridgeScript(opts.Revision, opts.Nonce))
	}
	b.WriteString(`<meta name="viewport" content="width=device-width, initial-scale=1"><title>Preview waiting</title>` +
		`<style>html,body{margin:0;height:100%;background:#0f1117;color:#e6e8ef;font:16px/1.5 system-ui,sans-serif}` +
		`main{display:flex;flex-direction:column;align-items:center;justify-content:center;min-height:100%;padding:24px;box-sizing:border-box;text-align:center}` +
		`h1{margin:0 0 8px;font-size:1.5rem}p{margin:4px 0;color:#aab0c0}code{color:#c4b5fd}</style></head>` +
		`<body><main><h1>Preview waiting</h1><p>Add an HTML entry file</p>` +
		`<p>Create <code>index.html</code> in the workspace to see the live preview.</p></main></body></html>`)
	return b.String()
}
