// 50-nav.js — navigation. A link or form (after the page's own handlers, unless they called
// preventDefault), or a script navigation through the virtual Location below, that resolves to
// a workspace HTML page asks the parent to mount that page (query and hash kept); a same-page
// #fragment link scrolls; any other navigation is left to the browser and reported as
// leaving, and the parent shows "navigated away".
function isPage(p) { var f = fileAt(p); return !!f && /^text\/html\b/.test(f.type); }
var ENTRY = CFG.entry || "", SEARCH = CFG.search || "";
// DIR: the page was opened by its folder's URL ("/", "docs/"), so it reads that URL, as a served
// folder's index.html does (RuntimeConfig.Dir); pageURL() is the page's virtual URL, no query.
var DIR = !!CFG.dir && /(^|\/)index\.html$/.test(ENTRY);
function pageURL() { return virtualURL(DIR ? apply(slice, ENTRY, [0, -10]) : ENTRY); }
// hashTouched: the page's fragment is the real one (about:srcdoc#…) once the mount's hash was
// applied (DOMContentLoaded) or the page changed it; before, the virtual one is CFG.hash.
var hashTouched = false;
// setHash navigates to fragment h of this document. how: "set" (the Location's hash setter:
// nothing happens when the fragment does not change), "link" (a link or assign(): the same
// fragment scrolls again), "replace" (replace(): no new history entry), "initial" (the mount's
// hash, at DOMContentLoaded).
function setHash(h, how) {
  hashTouched = true;
  var cur = S(W.location.href), next = hashed(cur, h);
  if (next === cur) {
    // The hash setter does nothing then (nor does the mount's hash, which the URL has).
    if (how === "link" || how === "replace") sameFragment(cur);
    return;
  }
  if (BLOBDOC) { blobFragment(cur, next, how); return; }
  // replace(): the document's own URL with the fragment, replacing the entry (the hash setter
  // would add one).
  if (how === "replace") { try { apply(realReplace, W.location, [next]); } catch (e) {} return; }
  try { W.location.hash = h; } catch (e) {}
}
// sameFragment: a link or assign() to the fragment the document is at navigates anyway, as a
// replace: the entry's state becomes null, popstate fires (no hashchange), and the indicated
// element is scrolled to again (the hash setter, which the browser ignores then, does none).
function sameFragment(cur) {
  try { apply(historyOrig.replaceState, W.history, [null, "", cur]); } catch (e) {}
  try { apply(dispatchEvent, W, [new PopStateC("popstate", { state: null })]); } catch (e) {}
  scrollToFragment(fragmentOf(cur));
}
// hashed: URL u with its fragment set as the Location's hash setter sets it ("" and "#" give an
// empty fragment, the URL ending in "#"); fragmentOf: "#…" of a URL, "" for none.
function hashed(u, h) {
  var k = apply(indexOf, u, ["#"]), x = S(h);
  if (k >= 0) u = apply(slice, u, [0, k]);
  if (apply(slice, x, [0, 1]) === "#") x = apply(slice, x, [1]);
  try { var v = new URLC(u); v.hash = x; u = v.href; } catch (e) { return u + "#" + x; }
  return apply(indexOf, u, ["#"]) >= 0 ? u : u + "#";
}
function fragmentOf(u) { var k = apply(indexOf, u, ["#"]); return k >= 0 ? apply(slice, u, [k]) : ""; }
// In a blob: document (BLOBDOC) the document's URL belongs to the origin that made it, not to
// the document's opaque one, and Chromium drops the document's navigations to it, fragment
// ones included (measured 2026-12-07: location.hash = "#t" and a click on <a href="#t"> leave
// the fragment "" and do not scroll; pushState and replaceState to "#t" work). blobFragment
// does what HTML's "navigate to a fragment" does, as Chromium does it: a new history entry
// (replaced while the document is loading, as every navigation then is, and for replace(); none
// when the URL does not change), popstate at once, the indicated element revealed (closed
// <details> opened, hidden="until-found" shown), scrolled to and, when focusable, focused, then
// hashchange in a task with the page's virtual old and new URLs. The mount's own hash makes no
// history entry and fires no event, as a page loaded with a fragment fires none. Not followed:
// :target, and the events are not trusted (isTrusted false).
var getById = Document.prototype.getElementById, scrollIntoView = Element.prototype.scrollIntoView, scrollToF = W.scrollTo;
var PopStateC = W.PopStateEvent, HashChangeC = W.HashChangeEvent, focusF = HTMLElement.prototype.focus, stopImmediate = Event.prototype.stopImmediatePropagation;
// blobFragment(cur, next, how): from the document's URL cur to next (another fragment), how as
// for setHash.
function blobFragment(cur, next, how) {
  var oldV = vHref();
  var replace = how === "replace" || how === "initial" || D.readyState !== "complete";
  try { apply(replace ? historyOrig.replaceState : historyOrig.pushState, W.history, [null, "", next]); } catch (e) { return; }
  if (how !== "initial") { try { apply(dispatchEvent, W, [new PopStateC("popstate", { state: null })]); } catch (e) {} }
  scrollToFragment(fragmentOf(next));
  var newV = vHref();
  if (how !== "initial" && fragmentOf(oldV) !== fragmentOf(newV)) {
    apply(setTimeoutF, W, [function () {
      try { apply(dispatchEvent, W, [new HashChangeC("hashchange", { oldURL: oldV, newURL: newV })]); } catch (e) {}
    }, 0]);
  }
}
// scrollToFragment scrolls to HTML's "indicated part" of the document for hash ("#x"): the
// element with that id (as written, then percent-decoded), else the first <a> with that name,
// else the top for "" and "top" (any case). The element is revealed first and focused after
// when it is focusable (as Chromium does).
function scrollToFragment(hash) {
  var f = apply(slice, S(hash), [1]), el = null, dec = f;
  try { dec = decodeURIComponent(f); } catch (e) {}
  if (f !== "") {
    el = apply(getById, D, [f]) || apply(getById, D, [dec]);
    if (!el) { var as = D.getElementsByName ? D.getElementsByName(dec) : []; for (var i = 0; i < as.length && !el; i++) if (as[i].localName === "a") el = as[i]; }
  }
  try {
    if (el) {
      for (var p = el; p && p.nodeType === 1; p = p.parentElement || (p.parentNode && p.parentNode.host) || null) {
        if (p.localName === "details" && p !== el && !p.open) p.open = true;
        if (apply(getAttrOrig, p, ["hidden"]) === "until-found") apply(removeAttr, p, ["hidden"]);
      }
      apply(scrollIntoView, el, []);
      if (el.tabIndex >= 0 || apply(getAttrOrig, el, ["tabindex"]) !== null) apply(focusF, el, [{ preventScroll: true }]);
    } else if (f === "" || apply(toLower, dec, []) === "top") apply(scrollToF, W, [0, 0]);
  } catch (e) {}
}
// A hashchange of the browser's own (Back and Forward between this document's entries, a
// fragment navigation of about:srcdoc) names the document's real URL (about:srcdoc#x, or the
// blob: URL with the studio's address): it is replaced by one naming the page's virtual URLs.
apply(addListener, W, ["hashchange", function (e) {
  if (!e.isTrusted) return;
  var o = S(e.oldURL), n = S(e.newURL), page = pageURL() + SEARCH;
  apply(stopImmediate, e, []);
  try { apply(dispatchEvent, W, [new HashChangeC("hashchange", { oldURL: page + fragmentOf(o), newURL: page + fragmentOf(n) })]); } catch (x) {}
}, true]);
// A URL whose path ends in "/" names a folder: its index.html is opened with dir set.
function goTo(c, search, hash, replace) {
  var dir = apply(slice, c.url.pathname, [-1]) === "/";
  if (c.file === ENTRY && dir === DIR && search === SEARCH && hash) {
    // Same document, other fragment: a fragment navigation of about:srcdoc scrolls to it.
    setHash(hash, replace ? "replace" : "link");
    return;
  }
  mountPage(c.file, search, hash, replace, dir);
}
// samePageFragment: the page c names is the mounted one, same query, with a fragment — even
// an empty one ("#", whose URL.hash is "") — so, as over HTTP, a fragment navigation that
// stays in the document (a link <a href="#"> scrolls to the top, it does not reload).
function samePageFragment(c) { return c.file === ENTRY && (apply(slice, c.url.pathname, [-1]) === "/") === DIR && c.url.search === vURL().search && apply(indexOf, c.url.href, ["#"]) >= 0; }
// mountPage asks the parent to mount a page (replace: in place of the one shown in its
// Back/Forward list); storage changes not yet sent go first (the port keeps their order), so
// the next page starts from them.
function mountPage(path, search, hash, replace, dir, target) {
  if (storageTimer) flushStorage();
  var m = { type: T.navigate, path: path, search: cut(search, L.text), hash: cut(hash, L.text) };
  if (replace) m.replace = true;
  if (dir) m.dir = true;
  if (target) m.target = cut(target, L.text);
  send(m);
}
// A link's or form's target (HTML "the rules for choosing a navigable"): its own target
// attribute, else the document's first <base target>; "" and "_self" are this document.
var baseQS = Document.prototype.querySelector;
function linkTarget(el, attr) {
  var t = apply(getAttrOrig, el, [attr]);
  if (t === null) { var b = apply(baseQS, D, ["base[target]"]); t = b ? apply(getAttrOrig, b, ["target"]) : ""; }
  t = S(t);
  var k = apply(toLower, t, []);
  return k === "_self" ? "" : k === "_top" || k === "_parent" || k === "_blank" ? k : t;
}
// navTarget shows the workspace page c in the navigable target names (not "" or "_blank"),
// as over HTTP: "_top" is the preview's page, "_parent" the document holding this one's
// frame (for the preview's page itself, both are the page), a name a frame of this document
// with that name (frames.js), else one of a document further up. Returns false when no
// document has such a frame: the link opens a new window over HTTP, left to the browser
// (the sandbox allows no popups).
function navTarget(target, c) {
  if (target === "_top" || target === "_parent") {
    if (NESTED) mountPage(c.file, c.url.search, c.url.hash, false, false, target);
    else goTo(c, c.url.search, c.url.hash);
    return true;
  }
  if (namedFrame(target, c)) return true;
  if (!NESTED) return false;
  mountPage(c.file, c.url.search, c.url.hash, false, false, target);
  return true;
}
apply(addListener, W, ["click", function (e) {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  var a = e.target && e.target.nodeType === 1 ? apply(closest, e.target, ["a[href],area[href]"]) : null;
  if (!a) return;
  // Only "_top" and "_parent" are keywords here ("_self" is ""): another name starting with
  // "_" names a frame like any name, and with none opens a new window over HTTP.
  var target = linkTarget(a, "target"), up = target === "_top" || target === "_parent";
  if (target === "_blank" || target && !NESTED && !up && !hasNamedFrame(target)) return;
  if (apply(getAttrOrig, a, ["download"]) !== null) return;
  var href = apply(getAttrOrig, a, ["href"]), c = classify(href);
  if (!c || c.pass && c.url.protocol === "javascript:") return;
  if (c.file && isPage(c.file)) {
    e.preventDefault();
    if (target && (NESTED || !up)) { navTarget(target, c); return; }
    if (samePageFragment(c)) { setHash(c.url.hash || "#", "link"); return; }
    goTo(c, c.url.search, c.url.hash);
    return;
  }
  if (c.missing) { e.preventDefault(); reportMissing(c, S(href), "link"); return; }
  if (c.file) { e.preventDefault(); report("limit", S(href), "link to a workspace file that is not a page"); return; }
  if (c.refused) { e.preventDefault(); report("blocked", c.url.href, "link" + (CFG.allowInternet ? " (only https: outside loopback is allowed)" : "; the preview has no network (Allow internet in preview is off)")); return; }
  send({ type: T.leaving, url: cut(c.url.href, L.text) });
}]);
// submitForm navigates for a form submitted to a workspace page (sub: its submitter): the
// page with the form's data as its query (GET), in the navigable its target names (formtarget,
// target, else the document's <base target>, as for links). Returns false when it is left to
// the browser: another kind of action (the policy decides, and reports), "_blank", a name no
// frame has, method "dialog".
function submitForm(form, sub) {
  var action = (sub && apply(getAttrOrig, sub, ["formaction"])) || apply(getAttrOrig, form, ["action"]) || "";
  var method = apply(toLower, S((sub && apply(getAttrOrig, sub, ["formmethod"])) || apply(getAttrOrig, form, ["method"]) || "get"), []);
  var target = sub && apply(getAttrOrig, sub, ["formtarget"]) !== null ? linkTarget(sub, "formtarget") : linkTarget(form, "target");
  var up = target === "_top" || target === "_parent";
  if (target === "_blank" || target && !NESTED && !up && !hasNamedFrame(target)) return false;
  if (method === "dialog") return false;
  var c = action === "" ? { file: ENTRY, url: new URLC(pageURL()) } : classify(action);
  if (!c || !c.file || !isPage(c.file)) return false; // left to the policy (form-action), reported
  var search = "";
  if (method === "get") {
    try { search = "?" + new URLSearchParams(new FormData(form, sub || undefined)).toString(); } catch (x) { search = "?"; }
  }
  if (target && (NESTED || !up)) {
    var t = classify(virtualURL(c.file) + search);
    if (t && t.file) { navTarget(target, t); return true; }
  }
  goTo(c, search, "");
  return true;
}
apply(addListener, W, ["submit", function (e) {
  if (e.defaultPrevented) return;
  var form = e.target;
  if (!form || form.localName !== "form") return;
  if (submitForm(form, e.submitter)) e.preventDefault();
}]);
// form.submit() fires no submit event, and the sandbox (no allow-forms) drops the browser's
// own submission silently: it goes through submitForm too.
(function () {
  var F = W.HTMLFormElement && HTMLFormElement.prototype, orig = F && F.submit;
  if (!orig) return;
  F.submit = function submit() {
    if (this instanceof HTMLFormElement && submitForm(this, null)) return;
    return apply(orig, this, arguments);
  };
})();
if (CFG.hash) apply(addListener, D, ["DOMContentLoaded", function () { if (!hashTouched) setHash(CFG.hash, "initial"); }]);

