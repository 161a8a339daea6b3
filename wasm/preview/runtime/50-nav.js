// 50-nav.js — navigation. A link or form (after the page's own handlers, unless they called
// preventDefault) that resolves to a workspace HTML page asks the parent to mount that page
// (query and hash kept); a same-page #fragment link scrolls; any other navigation is left to
// the browser and reported as leaving, and the parent shows "navigated away".
function isPage(p) { var f = fileAt(p); return !!f && /^text\/html\b/.test(f.type); }
var ENTRY = CFG.entry || "";
function goTo(c, search, hash) {
  if (c.file === ENTRY && search === (CFG.search || "") && hash) {
    // Same document, other fragment: a fragment navigation of about:srcdoc scrolls to it.
    try { W.location.hash = hash; } catch (e) {}
    return;
  }
  send({ type: T.navigate, path: c.file, search: cut(search, L.text), hash: cut(hash, L.text) });
}
apply(addListener, W, ["click", function (e) {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  var a = e.target && e.target.nodeType === 1 ? apply(closest, e.target, ["a[href],area[href]"]) : null;
  if (!a) return;
  var target = S(apply(getAttrOrig, a, ["target"]) || "");
  if (target && target !== "_self" && target !== "_top" && target !== "_parent") return;
  if (apply(getAttrOrig, a, ["download"]) !== null) return;
  var href = apply(getAttrOrig, a, ["href"]), c = classify(href);
  if (!c || c.pass && c.url.protocol === "javascript:") return;
  if (c.file && isPage(c.file)) { e.preventDefault(); goTo(c, c.url.search, c.url.hash); return; }
  if (c.missing) { e.preventDefault(); reportMissing(c, S(href), "link"); return; }
  if (c.file) { e.preventDefault(); report("limit", S(href), "link to a workspace file that is not a page"); return; }
  if (c.refused) { e.preventDefault(); report("blocked", c.url.href, "link" + (CFG.allowInternet ? " (only https: outside loopback is allowed)" : "; the preview has no network (Allow internet in preview is off)")); return; }
  send({ type: T.leaving, url: cut(c.url.href, L.text) });
}]);
apply(addListener, W, ["submit", function (e) {
  if (e.defaultPrevented) return;
  var form = e.target, sub = e.submitter;
  if (!form || form.localName !== "form") return;
  var action = (sub && apply(getAttrOrig, sub, ["formaction"])) || apply(getAttrOrig, form, ["action"]) || "";
  var method = apply(toLower, S((sub && apply(getAttrOrig, sub, ["formmethod"])) || apply(getAttrOrig, form, ["method"]) || "get"), []);
  var target = S((sub && apply(getAttrOrig, sub, ["formtarget"])) || apply(getAttrOrig, form, ["target"]) || "");
  if (target && target !== "_self") return;
  if (method === "dialog") return;
  var c = action === "" ? { file: ENTRY, url: new URLC(virtualURL(ENTRY)) } : classify(action);
  if (!c || !c.file || !isPage(c.file)) return; // left to the policy (form-action), reported
  e.preventDefault();
  var search = "";
  if (method === "get") {
    try { search = "?" + new URLSearchParams(new FormData(form, sub || undefined)).toString(); } catch (x) { search = "?"; }
  }
  goTo(c, search, "");
}]);
// A page mounted with a query (a link or GET form to "page.html?q=x") cannot see it: an
// about:srcdoc document has no query, so location.search reads "". Said once, as a limit, so
// the user and the model know why a search page shows no results.
if (CFG.search && CFG.search !== "?") report("limit", CFG.search, "location.search reads \"\" in the preview: an about:srcdoc document cannot carry the query it was opened with");
if (CFG.hash) apply(addListener, D, ["DOMContentLoaded", function () { try { W.location.hash = CFG.hash; } catch (e) {} }]);
// Any other unload of this document (location.href = …, a reload) is detected by the parent,
// which counts the frame's load events; no pagehide listener here (see 40-storage.js).
