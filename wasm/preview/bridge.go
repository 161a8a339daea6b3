package preview

import (
	"github.com/webcoding/studio/wasm/jsonstring"
	"strconv"
	"strings"
)

// Bridge message types posted by the injected script to window.parent (target origin "*").
// Every message carries {type, revision, nonce} (SPEC §2.3); see BridgeScript for the rest.
const (
	// MessageReady: {type, revision, nonce}.
	MessageReady = "webcoding.preview.ready"
	// MessageError: {type, revision, nonce, message}.
	MessageError = "webcoding.preview.error"
	// MessageConsole: {type, revision, nonce, level, text}; level is "log", "warn" or "error".
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

// bridgeJS is the bridge runtime; the placeholders are replaced by BridgeScript.
//
// Behaviour (SPEC §2.3, §2.13, §2.16):
//   - the script removes its own element before any user script runs and keeps the nonce
//     only in its closure (no attribute, no global), so preview code cannot read the nonce
//     and forge an acknowledgement;
//   - ready is posted once, after the window load event (one task later, so the page's own
//     load handlers run first) and after every tracked root module import has settled, and
//     never after an error;
//   - error is posted for the first error event, unhandled rejection or rejected root module
//     import only; message = event message / reason.message / String(reason), trimmed, cut to
//     MaxErrorMessageChars code points, or the default text when empty;
//   - console.log/warn/error are forwarded (after calling the original) for the first
//     MaxConsoleMessages calls, arguments formatted (strings as is, errors as "Name: message",
//     other objects as JSON when possible) and joined by spaces, cut to MaxConsoleTextChars.
const bridgeJS = `(function(){"use strict";
try{document.currentScript.remove();}catch(e){}
var REVISION=@REVISION@,NONCE=@NONCE@,parentWindow=window.parent;
var failed=false,readySent=false,loaded=false,pending=0,consoleCount=0;
function cut(s,n){s=String(s);if(s.length<=n)return s;return Array.from(s.slice(0,2*n)).slice(0,n).join("");}
function post(m){try{parentWindow.postMessage(m,"*");}catch(e){}}
function text(v){try{if(v&&typeof v==="object"&&"message" in v)return String(v.message);return v===undefined||v===null?"":String(v);}catch(e){return "";}}
function fail(message,fallback){if(failed)return;failed=true;var t=String(message==null?"":message).trim();if(!t)t=fallback;post({type:@ERROR@,revision:REVISION,nonce:NONCE,message:cut(t,@MAXERR@)});}
function maybeReady(){if(loaded&&pending===0&&!failed&&!readySent){readySent=true;post({type:@READY@,revision:REVISION,nonce:NONCE});}}
window.addEventListener("error",function(e){fail(e&&(e.message||(e.error!==undefined?text(e.error):"")),@DEFERR@);});
window.addEventListener("unhandledrejection",function(e){fail(e?text(e.reason):"",@DEFREJ@);});
window.addEventListener("load",function(){setTimeout(function(){loaded=true;maybeReady();},0);});
try{Object.defineProperty(window,@GLOBAL@,{value:Object.freeze({track:function(p){pending++;Promise.resolve(p).then(function(){pending--;maybeReady();},function(e){pending--;fail(text(e),@DEFERR@);});}})});}catch(e){}
function fmt(v){if(typeof v==="string")return v;try{if(Object.prototype.toString.call(v)==="[object Error]")return v.name+": "+v.message;if(v&&typeof v==="object"){var j=JSON.stringify(v);if(typeof j==="string")return j;}}catch(e){}try{return String(v);}catch(e){return "";}}
var c=window.console;if(c){["log","warn","error"].forEach(function(level){var orig=c[level];if(typeof orig!=="function")return;c[level]=function(){try{if(consoleCount<@MAXCON@){consoleCount++;var parts=[];for(var i=0;i<arguments.length;i++)parts.push(cut(fmt(arguments[i]),@MAXTEXT@));post({type:@CONSOLE@,revision:REVISION,nonce:NONCE,level:level,text:cut(parts.join(" "),@MAXTEXT@)});}}catch(e){}return orig.apply(this,arguments);};});}
})();`

// BridgeScript returns the complete bridge <script> element for a mount of revision with
// nonce. The nonce is embedded as a JSON string with '<', '>' and '&' escaped, so any nonce
// is safe; the element carries BridgeAttr.
func BridgeScript(revision int64, nonce string) string {
	r := strings.NewReplacer(
		"@REVISION@", strconv.FormatInt(revision, 10),
		"@NONCE@", jsonString(nonce),
		"@READY@", jsonString(MessageReady),
		"@ERROR@", jsonString(MessageError),
		"@CONSOLE@", jsonString(MessageConsole),
		"@MAXERR@", strconv.Itoa(MaxErrorMessageChars),
		"@MAXCON@", strconv.Itoa(MaxConsoleMessages),
		"@MAXTEXT@", strconv.Itoa(MaxConsoleTextChars),
		"@DEFERR@", jsonString(DefaultErrorMessage),
		"@DEFREJ@", jsonString(DefaultRejectionMessage),
		"@GLOBAL@", jsonString(bridgeGlobal),
	)
	return "<script " + BridgeAttr + ">" + r.Replace(bridgeJS) + "</script>"
}

// jsonString encodes s as a JSON string literal, usable as a JavaScript string literal inside
// an HTML script element ('<', '>', '&', U+2028 and U+2029 are escaped: jsonstring.HTMLSafe).
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