// document.referrer: the page that navigated here (RuntimeConfig.Referrer, set by the parent
// for a link, form or script navigation; for a page in a frame, the page that filled it), ""
// for a page the user opened — as over HTTP; the srcdoc document's own is always "".
(function () {
  var d = getOwnDesc(Document.prototype, "referrer");
  if (!d || !d.get) return;
  var ref = S(CFG.referrer || "");
  defineProperty(Document.prototype, "referrer", { configurable: true, enumerable: d.enumerable,
    get: function () { return this === D ? ref : apply(d.get, this, []); } });
})();

// The virtual Location (docs/design.md §5.34): window[CFG.location], which the compiler names
// in place of the page's references to its Location (`location`, `window.location`,
// `document.location`, …; the real ones cannot be redefined). It reads the page's virtual URL —
// the mounted page's path under CFG.origin with its query and fragment, as a served page would
// — and navigates like a link: a workspace page is mounted by the parent, a fragment of the
// same page scrolls, a missing page or a non-page file is reported and stays, a refused URL is
// reported as blocked and stays, anything else (https: with internet, blob:, data:, about:,
// javascript:) goes to the real location and is reported as leaving. reload() mounts the page
// again; replace() and reload() take the place of the page in the parent's Back/Forward list.
// Code built at run time from strings (eval, new Function) still sees the real one.
function vHref() { return pageURL() + SEARCH + vFragment(); }
// vFragment: "#…" as in the URL ("#" alone for an empty fragment), "" for none.
function vFragment() {
  if (!hashTouched) return CFG.hash || "";
  var h = S(W.location.href), k = apply(indexOf, h, ["#"]);
  return k >= 0 ? apply(slice, h, [k]) : "";
}
function vHash() { var f = vFragment(); return f === "#" ? "" : f; }
function vURL() { return new URLC(vHref()); }
function vNavigate(u, replace, what) {
  var s = S(u), c = classify(s);
  if (!c) throw new DOMExceptionC("Failed to execute '" + what + "' on 'Location': '" + s + "' is not a valid URL.", "SyntaxError");
  if (c.file && isPage(c.file)) {
    if (samePageFragment(c)) { setHash(c.url.hash || "#", replace ? "replace" : "link"); return; }
    goTo(c, c.url.search, c.url.hash, replace);
    return;
  }
  if (c.missing) { reportMissing(c, s, "location"); return; }
  if (c.file) { report("limit", s, "navigation to a workspace file that is not a page"); return; }
  if (c.refused) { report("blocked", c.url.href, "navigation" + (CFG.allowInternet ? " (only https: outside loopback is allowed)" : "; the preview has no network (Allow internet in preview is off)")); return; }
  if (c.url.protocol !== "javascript:") send({ type: T.leaving, url: cut(c.url.href, L.text) });
  if (replace) apply(realReplace, W.location, [c.url.href]); else W.location.href = c.url.href;
}
var realReplace = W.location.replace;
function vSet(part) {
  return function (v) {
    if (part === "hash") { setHash(v, "set"); return; }
    var u = vURL();
    try { u[part] = v; } catch (e) { return; }
    vNavigate(u.href, false, part);
  };
}
var VLOC = create(W.Location ? Location.prototype : Object.prototype);
var vParts = ["origin", "protocol", "host", "hostname", "port", "pathname", "search", "hash"];
for (var vi = 0; vi < vParts.length; vi++) (function (part) {
  defineProperty(VLOC, part, { enumerable: true, get: function () { return vURL()[part]; }, set: part === "origin" ? undefined : vSet(part) });
})(vParts[vi]);
defineProperty(VLOC, "href", { enumerable: true, get: vHref, set: function (v) { vNavigate(v, false, "href"); } });
defineProperty(VLOC, "ancestorOrigins", { enumerable: true, get: function () { return W.location.ancestorOrigins; } });
VLOC.assign = function assign(u) { vNavigate(u, false, "assign"); };
VLOC.replace = function replace(u) { vNavigate(u, true, "replace"); };
VLOC.reload = function reload() { mountPage(ENTRY, SEARCH, vHash(), true, DIR); };
VLOC.toString = function toString() { return vHref(); };
VLOC.valueOf = function valueOf() { return VLOC; };
freeze(VLOC);
// A <meta http-equiv="refresh"> naming a workspace URL (CFG.refresh, from the compiler, which
// drops the element): opened after the load event and the delay, in place of the page.
if (CFG.refresh) apply(addListener, W, ["load", function () {
  apply(setTimeoutF, W, [function () { try { vNavigate(CFG.refresh.url, true, "replace"); } catch (e) {} }, 1000 * CFG.refresh.seconds]);
}]);
// document.URL and document.documentURI read the page's virtual URL too (the frame's own is
// about:srcdoc), as document.baseURI does (10-policy.js).
try { defineProperty(D, "URL", { configurable: true, enumerable: true, get: vHref }); } catch (e) {}
try { defineProperty(D, "documentURI", { configurable: true, enumerable: true, get: vHref }); } catch (e) {}
// Assigning to it (`location = "page.html"`, `window.location = …`) navigates, as the real one.
try { defineProperty(W, CFG.location, { configurable: false, enumerable: false, get: function () { return VLOC; }, set: function (v) { vNavigate(v, false, "href"); } }); } catch (e) {}
// Every other member named `location` is compiled to `<object>[CFG.location]` too (jsscan: the
// member name alone) — a library's own name for the window (`w.location` in a minified
// wrapper, `root.location` in a UMD bundle, `(function (window) {…})(window)`), `this.location`,
// any `obj.location` — so every object answers that name, for reading and for assigning:
//   - the page's window (its own property above) and its document: the virtual Location;
//   - an element (a bare `location` in an event-handler attribute meets the element first on
//     the handler's scope chain, then its form, then the document): the element's or its
//     form's own `location` if it has one (a form control named "location"), else the virtual
//     Location;
//   - any other object (a record, a view model, another frame's window): its own `location`,
//     as written (`self.location = "Paris"` in a constructor sets a property, nothing more).
var NodeC = W.Node;
function locationHolder(o) {
  if (o === D) return null;
  if (NodeC && o instanceof NodeC) {
    if (o.location !== undefined) return o;
    var f = o.form;
    return f && f.location !== undefined ? f : null;
  }
  return o;
}
try { defineProperty(Object.prototype, CFG.location, { configurable: false, enumerable: false,
  get: function () { var h = locationHolder(this); return h === null ? VLOC : h.location; },
  set: function (v) { var h = locationHolder(this); if (h === null) vNavigate(v, false, "href"); else h.location = v; } }); } catch (e) {}
