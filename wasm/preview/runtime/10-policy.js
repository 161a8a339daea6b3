// 10-policy.js — the network policy (a CSP <meta>, inserted before anything can load), the
// virtual base URL, and violation reports.
//
// No <base> element is inserted (it would send "#x" links and SVG url(#id) away): the parser
// keeps resolving markup against the studio's URL (FALLBACK). Only what the browser resolved
// that way — a policy violation's blockedURI, the URL getters below (a.href, img.src, …) — is
// mapped back to the virtual origin (fromFallback); a URL string the page passes (fetch, XHR,
// setters) is resolved against the page's virtual URL, so an absolute URL naming the studio's
// own address is another site's, as over HTTP. document.baseURI reads as the page's virtual URL.
var ORIGIN = CFG.origin, BASE = CFG.base, STUDIO_BASE = S(D.baseURI);
var FALLBACK = (function () { try { var u = new URLC(".", STUDIO_BASE); return u.protocol === "http:" || u.protocol === "https:" ? u.href : ""; } catch (e) { return ""; } })();
function fromFallback(v) {
  if (!FALLBACK || typeof v !== "string" || apply(indexOf, v, [FALLBACK]) !== 0) return v;
  if (v === STUDIO_BASE) return BASE;
  try { return new URLC(apply(slice, v, [FALLBACK.length]), ORIGIN + "/").href; } catch (e) { return v; }
}
try { defineProperty(D, "baseURI", { configurable: true, enumerable: true, get: function () { return BASE; } }); } catch (e) {}
// Getters of URLs the browser resolved against the inherited base read them under the virtual
// origin (a lightbox's img.src = a.href, fetch(form.action), new URL(x, el.baseURI)).
function hookResolved(ctor, prop) {
  var proto = ctor && ctor.prototype, d = proto && getOwnDesc(proto, prop);
  if (!d || !d.get) return;
  defineProperty(proto, prop, { configurable: true, enumerable: d.enumerable, set: d.set,
    get: function () { return fromFallback(apply(d.get, this, [])); } });
}
hookResolved(W.HTMLAnchorElement, "href"); hookResolved(W.HTMLAreaElement, "href");
hookResolved(W.HTMLFormElement, "action"); hookResolved(W.HTMLIFrameElement, "src");
hookResolved(W.HTMLButtonElement, "formAction"); hookResolved(W.HTMLInputElement, "formAction"); hookResolved(W.Node, "baseURI");
(function () {
  var hrefOf = function toString() { return S(this.href); };
  if (W.HTMLAnchorElement) defineProperty(HTMLAnchorElement.prototype, "toString", { value: hrefOf, writable: true, configurable: true });
  if (W.HTMLAreaElement) defineProperty(HTMLAreaElement.prototype, "toString", { value: hrefOf, writable: true, configurable: true });
})();
// A compiled document carries the same <meta> ahead of this script (preview.bridgeElement),
// so the preload scanner honours it too; then it is not inserted twice.
(function () {
  var head = D.head || D.documentElement;
  if (CFG.csp && !apply(Document.prototype.querySelector, D, ['meta[http-equiv="Content-Security-Policy"]'])) {
    var meta = apply(createElement, D, ["meta"]);
    apply(setAttr, meta, ["http-equiv", "Content-Security-Policy"]);
    apply(setAttr, meta, ["content", CFG.csp]);
    apply(appendChild, head, [meta]);
  }
})();

// A request the policy blocked is reported, unless it is the early request of markup inserted
// at run time for a workspace file (the observer below serves it; issue 13 accepts that one);
// a request for a workspace path with no file is reported as "missing", never as "blocked".
apply(addListener, D, ["securitypolicyviolation", function (e) {
  var url = S(e.blockedURI), dir = S(e.effectiveDirective);
  if (url === "inline" || url === "eval" || url === "wasm-eval") return;
  var c = classify(fromFallback(url));
  if (c && c.file) return;
  // A workspace path with no file: "missing", once (a run-time setter may have said so first).
  if (c && c.missing) { if (!apply(setHas, missingPaths, [c.missing])) reportMissing(c, c.missing, dir); return; }
  if (dir === "form-action") { report("blocked", url, "form submission outside the workspace (form-action)"); return; }
  report("blocked", url, dir + (CFG.allowInternet ? "" : "; the preview has no network (Allow internet in preview is off)"));
}, true]);
