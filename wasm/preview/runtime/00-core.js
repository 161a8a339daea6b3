// 00-core.js — captured built-ins, the channel to the parent, errors, console, ready.
// Runs first in the document, before any page code (the compiler puts this script at byte 0
// or right after a leading doctype). Everything the bridge later relies on is captured here,
// so page code that replaces window.parent, postMessage, JSON, Reflect, … cannot reach it.
var W = window, D = document;
var apply = Reflect.apply, construct = Reflect.construct, defineProperty = Object.defineProperty;
var getOwnDesc = Object.getOwnPropertyDescriptor, hasOwn = Object.prototype.hasOwnProperty;
var freeze = Object.freeze, create = Object.create, keysOf = Object.keys;
var toJSON = JSON.stringify, StringC = String, ArrayC = Array, ArrayFrom = Array.from;
var push = Array.prototype.push, join = Array.prototype.join, arraySlice = Array.prototype.slice, slice = String.prototype.slice;
var objToString = Object.prototype.toString;
var indexOf = String.prototype.indexOf, lastIndexOf = String.prototype.lastIndexOf, decodeURIF = decodeURI, toLower = String.prototype.toLowerCase, trim = String.prototype.trim;
var replaceStr = String.prototype.replace, splitStr = String.prototype.split;
var PromiseC = Promise, promiseThen = Promise.prototype.then, PromiseResolve = Promise.resolve, PromiseReject = Promise.reject;
var setTimeoutF = W.setTimeout, URLC = W.URL, BlobC = W.Blob, ResponseC = W.Response, RequestC = W.Request, HeadersC = W.Headers;
var createObjectURL = URL.createObjectURL, atobF = W.atob, Uint8C = Uint8Array, charCodeAt = String.prototype.charCodeAt;
var TypeErrorC = TypeError, DOMExceptionC = W.DOMException, MapC = Map, WeakMapC = WeakMap, SetC = Set;
var mapGet = Map.prototype.get, mapSet = Map.prototype.set, mapHas = Map.prototype.has;
var wmGet = WeakMap.prototype.get, wmSet = WeakMap.prototype.set;
var setHas = Set.prototype.has, setAdd = Set.prototype.add, setDelete = Set.prototype["delete"];
var addListener = EventTarget.prototype.addEventListener, dispatchEvent = EventTarget.prototype.dispatchEvent, EventC = W.Event;
var createElement = Document.prototype.createElement, appendChild = Node.prototype.appendChild;
var insertBefore = Node.prototype.insertBefore, removeNode = Element.prototype.remove;
var getAttr = Element.prototype.getAttribute, setAttr = Element.prototype.setAttribute;
var closest = Element.prototype.closest, querySelectorAll = Element.prototype.querySelectorAll;
var REVISION = CFG.revision, NONCE = CFG.nonce, BRIDGE = NONCE !== "";
var T = CFG.types, L = CFG.limits;
// NESTED: this document is a workspace page in a frame of a preview document (55-frames.js):
// no nonce, no studio port; its console lines, errors, reports, storage changes and
// navigations go over a port to the runtime of the document holding the frame, which relays
// them within its own bounds. RELAY: messages leave this document at all.
var NESTED = CFG.nested || null, RELAY = BRIDGE || !!NESTED;
// This script's own text: a nested document gets a copy of it (55-frames.js).
var SELF = "";
try { SELF = D.currentScript.text; } catch (e) {}
try { removeNode.call(D.currentScript); } catch (e) {}

function S(v) { try { return StringC(v); } catch (e) { return ""; } }
// BLOBDOC: this document was loaded from a blob: URL — a quirks-mode page (docs/design.md §5.53)
// or a <frame>'s page (55-frames.js) — not as an iframe srcdoc document.
var BLOBDOC = S(W.location.protocol) === "blob:";
function cut(s, n) { s = S(s); if (s.length <= n) return s; return apply(join, apply(arraySlice, ArrayFrom(apply(slice, s, [0, 2 * n])), [0, n]), [""]); }