// The page's top-level window (docs/design.md §5.47): a page served on its own is its own top
// and parent, and React's dev build, frame-busting scripts (`if (top != self) …`) and
// embed checks ask. The compiler names window[CFG.top] in place of `top`, `window.top`,
// `self.top` and `globalThis.top`; it is the preview document's window (for a workspace page
// in a frame, the preview document's, the page's own top), never the studio. `parent` is a
// replaceable attribute, so the preview document's own parent is this window; the bridge took
// the real one before any page script ran (00-core.js).
var TOPW = W;
if (NESTED) {
  try { var up = W; while (up.parent !== up && up.parent !== W.top) up = up.parent; TOPW = up; } catch (e) { TOPW = W.top; }
}
try { defineProperty(W, CFG.top, { configurable: false, enumerable: false, get: function () { return TOPW; } }); } catch (e) {}
// Where a script may declare its own `window`, `self` or `globalThis` (a wrapper's parameter,
// `var self = this`), the compiler rewrites only the member name: `self.top` → `self[CFG.top]`.
// The page's window answers with its own property above; any other object with its own `top`,
// for reading and for assigning.
try { defineProperty(Object.prototype, CFG.top, { configurable: false, enumerable: false,
  get: function () { return this.top; }, set: function (v) { this.top = v; } }); } catch (e) {}
if (BRIDGE) {
  try { defineProperty(W, "parent", { configurable: true, enumerable: true, get: function () { return W; },
    set: function (v) { defineProperty(W, "parent", { configurable: true, enumerable: true, writable: true, value: v }); } }); } catch (e) {}
}
// Any other unload of this document (a real reload, script built at run time) is detected by
// the parent, which counts the frame's load events; no pagehide listener here (see
// 40-storage.js).
