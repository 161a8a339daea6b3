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
  if (dir === "font-src" && c) { fontViolation(c, url, dir); return; }
  violation(c, url, dir);
}, true]);
function violation(c, url, dir) {
  // A workspace path with no file: "missing", once (a run-time setter may have said so first).
  if (c && c.missing) { if (!apply(setHas, missingPaths, [c.missing])) reportMissing(c, c.missing, dir); return; }
  if (dir === "form-action") { report("blocked", url, "form submission outside the workspace (form-action)"); return; }
  report("blocked", url, dir + (CFG.allowInternet ? "" : "; the preview has no network (Allow internet in preview is off)"));
}

// A font source the policy refused (docs/design.md §5.52). Chromium checks every source of
// every @font-face rule against the policy when it reads the rule, whether an element uses the
// face or not; over HTTP it requests a face's sources only once an element uses it, in the
// rule's order, until one loads. So a refused or missing source is reported once its face is
// in use (its FontFace is no longer "unloaded") and no source that can load comes before it;
// until then it waits here, and document.fonts' loading events look again. A source that no
// rule names (a FontFace made by a script, a rule we cannot read) is reported at once.
var pendingFonts = [];
var fontSet = D.fonts, fontSetForEach = W.FontFaceSet && FontFaceSet.prototype.forEach;
var fontFaceRuleC = W.CSSFontFaceRule, importRuleC = W.CSSImportRule;
function faceGetter(name) { var d = W.FontFace && getOwnDesc(FontFace.prototype, name); return d && d.get; }
var faceStatus = faceGetter("status"), faceFamily = faceGetter("family"), faceWeight = faceGetter("weight"), faceStyle = faceGetter("style");
var styleValue = CSSStyleDeclaration.prototype.getPropertyValue;
function fontKey(x) { return x.origin + x.pathname + x.search; }
function fontViolation(c, url, dir) {
  var entry = { c: c, url: url, dir: dir, key: fontKey(c.url) };
  if (!fontSettled(entry, fontFaces())) apply(push, pendingFonts, [entry]);
}
// fontSettled reports entry (and says true) when its face is in use or no rule of faces (the
// document's @font-face rules with their sources, fontFaces) names it.
function fontSettled(entry, faces) {
  var named = false, due = false;
  for (var f = 0; f < faces.length && !due; f++) {
    var srcs = faces[f].srcs, at = -1, i;
    for (i = 0; i < srcs.length; i++) if (srcs[i].key === entry.key) { at = i; break; }
    if (at < 0) continue;
    named = true;
    if (!faceInUse(faces[f].rule)) continue;
    for (i = 0; i < at && !srcs[i].loads; i++) {}
    due = i === at;
  }
  if (named && !due) return false;
  violation(entry.c, entry.url, entry.dir);
  return true;
}
function recheckFonts() {
  var faces = fontFaces(), left = [];
  for (var i = 0; i < pendingFonts.length; i++) if (!fontSettled(pendingFonts[i], faces)) apply(push, left, [pendingFonts[i]]);
  pendingFonts = left;
}
if (fontSet) {
  var fontEvents = ["loading", "loadingdone", "loadingerror"];
  for (var fe = 0; fe < fontEvents.length; fe++) apply(addListener, fontSet, [fontEvents[fe], function () { if (pendingFonts.length) recheckFonts(); }]);
}
// fontFaces lists the document's @font-face rules (grouping rules and @import-ed sheets
// included; at most L.fontRules rules looked at), each as {rule, srcs: fontSources(rule)}.
function fontFaces() {
  var seen = 0, out = [];
  function walk(list, depth) {
    if (!list || depth > 16) return;
    for (var i = 0; i < list.length && seen < L.fontRules; i++) {
      var r = list[i];
      seen++;
      if (fontFaceRuleC && r instanceof fontFaceRuleC) { apply(push, out, [{ rule: r, srcs: fontSources(r) }]); continue; }
      if (importRuleC && r instanceof importRuleC) { try { walk(r.styleSheet && r.styleSheet.cssRules, depth + 1); } catch (e) {} continue; }
      var inner = null;
      try { inner = r.cssRules; } catch (e) {}
      if (inner) walk(inner, depth + 1);
    }
  }
  var sheets = D.styleSheets;
  for (var i = 0; sheets && i < sheets.length; i++) { try { walk(sheets[i].cssRules, 0); } catch (e) {} }
  return out;
}
// fontSources is the rule's src URLs in order, each with its key and whether it can load (a
// workspace file, data:/blob:, an allowed https: URL).
function fontSources(rule) {
  var text = S(apply(styleValue, rule.style, ["src"])), out = [], re = /url\(\s*"((?:[^"\\]|\\.)*)"\s*\)/g, m;
  while ((m = re.exec(text)) !== null && out.length < 64) {
    var c = classify(apply(replaceStr, m[1], [/\\(.)/g, "$1"]), FALLBACK || BASE);
    if (c) apply(push, out, [{ key: fontKey(c.url), loads: !!(c.file || c.pass) }]);
  }
  return out;
}
function unquote(v) { v = apply(trim, S(v), []); var q = v[0]; if ((q === '"' || q === "'") && v[v.length - 1] === q) v = apply(slice, v, [1, -1]); return apply(toLower, v, []); }
function normWeight(v) { v = apply(toLower, apply(trim, S(v), []), []); return v === "" || v === "normal" ? "400" : v === "bold" ? "700" : v; }
function normStyle(v) { v = apply(toLower, apply(trim, S(v), []), []); return v === "" ? "normal" : v; }
// faceInUse: whether a FontFace of the rule's family and descriptors (of its family alone when
// none has the same descriptors) is no longer "unloaded", i.e. an element used it.
function faceInUse(rule) {
  if (!fontSet || !fontSetForEach || !faceStatus) return true;
  var fam = unquote(apply(styleValue, rule.style, ["font-family"]));
  var w = normWeight(apply(styleValue, rule.style, ["font-weight"])), st = normStyle(apply(styleValue, rule.style, ["font-style"]));
  var exact = 0, exactUsed = false, famUsed = false;
  apply(fontSetForEach, fontSet, [function (f) {
    if (unquote(apply(faceFamily, f, [])) !== fam) return;
    var used = apply(faceStatus, f, []) !== "unloaded";
    if (normWeight(apply(faceWeight, f, [])) === w && normStyle(apply(faceStyle, f, [])) === st) { exact++; exactUsed = exactUsed || used; }
    famUsed = famUsed || used;
  }]);
  return exact ? exactUsed : famUsed;
}
function hintLinkURL(url) {
  var root = D.documentElement, ls = root ? apply(querySelectorAll, root, ["link[href]"]) : [];
  for (var i = 0; i < ls.length; i++) {
    if (!hintOnly(ls[i])) continue;
    try { if (new URLC(S(apply(getAttr, ls[i], ["href"])), BASE).href === url) return true; } catch (x) {}
  }
  return false;
}