// The channel: one message through the captured parent.postMessage (the hello, carrying the
// nonce and a MessagePort), then only the port, which lives in this closure.
var port = null;
if (BRIDGE) {
  try {
    var parentWindow = W.parent, parentPost = parentWindow.postMessage;
    var channel = new W.MessageChannel();
    port = channel.port1;
    var portPost = MessagePort.prototype.postMessage;
    apply(parentPost, parentWindow, [{ type: T.hello, v: 1, revision: REVISION, nonce: NONCE, at: Date.now() }, "*", [channel.port2]]);
  } catch (e) { port = null; }
} else if (NESTED) {
  // To the document holding this frame, never the studio (which is not window.parent here
  // and takes no message from a nested window).
  try {
    var parentWindow = W.parent, parentPost = parentWindow.postMessage;
    var channel = new W.MessageChannel();
    port = channel.port1;
    var portPost = MessagePort.prototype.postMessage;
    apply(parentPost, parentWindow, [{ type: T.frame, v: 1 }, "*", [channel.port2]]);
  } catch (e) { port = null; }
}
function send(msg) {
  if (!port) return;
  try { apply(portPost, port, [msg]); } catch (e) {}
}
// The parent's ping (after a second load event of the frame element: is this document still
// there?) is answered at once (MessagePing/MessagePong).
if (BRIDGE && port) {
  try {
    apply(addListener, port, ["message", function (e) {
      var d = e && e.data;
      if (d && typeof d === "object" && d.type === T.ping && typeof d.id === "number") send({ type: T.pong, id: d.id });
    }]);
    apply(MessagePort.prototype.start, port, []);
  } catch (e) {}
}

// Reports: refused/missing run-time references and preview limits, deduplicated and bounded.
var reported = new SetC(), reportCount = 0;
function report(kind, url, detail) {
  var key = kind + "\u0000" + url;
  if (apply(setHas, reported, [key])) return;
  apply(setAdd, reported, [key]);
  if (reportCount >= L.reports) return;
  reportCount++;
  send({ type: T.report, kind: kind, url: cut(url, L.text), detail: cut(detail || "", L.text) });
}

// Where a line came from (issue 17): the first frame of a V8 stack ("at f (app.js:7:7)",
// "at app.js:7:7") that names a workspace file — by its "//# sourceURL=<path>" or its
// virtual URL — as {path, line}; the line is the file's own (stack lines are relative to the
// script, unlike ErrorEvent.lineno of an inline script). Frames of this runtime (about:srcdoc)
// and of data: URLs name no file and are skipped. Nothing found: {path: "", line: 0}.
var ErrorC = Error, reExec = RegExp.prototype.exec, decodeURIC = decodeURIComponent, WSFILES = CFG.files || {};
var FRAME_RE = /([^\s()]+):(\d+):\d+\)?\s*$/;
function workspacePath(u) {
  u = S(u);
  if (apply(indexOf, u, [CFG.origin + "/"]) === 0) u = apply(slice, u, [CFG.origin.length + 1]);
  try { u = decodeURIC(u); } catch (e) { return ""; }
  return apply(hasOwn, WSFILES, [u]) ? u : "";
}
function where(stack, skip) {
  var at = { path: "", line: 0 };
  try {
    if (typeof stack !== "string") return at;
    var lines = apply(splitStr, apply(slice, stack, [0, 8192]), ["\n"]);
    for (var i = skip; i < lines.length && i < 64; i++) {
      var m = apply(reExec, FRAME_RE, [lines[i]]);
      if (!m) continue;
      var p = workspacePath(m[1]);
      if (p) { at.path = p; at.line = +m[2]; return at; }
    }
  } catch (e) {}
  return at;
}
function stackOf(v) { try { return v && typeof v === "object" ? v.stack : undefined; } catch (e) { return undefined; } }

