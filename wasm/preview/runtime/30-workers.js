// 30-workers.js — workers get the file table and a worker prelude; worklets load blob: URLs;
// what an opaque-origin frame cannot do (service workers, URL routing with pushState) gets
// its own diagnostic; SharedWorker is emulated with a dedicated worker per (url, name).

// workerPrelude runs at the top of every worker made from a workspace file: fetch, XHR and
// importScripts of workspace URLs are served from the same file table. Serialized with
// Function.prototype.toString, so it must not use anything from this closure.
function workerPrelude(files, origin, base, shared) {
  "use strict";
  var blobs = {};
  function resolve(u) {
    var x; try { x = new URL(String(u), base); } catch (e) { return null; }
    if (x.origin !== origin) return null;
    var p = x.pathname; try { p = decodeURIComponent(p); } catch (e) {}
    p = p.slice(1);
    return Object.prototype.hasOwnProperty.call(files, p) ? p : null;
  }
  function body(p) {
    var f = files[p];
    if (f.blob !== undefined) return null;
    if (f.b64 === undefined) return f.text;
    var bin = atob(f.b64), out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  function blobFor(p) { return files[p].blob || blobs[p] || (blobs[p] = URL.createObjectURL(new Blob([body(p)], { type: files[p].type }))); }
  var of = self.fetch;
  self.fetch = function fetch(input, init) {
    var u = input instanceof Request ? input.url : String(input), p = resolve(u);
    if (p !== null && files[p].blob !== undefined) {
      return of.call(self, files[p].blob).then(function (r) { return r.blob(); }).then(function (b) { return new Response(b, { status: 200, headers: { "content-type": files[p].type } }); });
    }
    if (p !== null) return Promise.resolve(new Response(new Blob([body(p)], { type: files[p].type }), { status: 200, headers: { "content-type": files[p].type } }));
    try { if (new URL(u, base).origin === origin) return Promise.resolve(new Response("Not Found", { status: 404 })); } catch (e) {}
    return of.apply(self, arguments);
  };
  var xo = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (m, u) { var a = Array.prototype.slice.call(arguments), p = resolve(u); if (p !== null) a[1] = blobFor(p); return xo.apply(this, a); };
  if (typeof importScripts === "function") {
    var is = importScripts;
    self.importScripts = function () { var a = []; for (var i = 0; i < arguments.length; i++) { var p = resolve(arguments[i]); a.push(p !== null ? blobFor(p) : arguments[i]); } return is.apply(self, a); };
  }
  if (shared) {
    // SharedWorker emulation: the page side sends {__webcodingConnect: true} with a port for
    // every new SharedWorker(...) of the same (url, name); it becomes a "connect" event.
    self.addEventListener("message", function (e) {
      if (!e.data || e.data.__webcodingConnect !== true) return;
      e.stopImmediatePropagation();
      var ev = new MessageEvent("connect", { ports: e.ports, data: "" });
      if (typeof self.onconnect === "function") self.onconnect(ev);
      self.dispatchEvent(ev);
    });
  }
}
var preludeSource = apply(Function.prototype.toString, workerPrelude, []);
// Workers get assets as the frame's blob: URLs, not copies.
var workerFiles = null;
function workerTable() {
  if (workerFiles) return workerFiles;
  workerFiles = create(null);
  var ks = keysOf(FILES);
  for (var i = 0; i < ks.length; i++) {
    var f = FILES[ks[i]];
    workerFiles[ks[i]] = f.b64 !== undefined ? { type: f.type, blob: blobFor(ks[i]) } : f;
  }
  return workerFiles;
}
function workerURL(url, opts, shared) {
  var c = classify(url);
  if (!c || !c.file) { if (c) mapURL(url, shared ? "SharedWorker" : "Worker"); return url; }
  var f = fileAt(c.file), isModule = opts && typeof opts === "object" && opts.type === "module";
  if (isModule && /(^|[;\s])import\s*[\w{*'"]/.test(f.text || "")) report("limit", c.url.href, "module worker with static imports: its imports cannot be served from the workspace");
  var src = "(" + preludeSource + ")(" + toJSON(workerTable()) + "," + toJSON(ORIGIN) + "," + toJSON(c.url.href) + "," + (shared ? "true" : "false") + ");\n" + (f.text || "");
  return apply(createObjectURL, URLC, [new BlobC([src], { type: "text/javascript" })]);
}
var OrigWorker = W.Worker;
if (OrigWorker) {
  var PatchedWorker = function Worker(url, opts) {
    if (!new.target) throw new TypeErrorC("Failed to construct 'Worker': Please use the 'new' operator");
    return construct(OrigWorker, [workerURL(url, opts, false), opts], new.target);
  };
  PatchedWorker.prototype = OrigWorker.prototype;
  W.Worker = PatchedWorker;
  var sharedWorkers = new MapC();
  var EmulatedSharedWorker = function SharedWorker(url, opts) {
    if (!new.target) throw new TypeErrorC("Failed to construct 'SharedWorker': Please use the 'new' operator");
    var name = typeof opts === "string" ? opts : (opts && opts.name) || "";
    var key = S(url) + "\u0000" + name, w = apply(mapGet, sharedWorkers, [key]);
    if (!w) {
      w = construct(OrigWorker, [workerURL(url, typeof opts === "object" ? opts : undefined, true), typeof opts === "object" ? opts : undefined]);
      apply(mapSet, sharedWorkers, [key, w]);
      report("limit", S(url), "SharedWorker is emulated with a dedicated worker (shared within this page only)");
    }
    var ch = new W.MessageChannel();
    w.postMessage({ __webcodingConnect: true }, [ch.port2]);
    var self = construct(EventTarget, [], new.target);
    defineProperty(self, "port", { value: ch.port1, enumerable: true });
    self.onerror = null;
    w.addEventListener("error", function () { var ev = new Event("error"); if (typeof self.onerror === "function") self.onerror(ev); self.dispatchEvent(ev); });
    return self;
  };
  EmulatedSharedWorker.prototype = create(EventTarget.prototype);
  W.SharedWorker = EmulatedSharedWorker;
}

// Worklets (CSS paint, audio): addModule of a workspace URL loads its blob: URL.
var addModule = W.Worklet && Worklet.prototype.addModule;
if (addModule) Worklet.prototype.addModule = function addModule_(url, opts) { return apply(addModule, this, [mapURL(url, "worklet"), opts]); };

// Service workers cannot control an opaque-origin frame: register() rejects with a diagnostic.
try {
  var swStub = freeze({
    register: function (url) { report("limit", S(url), "service workers cannot run in the preview (opaque-origin frame)"); return apply(PromiseReject, PromiseC, [new DOMExceptionC("Service workers are not available in the preview", "SecurityError")]); },
    getRegistration: function () { return apply(PromiseResolve, PromiseC, [undefined]); },
    getRegistrations: function () { return apply(PromiseResolve, PromiseC, [[]]); },
    ready: new PromiseC(function () {}), controller: null,
    addEventListener: function () {}, removeEventListener: function () {}
  });
  defineProperty(Navigator.prototype, "serviceWorker", { configurable: true, enumerable: true, get: function () { return swStub; } });
} catch (e) {}

// URL routing with pushState/replaceState: the document's URL (about:srcdoc, a <frame>'s blob:) cannot take a
// path or query, so the state is kept and the URL dropped, with a diagnostic. A URL that names
// the page itself (resolved against its virtual URL: "#/a", "?q#/a" with the same query, or the
// absolute URL AngularJS's $location writes) changes only the fragment: it becomes the real
// document's fragment, which the virtual Location then reads (hashTouched, 50-nav.js).
// historyOrig: the browser's own pushState and replaceState (50-nav.js's fragment navigation of a
// blob: document uses them).
var historyOrig = {};
(function () {
  var H = W.History && History.prototype;
  if (!H) return;
  // This document's own URL without its fragment: about:srcdoc, or a <frame>'s blob: URL.
  var docURL = S(W.location.href), hi = apply(indexOf, docURL, ["#"]);
  if (hi >= 0) docURL = apply(slice, docURL, [0, hi]);
  ["pushState", "replaceState"].forEach(function (name) {
    var orig = H[name];
    historyOrig[name] = orig;
    H[name] = function (state, title, url) {
      if (url === undefined || url === null) return apply(orig, this, [state, title]);
      var u = S(url), c = classify(u, vHref()), cur = vURL();
      if (c && c.url.origin === cur.origin && c.url.pathname === cur.pathname && c.url.search === cur.search) {
        var k = apply(indexOf, c.url.href, ["#"]);
        try {
          var r = apply(orig, this, [state, title, docURL + (k >= 0 ? apply(slice, c.url.href, [k]) : "")]);
          hashTouched = true;
          return r;
        } catch (e) {}
      }
      report("limit", u, "history." + name + " with a URL: path-based routing cannot change the preview's URL; the state is kept, the URL is not");
      return apply(orig, this, [state, title]);
    };
  });
})();
