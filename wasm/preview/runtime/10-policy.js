// 10-policy.js — the network policy (a CSP <meta>, inserted before anything can load), the
// virtual base URL, and violation reports.
//
// No <base> element is inserted (it would send "#x" links and SVG url(#id) away): the parser
// keeps resolving markup against the studio's URL (FALLBACK), which classify() maps back to
// the virtual origin, and document.baseURI reads as the page's virtual URL.
var ORIGIN = CFG.origin, BASE = CFG.base;
var FALLBACK = (function () { try { var u = new URLC(".", D.baseURI); return u.protocol === "http:" || u.protocol === "https:" ? u.href : ""; } catch (e) { return ""; } })();
try { defineProperty(D, "baseURI", { configurable: true, enumerable: true, get: function () { return BASE; } }); } catch (e) {}
// document.domain is the virtual host, and setting it to itself works, as over HTTP (the
// sandbox's opaque origin reads "" and throws SecurityError for any value); another value is
// refused as a browser refuses a domain that is not a suffix of the page's host.
(function () {
  var host = new URLC(ORIGIN).hostname;
  try {
    defineProperty(D, "domain", { configurable: true, enumerable: true, get: function () { return host; }, set: function (v) {
      if (apply(toLower, S(v), []) !== host) throw new DOMExceptionC("Failed to set the 'domain' property on 'Document': '" + S(v) + "' is not a suffix of '" + host + "'.", "SecurityError");
    } });
  } catch (e) {}
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
  var c = classify(url);
  if (c && c.file) return;
  // The URL of a <link> of a type that fetches nothing where the page is served (an
  // apple-touch-icon: Chromium checks its URL against the policy in a frame, and requests
  // nothing top level; the event names no element).
  if (hintLinkURL(url)) return;
  // A workspace path with no file: "missing", once (a run-time setter may have said so first).
  if (c && c.missing) { if (!apply(setHas, missingPaths, [c.missing])) reportMissing(c, c.missing, dir); return; }
  if (dir === "form-action") { report("blocked", url, "form submission outside the workspace (form-action)"); return; }
  report("blocked", url, dir + (CFG.allowInternet ? "" : "; the preview has no network (Allow internet in preview is off)"));
}, true]);
function hintLinkURL(url) {
  var root = D.documentElement, ls = root ? apply(querySelectorAll, root, ["link[href]"]) : [];
  for (var i = 0; i < ls.length; i++) {
    if (!hintOnly(ls[i])) continue;
    try { if (new URLC(S(apply(getAttr, ls[i], ["href"])), BASE).href === url) return true; } catch (x) {}
  }
  return false;
}