// Errors and ready (SPEC §2.13): ready once, after load (one task later, so the page's own
// load handlers run first) and after every tracked import settled, never after an error.
// Every uncaught error and unhandled rejection (not only the first, which fails the mount) is
// also a console entry of level "error" with kind "error" or "rejection" and, where the stack
// names one, the workspace file and line: at most L.errors per mount.
var failed = false, readySent = false, loaded = false, pending = 0, consoleCount = 0, errorCount = 0;
// asWritten: an error text names `location` and `top` where the compiler wrote the names of
// their stand-ins (V8 quotes the callee: "__webcodingLocation.x is not a function"; design.md
// §5.34, §5.47).
var LOCNAME = S(CFG.location || ""), TOPNAME = S(CFG.top || "");
function asWritten(s) {
  s = S(s);
  if (LOCNAME && apply(indexOf, s, [LOCNAME]) >= 0) s = apply(join, apply(splitStr, s, [LOCNAME]), ["location"]);
  return TOPNAME && apply(indexOf, s, [TOPNAME]) >= 0 ? apply(join, apply(splitStr, s, [TOPNAME]), ["top"]) : s;
}
function errorEntry(kind, message, err, filename) {
  if (!RELAY || errorCount >= L.errors) return;
  errorCount++;
  var at = where(stackOf(err), 0);
  if (!at.path && filename) at.path = workspacePath(filename); // no stack: the file, line unknown
  send({ type: T.console, level: "error", kind: kind, text: cut(asWritten(message), L.text), path: at.path, line: at.line });
}
function text(v) { try { if (v && typeof v === "object" && "message" in v) return S(v.message); return v === undefined || v === null ? "" : S(v); } catch (e) { return ""; } }
function fail(message, fallback) {
  if (failed) return;
  failed = true;
  var t = apply(trim, asWritten(message == null ? "" : message), []);
  if (!t) t = fallback;
  send({ type: T.error, message: cut(t, L.error) });
}
function maybeReady() { if (loaded && pending === 0 && !failed && !readySent) { readySent = true; send({ type: T.ready }); } }
// Capture phase, so a page listener cannot hide an error from the bridge; resource load
// errors (an <img> that fails) pass through the capture phase too and are not runtime errors.
var ErrorEventC = W.ErrorEvent;
apply(addListener, W, ["error", function (e) {
  if (!(e instanceof ErrorEventC)) return;
  var msg = e && (e.message || (e.error !== undefined ? text(e.error) : ""));
  errorEntry("error", msg || CFG.defaultError, e.error, e.filename);
  fail(msg, CFG.defaultError);
}, true]);
apply(addListener, W, ["unhandledrejection", function (e) {
  errorEntry("rejection", e ? "Uncaught (in promise) " + fmt(e.reason) : CFG.defaultRejection, e && e.reason, "");
  fail(e ? text(e.reason) : "", CFG.defaultRejection);
}, true]);
apply(addListener, W, ["load", function () { apply(setTimeoutF, W, [function () { loaded = true; maybeReady(); }, 0]); }]);
try {
  defineProperty(W, CFG.global, { value: freeze({ track: function (p) {
    pending++;
    apply(promiseThen, apply(PromiseResolve, PromiseC, [p]), [function () { pending--; maybeReady(); }, function (e) { pending--; errorEntry("error", fmt(e), e, ""); fail(text(e), CFG.defaultError); }]);
  } }) });
} catch (e) {}

// Console: log/warn/error/info/debug forwarded (after the original) for the first
// L.console calls of the mount, formatted and cut to L.text code points, with kind "console"
// and the workspace file and line of the calling frame where the stack names one.
function isError(v) { try { return apply(objToString, v, []) === "[object Error]"; } catch (e) { return false; } }
function fmt(v) {
  if (typeof v === "string") return v;
  try { if (isError(v)) return v.name + ": " + v.message; if (v && typeof v === "object") { var j = toJSON(v); if (typeof j === "string") return j; } } catch (e) {}
  return S(v);
}
var con = W.console;
if (con) {
  var levels = ["log", "info", "debug", "warn", "error"];
  for (var li = 0; li < levels.length; li++) (function (name) {
    var orig = con[name];
    if (typeof orig !== "function") return;
    var level = name === "info" || name === "debug" ? "log" : name;
    con[name] = function () {
      try {
        if (RELAY && consoleCount < L.console) {
          consoleCount++;
          var parts = [];
          for (var i = 0; i < arguments.length; i++) parts[i] = cut(fmt(arguments[i]), L.text);
          var at = where(stackOf(new ErrorC()), 1); // frame 0 is this wrapper
          send({ type: T.console, level: level, kind: "console", text: cut(apply(join, parts, [" "]), L.text), path: at.path, line: at.line });
        }
      } catch (e) {}
      return apply(orig, this, arguments);
    };
  })(levels[li]);
}
