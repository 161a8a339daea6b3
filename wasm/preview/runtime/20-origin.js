// 20-origin.js — the virtual origin: run-time URLs under CFG.origin are served from the
// in-frame file table (CFG.files: path → {type, text} or {type, b64}).
var FILES = CFG.files || {}, NOT_IMPORTED = CFG.notImported || {};
function fileAt(p) { return apply(hasOwn, FILES, [p]) ? FILES[p] : null; }
// Why a folder file the import left out is not served (too large, not text), else "". The key
// "" holds why the import could not name every folder file (a folder larger than it examines):
// then any path without a file may be in the folder, and says so.
function namedNotImported(p) { return apply(hasOwn, NOT_IMPORTED, [p]); }
// A path the workspace can never hold: a segment starting with "." or named node_modules
// (preview.ExcludedPath, docs/design.md §5.51); a request for one is a "limit" report, not
// "missing" (the user could not have added the file).
var EXCLUDED_RE = /(^|\/)(\.|node_modules(\/|$))/;
var EXCLUDED = "the workspace never holds hidden files or folders (names starting with a dot) or node_modules, and an import leaves them out";
function excludedPath(p) { return apply(reExec, EXCLUDED_RE, [S(p)]) !== null; }
function notImported(p) {
  if (namedNotImported(p)) return S(NOT_IMPORTED[p]);
  if (excludedPath(p)) return EXCLUDED;
  return apply(hasOwn, NOT_IMPORTED, [""]) ? S(NOT_IMPORTED[""]) : "";
}
function notImportedText(p) {
  if (namedNotImported(p)) return p + " is in the folder but was not imported: " + notImported(p);
  if (excludedPath(p)) return p + " is not in the workspace: " + EXCLUDED;
  return p + " is not among the imported files; it may be in the folder: " + notImported(p);
}
function isLoopback(host) {
  host = apply(toLower, S(host), []);
  if (host === "localhost" || host === "[::1]" || host === "[::]" || host === "0.0.0.0") return true;
  if (host.length > 10 && apply(slice, host, [-10]) === ".localhost") return true;
  var m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (!m) return /^\[(fc|fd|fe8|fe9|fea|feb|::ffff:)/.test(host);
  var a = +m[1], b = +m[2];
  return a === 127 || a === 10 || a === 0 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || (a === 169 && b === 254);
}
// classify(url[, base]) → {file: path} | {missing: path} | {refused: true} | {pass: true} | null
// (not a URL). pass: blob:/data:/about:, and https: non-local URLs when internet is allowed.
function classify(u, base) {
  var x;
  try { x = new URLC(S(u), base || BASE); } catch (e) { return null; }
  // An absolute URL under the studio page's directory (markup the parser resolved against the
  // inherited base, or a URL the page built from it) means the workspace file.
  if (FALLBACK && x.origin !== ORIGIN && apply(indexOf, x.href, [FALLBACK]) === 0) {
    try { x = new URLC(apply(slice, x.href, [FALLBACK.length]), ORIGIN + "/"); } catch (e) {}
  }
  if (x.origin === ORIGIN) {
    var p = x.pathname;
    try { p = decodeURIComponent(p); } catch (e) {}
    p = apply(slice, p, [1]);
    if (p === "" || p[p.length - 1] === "/") p += "index.html";
    return fileAt(p) ? { file: p, url: x } : { missing: p, url: x };
  }
  var proto = x.protocol;
  if (proto === "blob:" || proto === "data:" || proto === "about:" || proto === "javascript:") return { pass: true, url: x };
  if (proto === "https:" && CFG.allowInternet && !isLoopback(x.hostname)) return { pass: true, url: x };
  return { refused: true, url: x };
}
// reportMissing reports a reference to a workspace file that does not exist ("missing"); the
// policy's violation for the same request (10-policy.js) then stays silent, so one missing file
// is never also reported as "blocked".
var missingPaths = new SetC();
// A folder file the import left out (CFG.notImported) is a "limit" report naming why.
function reportMissing(c, url, what) {
  apply(setAdd, missingPaths, [c.missing]);
  // A virtual URL the compiler wrote for a static reference names its path, as the page wrote it.
  if (apply(indexOf, S(url), [ORIGIN + "/"]) === 0) url = c.missing;
  if (notImported(c.missing)) report("limit", url, what + ": " + notImportedText(c.missing));
  else report("missing", url, what);
}
function virtualURL(p) { return ORIGIN + "/" + apply(replaceStr, encodeURI(p), [/[?#]/g, encodeURIComponent]); }

// File bodies and blob: URLs made in the frame (cached per path).
var blobs = new MapC(), reverse = new MapC();
function bytesOf(f) {
  var bin = apply(atobF, W, [f.b64]), out = new Uint8C(bin.length);
  for (var i = 0; i < bin.length; i++) out[i] = apply(charCodeAt, bin, [i]);
  return out;
}
function bodyOf(p) {
  var f = fileAt(p);
  if (f.b64 !== undefined) return bytesOf(f);
  if (f.text === undefined) return "";
  if (/^text\/css\b/.test(f.type)) return cssText(f.text, virtualURL(p));
  return f.text;
}
// An @import cycle keeps its inner reference (the browser skips it, as over HTTP).
var building = new SetC();
function blobFor(p) {
  if (apply(mapHas, blobs, [p])) return apply(mapGet, blobs, [p]);
  if (apply(setHas, building, [p])) return virtualURL(p);
  apply(setAdd, building, [p]);
  var body;
  try { body = bodyOf(p); } finally { apply(setDelete, building, [p]); }
  var u = apply(createObjectURL, URLC, [new BlobC([body], { type: fileAt(p).type })]);
  apply(mapSet, blobs, [p, u]);
  apply(mapSet, reverse, [u, virtualURL(p)]);
  return u;
}
// scriptBlobFor(p): the blob: URL of a script file as a page script runs it — its text with
// the references to the page's Location rewritten (f.run, set by the compiler; design.md
// §5.34), else blobFor(p).
var runBlobs = new MapC();
function scriptBlobFor(p) {
  var f = fileAt(p);
  if (typeof f.run !== "string") return blobFor(p);
  if (apply(mapHas, runBlobs, [p])) return apply(mapGet, runBlobs, [p]);
  var u = apply(createObjectURL, URLC, [new BlobC([f.run], { type: f.type })]);
  apply(mapSet, runBlobs, [p, u]);
  apply(mapSet, reverse, [u, virtualURL(p)]);
  return u;
}
// cssText rewrites url(…) and @import "…" of CSS text to blob: URLs of workspace files,
// resolved against base (the stylesheet's or the document's URL).
// url(#id) is left alone; a file URL keeps its fragment. Comments are matched first and kept
// as they are: a url() or @import inside /* … */ is no reference (over HTTP nothing is
// requested; e2e/realsites found webslides' commented example reported as missing).
function cssText(css, base) {
  css = apply(replaceStr, S(css), [/\/\*[\s\S]*?(?:\*\/|$)|url\(\s*(["']?)([^"')]*)\1\s*\)/g, function (all, q, u) {
    if (all[0] === "/") return all;
    if (isFragment(u)) return all;
    var c = classify(u, base);
    if (c && c.file) return "url(" + q + blobFor(c.file) + c.url.hash + q + ")";
    // A url() naming no workspace file is left as written and not reported here: over HTTP it
    // is requested only when used (a matching rule's image, the one font source chosen), and
    // then the policy's violation listener reports it as missing. Reported here, every unused
    // rule of a theme's stylesheet was a failed request (e2e/realsites: Bootstrap 2/3 icon
    // sprites and fonts, a carousel's cursors; TestUnusedCSSURLsNotReported).
    return all;
  }]);
  return apply(replaceStr, css, [/\/\*[\s\S]*?(?:\*\/|$)|@import\s+(["'])([^"']*)\1/g, function (all, q, u) {
    if (all[0] === "/") return all;
    var c = classify(u, base);
    return c && c.file ? "@import " + q + blobFor(c.file) + q : all;
  }]);
}
function isFragment(u) { return /^\s*#/.test(S(u)); }
// mapURL(v, what[, script]) → a workspace file's blob: URL (+ #fragment; script: as a page script runs
// it, scriptBlobFor), or v (missing/refused reported).
function mapURL(v, what, script) {
  if (isFragment(v)) return v;
  var c = classify(v);
  if (!c) return v;
  if (c.file) return (script ? scriptBlobFor(c.file) : blobFor(c.file)) + c.url.hash;
  if (c.missing) reportMissing(c, S(v), what);
  else if (c.refused) report("blocked", c.url.href, what + (CFG.allowInternet ? " (only https: outside loopback is allowed)" : "; the preview has no network (Allow internet in preview is off)"));
  return v;
}
// srcset candidates as HTML splits them (a data: URL's comma stays inside).
var SRCSET_RE = /(^|,)(\s*)([^\s,][^\s]*?)(,*)(?=\s|$)([^,(]*(?:\([^)]*\)[^,(]*)*)/g;
function mapSrcset(v) {
  return apply(replaceStr, S(v), [SRCSET_RE, function (all, sep, ws, url, commas, desc) {
    return sep + ws + mapURL(url, "srcset") + commas + desc;
  }]);
}

// fetch and Request.
var origFetch = W.fetch;
function notFound() { return new ResponseC("Not Found", { status: 404, statusText: "Not Found", headers: { "content-type": "text/plain" } }); }
if (origFetch) {
  W.fetch = function fetch(input, init) {
    var url;
    try { url = input instanceof RequestC ? input.url : S(input); } catch (e) { url = ""; }
    var c = classify(url);
    if (c && c.file) {
      var r = new ResponseC(new BlobC([bodyOf(c.file)], { type: fileAt(c.file).type }), { status: 200, statusText: "OK", headers: { "content-type": fileAt(c.file).type } });
      try { defineProperty(r, "url", { value: c.url.href }); } catch (e) {}
      return apply(PromiseResolve, PromiseC, [r]);
    }
    if (c && c.missing) {
      reportMissing(c, url, "fetch");
      // Not a 404: the file exists in the folder; the request fails and says why.
      if (namedNotImported(c.missing)) return apply(PromiseReject, PromiseC, [new TypeErrorC("Failed to fetch " + c.missing + ": " + notImportedText(c.missing))]);
      return apply(PromiseResolve, PromiseC, [notFound()]);
    }
    if (c && c.refused) {
      report("blocked", c.url.href, "fetch" + (CFG.allowInternet ? " (only https: outside loopback is allowed)" : "; the preview has no network (Allow internet in preview is off)"));
      return apply(PromiseReject, PromiseC, [new TypeErrorC("Failed to fetch")]);
    }
    return apply(origFetch, W, arguments);
  };
}

// new Request(url): a relative URL resolves against the page's virtual URL, as a served page's
// does against its own — not against the document's base, which is the studio's address in a
// srcdoc document (request.url read it) and, in a blob: document (BLOBDOC), resolves no relative
// URL at all ("Failed to parse URL"). The prototype's constructor is the replacement, so
// r.constructor === Request holds (String(Request) reads "function () { [native code] }").
if (RequestC && W.Proxy) {
  W.Request = new W.Proxy(RequestC, { construct: function (target, args, newTarget) {
    if (args.length > 0 && !(args[0] instanceof RequestC)) {
      try { args[0] = new URLC(S(args[0]), BASE).href; } catch (e) {}
    }
    return construct(target, args, newTarget);
  } });
  try { defineProperty(RequestC.prototype, "constructor", { configurable: true, enumerable: false, writable: true, value: W.Request }); } catch (e) {}
}

// XMLHttpRequest: open() of a workspace URL loads its blob: URL.
var xhrOpen = W.XMLHttpRequest && XMLHttpRequest.prototype.open;
if (xhrOpen) {
  XMLHttpRequest.prototype.open = function open(method, url) {
    var args = apply(arraySlice, arguments, []);
    if (args.length > 1) args[1] = mapURL(url, "XMLHttpRequest");
    return apply(xhrOpen, this, args);
  };
}

// Property setters and setAttribute of URL attributes (src, srcset, poster, link href, style).
var origAttr = new WeakMapC(); // element → {attr: the value the page set}
function remember(el, name, value) {
  var m = apply(wmGet, origAttr, [el]);
  if (!m) { m = create(null); apply(wmSet, origAttr, [el, m]); }
  m[name] = value;
}
function mapAttr(el, name, value) {
  if (value === null || value === undefined) return value;
  var v = S(value), out = v;
  if (name === "style") out = apply(indexOf, v, ["url("]) >= 0 ? cssText(v, BASE) : v;
  else if (name === "srcset" || name === "imagesrcset") out = mapSrcset(v);
  else if (!urlAttr(el, name)) return value;
  else if (name === "href" && hintOnly(el)) return value;
  else if (name === "src" && el.localName === "iframe") {
    // A workspace page in a frame gets a srcdoc of its compiled page (55-frames.js); the src
    // attribute keeps what the page set (srcdoc wins, so it is not requested). A page laid out
    // in quirks mode is loaded from a blob: URL instead, as a <frame>'s page is.
    if ((out = frameSrc(el, v))) { remember(el, name, v); return out; }
    // The attribute holds what the page set again: a src remembered for an earlier blob: URL
    // no longer stands for it.
    var m = apply(wmGet, origAttr, [el]);
    if (m && apply(hasOwn, m, ["src"])) m.src = undefined;
    return value;
  }
  else if (name === "src" && el.localName === "frame" && (out = frameSrc(el, v))) {
    // A <frame> has no srcdoc: it loads the compiled page from a blob: URL (55-frames.js),
    // and getAttribute("src") reads what the page set.
    remember(el, name, v);
    return out;
  }
  else out = mapURL(v, "<" + el.localName + " " + name + ">", el.localName === "script" && name === "src");
  if (out !== v) remember(el, name, v);
  return out;
}
// hintOnly: a <link> whose rel tokens are all link types that fetch nothing (HTML "Link
// types": resource hints such as preconnect and dns-prefetch, and annotations such as
// canonical, alternate, author, license, next/prev, search, pingback): over HTTP no request
// is made, so its href is neither mapped nor reported (found by e2e/realsites: Start Bootstrap
// themes preconnect to fonts.gstatic.com, spectre's docs name a canonical https: URL, both
// listed as blocked requests; Chromium requests no apple-touch-icon or mask-icon either — owl's
// docs link a missing one, reported only by the preview). A rel with stylesheet, icon, preload, modulepreload, prefetch,
// manifest or any unknown token is mapped as before.
var HINT_RE = /^(?:preconnect|dns-prefetch|canonical|alternate|author|license|next|prev|previous|search|pingback|help|bookmark|external|nofollow|noopener|noreferrer|opener|me|tag|shortlink|home|index|up|first|last|start|contents|chapter|section|subsection|appendix|glossary|copyright|edituri|wlwmanifest|webmention|amphtml|privacy-policy|terms-of-service|sitemap|archives|hub|self|apple-touch-icon|apple-touch-icon-precomposed|apple-touch-startup-image|mask-icon)$/;
function hintOnly(el) {
  if (el.localName !== "link") return false;
  var rel = apply(getAttr, el, ["rel"]), toks = rel ? apply(splitStr, apply(trim, apply(toLower, S(rel), []), []), [/\s+/]) : [];
  if (!toks.length || toks[0] === "") return false;
  for (var i = 0; i < toks.length; i++) if (apply(reExec, HINT_RE, [toks[i]]) === null) return false;
  return true;
}
var URL_ATTRS = { src: 1, srcset: 1, poster: 1, href: 1, style: 1, imagesrcset: 1, data: 1, "xlink:href": 1, background: 1 };
var LEGACY_BG = { body: 1, table: 1, td: 1, th: 1, tr: 1 };
function urlAttr(el, n) {
  var t = el.localName;
  return n === "href" || n === "xlink:href" ? t === "link" || isSvgRef(el) : n === "data" ? t === "object" : n !== "background" || LEGACY_BG[t] === 1;
}
// SVG elements whose href names a file (an external <use> sprite too).
var SVG_NS = "http://www.w3.org/2000/svg";
function isSvgRef(el) { var n = el.localName; return el.namespaceURI === SVG_NS && (n === "use" || n === "image" || n === "feImage"); }
function hookProp(ctor, prop, attr) {
  var proto = ctor && ctor.prototype, d = proto && getOwnDesc(proto, prop);
  if (!d || !(d.set || !attr)) return;
  defineProperty(proto, prop, { configurable: true, enumerable: d.enumerable,
    get: function () {
      var v = apply(d.get, this, []);
      if (typeof v !== "string") return v;
      var h = apply(indexOf, v, ["#"]), k = h >= 0 ? apply(slice, v, [0, h]) : v;
      return apply(mapHas, reverse, [k]) ? apply(mapGet, reverse, [k]) + (h >= 0 ? apply(slice, v, [h]) : "") : v;
    },
    set: attr ? function (v) { apply(d.set, this, [mapAttr(this, attr, v)]); } : undefined });
}
hookProp(W.HTMLImageElement, "src", "src"); hookProp(W.HTMLImageElement, "srcset", "srcset");
hookProp(W.HTMLSourceElement, "src", "src"); hookProp(W.HTMLSourceElement, "srcset", "srcset");
hookProp(W.HTMLMediaElement, "src", "src"); hookProp(W.HTMLVideoElement, "poster", "poster");
hookProp(W.HTMLScriptElement, "src", "src"); hookProp(W.HTMLLinkElement, "href", "href");
hookProp(W.HTMLTrackElement, "src", "src"); hookProp(W.HTMLInputElement, "src", "src");
hookProp(W.HTMLObjectElement, "data", "data"); hookProp(W.HTMLEmbedElement, "src", "src");
hookProp(W.HTMLImageElement, "currentSrc"); hookProp(W.HTMLMediaElement, "currentSrc");
// iframe.src: the virtual URL of a workspace page (the parser resolved it against the studio's
// address); setting it shows the page (mapAttr, 55-frames.js).
(function () {
  var d = W.HTMLIFrameElement && getOwnDesc(HTMLIFrameElement.prototype, "src");
  if (!d || !d.set) return;
  defineProperty(HTMLIFrameElement.prototype, "src", { configurable: true, enumerable: d.enumerable,
    get: function () {
      // A quirks-mode page's frame: the attribute holds the blob: URL (55-frames.js); .src
      // reads what the page set, resolved against its virtual URL.
      var m = apply(wmGet, origAttr, [this]), raw = m && apply(hasOwn, m, ["src"]) ? m.src : null, a = apply(getAttrOrig, this, ["src"]);
      if (typeof raw === "string" && a !== null && apply(indexOf, a, ["blob:"]) === 0) { try { return new URLC(raw, BASE).href; } catch (e) {} }
      var v = apply(d.get, this, []), c = typeof v === "string" && v ? classify(v) : null; return c && (c.file || c.missing) ? c.url.href : v;
    },
    set: function (v) { apply(d.set, this, [mapAttr(this, "src", v)]); } });
})();
// frame.src: the page's src resolved against its virtual URL (the attribute holds the blob:
// URL the runtime loads the page from); setting it shows the page (mapAttr, 55-frames.js).
(function () {
  var d = W.HTMLFrameElement && getOwnDesc(HTMLFrameElement.prototype, "src");
  if (!d || !d.set) return;
  defineProperty(HTMLFrameElement.prototype, "src", { configurable: true, enumerable: d.enumerable,
    get: function () {
      var m = apply(wmGet, origAttr, [this]), raw = m && apply(hasOwn, m, ["src"]) ? m.src : null;
      if (typeof raw === "string" && apply(getAttrOrig, this, ["src"]) !== null) { try { return new URLC(raw, BASE).href; } catch (e) {} }
      return apply(d.get, this, []);
    },
    set: function (v) { apply(d.set, this, [mapAttr(this, "src", v)]); } });
})();
// <a>/<area> URL parts (HTML "HTMLHyperlinkElementUtils": href, origin, protocol, host, …, and
// the stringifier) read the href attribute resolved against the page's virtual URL, as
// location does, instead of the studio's address the parser resolved it against (10-policy.js:
// no <base> is inserted). AngularJS and jQuery compare an anchor's protocol and host with
// location's to tell same-origin URLs; with the studio's address AngularJS 1.3 refused the
// page's own templates ($sce:insecurl, found by e2e/realsites on TodoMVC). The href setter is
// the browser's (it sets the attribute as given); the parts' setters resolve the same way.
(function () {
  var parts = ["href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"];
  function virtualParts(ctor) {
    var proto = ctor && ctor.prototype;
    if (!proto) return;
    for (var i = 0; i < parts.length; i++) (function (part) {
      var d = getOwnDesc(proto, part);
      if (!d || !d.get) return;
      defineProperty(proto, part, { configurable: true, enumerable: d.enumerable,
        get: function () {
          var raw = apply(getAttr, this, ["href"]), u;
          if (raw === null) return apply(d.get, this, []);
          try { u = new URLC(raw, BASE); } catch (e) { return apply(d.get, this, []); }
          return u[part];
        },
        // A part's setter changes the URL as resolved against the page's URL and writes it
        // back whole, as the browser does with its own resolution (so `a.search = "?s=2"` on
        // href "p.html" gives the virtual "…/p.html?s=2", not the studio's address).
        set: part === "href" || !d.set ? d.set : function (v) {
          var raw = apply(getAttr, this, ["href"]), u;
          if (raw === null) { apply(d.set, this, [v]); return; }
          try { u = new URLC(raw, BASE); } catch (e) { apply(d.set, this, [v]); return; }
          u[part] = v;
          apply(setAttr, this, ["href", u.href]);
        } });
    })(parts[i]);
    var str = getOwnDesc(proto, "toString");
    if (str && typeof str.value === "function") {
      var href = getOwnDesc(proto, "href").get;
      defineProperty(proto, "toString", { configurable: true, enumerable: str.enumerable, writable: true,
        value: function toString() { return apply(href, this, []); } });
    }
  }
  virtualParts(W.HTMLAnchorElement); virtualParts(W.HTMLAreaElement);
})();
Element.prototype.setAttribute = function setAttribute(name, value) {
  var n = apply(toLower, S(name), []);
  if (apply(hasOwn, URL_ATTRS, [n])) value = mapAttr(this, n, value);
  return apply(setAttr, this, [name, value]);
};
// A linked stylesheet the compiler turned into <style data-workspace-source="path"> keeps the
// link's href: reading it gives the sheet's URL; setting it (property or setAttribute) to
// another workspace CSS file swaps the style's text — the theme switcher's idiom — and fires
// the element's load event as a link would (one microtask later, before the window's load);
// a missing or refused sheet empties it and fires error. Plain <style> elements are untouched.
var SOURCE_ATTR = "data-workspace-source";
function isSheet(el) { return el && el.localName === "style" && apply(getAttrOrig, el, [SOURCE_ATTR]) !== null; }
function fireSoon(el, type) { apply(promiseThen, apply(PromiseResolve, PromiseC, []), [function () { apply(dispatchEvent, el, [new EventC(type)]); }]); }
// A swapped <style> fires one load, like a link (its native ones, per rebuild and @import, stop).
var swappedSheets = new W.WeakSet(), wsHas = WeakSet.prototype.has, wsAdd = WeakSet.prototype.add;
var stopImmediate = Event.prototype.stopImmediatePropagation;
apply(addListener, D, ["load", function (e) {
  if (e.isTrusted && apply(wsHas, swappedSheets, [e.target])) apply(stopImmediate, e, []);
}, true]);
var sheetSwapped = false; // a theme swap happened: in-place patches refuse (60-patch.js)
function swapSheet(el, v) {
  sheetSwapped = true;
  apply(wsAdd, swappedSheets, [el]);
  apply(setAttr, el, ["href", S(v)]);
  var c = classify(v), css = c && c.file ? fileAt(c.file) : null;
  if (css && css.text !== undefined && /^text\/css\b/.test(css.type)) {
    apply(setAttr, el, [SOURCE_ATTR, c.file]);
    // Without a leading BOM, as the browser decodes a CSS file (the compiler's cssFileText).
    el.textContent = cssText(apply(replaceStr, S(css.text), [/^\uFEFF/, ""]), virtualURL(c.file));
    fireSoon(el, "load");
    return;
  }
  if (c && c.missing) reportMissing(c, S(v), "<link href>");
  else if (c && c.refused) report("blocked", c.url.href, "<link href>" + (CFG.allowInternet ? " (only https: outside loopback is allowed)" : "; the preview has no network (Allow internet in preview is off)"));
  else if (c && c.file) report("limit", S(v), "<link href> to a workspace file that is not CSS");
  el.textContent = "";
  fireSoon(el, "error");
}
if (W.HTMLStyleElement && !("href" in HTMLStyleElement.prototype)) {
  defineProperty(HTMLStyleElement.prototype, "href", { configurable: true, enumerable: false,
    get: function () {
      if (!isSheet(this)) return undefined;
      var h = apply(getAttrOrig, this, ["href"]);
      try { return new URLC(h !== null ? h : "/" + apply(getAttrOrig, this, [SOURCE_ATTR]), BASE).href; } catch (e) { return S(h); }
    },
    set: function (v) {
      if (isSheet(this)) { swapSheet(this, v); return; }
      defineProperty(this, "href", { value: v, writable: true, configurable: true, enumerable: true });
    } });
}
var setAttrHooked = Element.prototype.setAttribute;
Element.prototype.setAttribute = function setAttribute(name, value) {
  if (isSheet(this) && apply(toLower, S(name), []) === "href") { swapSheet(this, value); return; }
  return apply(setAttrHooked, this, [name, value]);
};

var getAttrOrig = getAttr;
// styleSheets[i].href: the virtual URL of a compiled or blob: sheet.
var sheetHref = W.StyleSheet && getOwnDesc(StyleSheet.prototype, "href");
if (sheetHref && sheetHref.get) {
  defineProperty(StyleSheet.prototype, "href", { configurable: true, enumerable: sheetHref.enumerable, get: function () {
    var v = apply(sheetHref.get, this, []);
    if (typeof v === "string") return apply(mapHas, reverse, [v]) ? apply(mapGet, reverse, [v]) : v;
    var n = this.ownerNode;
    return n && isSheet(n) ? n.href : v;
  } });
}
Element.prototype.getAttribute = function getAttribute(name) {
  var v = apply(getAttrOrig, this, [name]), m = apply(wmGet, origAttr, [this]);
  if (m && v !== null) { var n = apply(toLower, S(name), []); if (m[n] !== undefined && apply(hasOwn, m, [n])) { var back = m[n]; if (back !== v) return back; } }
  return v;
};

// Static <frame>s whose src waits for the end of parsing (fixElement): set as the document
// becomes "interactive", by listeners this script adds before any page script can add its
// own, so a page's readystatechange and DOMContentLoaded listeners and its defer scripts read
// the src as written and a src they set stays (before, the listener was added as the parser
// inserted the frames, after the page's: it read null and its frame.src was overwritten).
var framesAfterParse = [];
function setParsedFrames() {
  if (D.readyState === "loading") return;
  var todo = framesAfterParse;
  framesAfterParse = [];
  for (var i = 0; i < todo.length; i++) todo[i]();
}
apply(addListener, D, ["readystatechange", setParsedFrames]);
apply(addListener, D, ["DOMContentLoaded", setParsedFrames]);
// Markup inserted at run time (innerHTML, insertAdjacentHTML, …): fix its URL attributes and
// <style> text once inserted (its first request may fail; that one is not reported).
function fixElement(el) {
  // A static <frame> showing a workspace page: the compiler kept its src in FRAME_ATTR. The
  // src is set once the document is parsed: set while the parser inserts the frameset, the
  // frame stays on its initial about:blank (measured, Chromium 2026-12-07). The parser
  // inserts <frame>s only in a <frameset>, after which no page script runs until the
  // document is "interactive" (setParsedFrames).
  if (el.localName === "frame" && FRAME_ATTR) {
    var fw = apply(getAttrOrig, el, [FRAME_ATTR]);
    if (fw !== null) {
      apply(removeAttr, el, [FRAME_ATTR]);
      var fu = frameSrc(el, fw), set = function () { apply(setAttr, el, ["src", fu || mapURL(fw, "<frame src>", false)]); if (fu) remember(el, "src", fw); };
      if (D.readyState === "loading") apply(push, framesAfterParse, [set]); else set();
      return;
    }
  }
  var names = ["src", "srcset", "poster", "style", "href", "imagesrcset", "data", "xlink:href", "background"];
  for (var i = 0; i < names.length; i++) {
    var n = names[i], v = apply(getAttrOrig, el, [n]);
    if (v === null || !urlAttr(el, n)) continue;
    if (apply(indexOf, v, ["blob:"]) === 0 || apply(indexOf, v, ["data:"]) === 0) continue;
    var out = mapAttr(el, n, v);
    if (out !== v) {
      apply(setAttr, el, [n, out]);
      if (n !== "style" && n !== "srcset" && n !== "imagesrcset") remember(el, n, authored(v));
    }
  }
  if (el.localName === "style") {
    if (SHEET_ATTR) takeSheet(el);
    var t = el.textContent;
    if (apply(indexOf, t, ["url("]) >= 0 || apply(indexOf, t, ["@import"]) >= 0) { var nt = cssText(t, BASE); if (nt !== t) el.textContent = nt; }
  }
}
// The stylesheet <style> elements the compiler marked with CFG.sheetAttr = index (design.md
// §5.33): each is taken here as the parser inserts it — this observer's callback runs before
// any later page script — unmarked, and kept in this closure by index for 60-patch.js. A second
// element with an index already taken, or an index out of range (page code that inserted a
// marked <style> first), makes every later in-place patch refuse (the parent mounts in full).
var SHEET_ATTR = CFG.sheetAttr, sheetEls = new MapC(), sheetsForged = false, removeAttr = Element.prototype.removeAttribute;
var HTML_NS = "http://www.w3.org/1999/xhtml", SHEET_INDEX_RE = /^(0|[1-9][0-9]{0,6})$/;
function takeSheet(el) {
  var v = apply(getAttrOrig, el, [SHEET_ATTR]);
  if (v === null || el.namespaceURI !== HTML_NS) return;
  apply(removeAttr, el, [SHEET_ATTR]);
  var k = apply(reExec, SHEET_INDEX_RE, [v]) ? +v : -1;
  if (k < 0 || k >= (CFG.sheets || 0) || apply(mapHas, sheetEls, [k])) { sheetsForged = true; return; }
  apply(mapSet, sheetEls, [k, el]);
}
// authored(v): a compiled virtual URL as the page most often wrote it, relative ("img/a.png").
function authored(v) {
  var dir = apply(slice, BASE, [0, apply(lastIndexOf, BASE, ["/"]) + 1]);
  if (apply(indexOf, v, [dir]) !== 0 || v.length === dir.length) return v;
  return apply(replaceStr, apply(slice, v, [dir.length]), [/(?:%[89a-f][0-9a-f])+/gi, function (m) { try { return decodeURIF(m); } catch (e) { return m; } }]);
}
function fixTree(node) {
  if (node.nodeType !== 1) return;
  fixElement(node);
  var all = apply(querySelectorAll, node, ["[src],[srcset],[poster],[style],link[href],style,[imagesrcset],object[data],use,image,feImage,[background],frame"]);
  for (var i = 0; i < all.length; i++) fixElement(all[i]);
}
if (W.MutationObserver) {
  var observer = new W.MutationObserver(function (records) {
    for (var i = 0; i < records.length; i++) {
      var r = records[i];
      if (r.type === "attributes") fixElement(r.target);
      else for (var j = 0; j < r.addedNodes.length; j++) fixTree(r.addedNodes[j]);
    }
  });
  observer.observe(D, { childList: true, subtree: true, attributes: true, attributeFilter: ["src", "srcset", "poster", "style", "href", "imagesrcset", "data", "background"] });
}

// Constructors and CSSOM calls that take run-time URLs: new Audio(src) as the src setter;
// a FontFace's string source, insertRule/addRule, replace/replaceSync and setProperty as CSS
// text (relative to the sheet's virtual URL, else the page's, as over HTTP).
function wrapCtor(name, len, args) {
  var Orig = W[name];
  if (!Orig) return;
  var F = function () {
    if (!new.target) throw new TypeErrorC("Failed to construct '" + name + "': Please use the 'new' operator");
    return args(Orig, apply(arraySlice, arguments, []), new.target === F ? Orig : new.target);
  };
  defineProperty(F, "name", { value: name }); defineProperty(F, "length", { value: len });
  defineProperty(F, "prototype", { value: Orig.prototype, writable: false });
  if (Orig.prototype.constructor === Orig) defineProperty(Orig.prototype, "constructor", { value: F, writable: true, configurable: true });
  W[name] = F;
}
wrapCtor("Audio", 0, function (Orig, a, nt) {
  var el = construct(Orig, [], nt);
  if (a.length && a[0] !== undefined) apply(setAttr, el, ["src", mapAttr(el, "src", a[0])]);
  return el;
});
wrapCtor("FontFace", 2, function (Orig, a, nt) {
  if (typeof a[1] === "string") a[1] = cssText(a[1], BASE);
  return construct(Orig, a, nt);
});
function sheetBase(sh) {
  var h; try { h = sh && sh.href; } catch (e) {}
  return typeof h === "string" && apply(indexOf, h, [ORIGIN + "/"]) === 0 ? h : BASE;
}
function hookCSS(ctor, name, at, sheetOf) {
  var proto = ctor && ctor.prototype, f = proto && proto[name];
  if (typeof f !== "function") return;
  proto[name] = function () {
    var a = apply(arraySlice, arguments, []);
    if (typeof a[at] === "string" && apply(indexOf, a[at], ["url("]) >= 0) a[at] = cssText(a[at], sheetBase(sheetOf(this)));
    return apply(f, this, a);
  };
  defineProperty(proto[name], "name", { value: name });
}
function ownSheet(x) { return x; }
function ruleSheet(d) { var r = d.parentRule; return r && r.parentStyleSheet; }
hookCSS(W.CSSStyleSheet, "insertRule", 0, ownSheet); hookCSS(W.CSSStyleSheet, "addRule", 1, ownSheet);
hookCSS(W.CSSStyleSheet, "replace", 0, ownSheet); hookCSS(W.CSSStyleSheet, "replaceSync", 0, ownSheet);
hookCSS(W.CSSStyleDeclaration, "setProperty", 1, ruleSheet);

// document.write/writeln: a workspace <script src> in the written markup carries the file's
// blob: URL before the parser sees it (HTML5 Boilerplate's `window.jQuery ||
// document.write('<script src="js/vendor/jquery.js"><\/script>')`). Such a script is
// parser-inserted: over HTTP it blocks the parser and runs before the next parser script; its
// first request is made as it is inserted, so the observer's later fix would come too late.
// Only <script> start tags in markup are rewritten: a script's own text (up to its </script),
// the text of textarea/title/style/xmp/iframe/noembed/noframes/noscript, comments and
// attribute values are kept as written — GWT writes an inline script whose code writes
// `<script src=\"a.js\">`, and rewriting that text broke its string literal.
var WRITE_SRC_RE = /(<script\b[^>]*?\ssrc\s*=\s*)("[^"]*"|'[^']*'|[^\s"'=<>`\\]+)/gi, TAG_NAME_RE = /^<([A-Za-z][^\s\/>]*)/;
var RAW_TEXT = { script: 1, textarea: 1, title: 1, style: 1, xmp: 1, iframe: 1, noembed: 1, noframes: 1, noscript: 1 };
function writtenSrc(all, pre, val) {
  var q = val[0] === '"' || val[0] === "'" ? val[0] : "", c = classify(q ? apply(slice, val, [1, -1]) : val);
  return c && c.file ? pre + q + scriptBlobFor(c.file) + c.url.hash + q : all;
}
// tagEnd(s, k): the index of the ">" ending the start tag at k (quoted values skipped), or -1.
function tagEnd(s, k) {
  for (var i = k + 1, q = ""; i < s.length; i++) {
    var ch = s[i];
    if (q) { if (ch === q) q = ""; }
    else if (ch === '"' || ch === "'") q = ch;
    else if (ch === ">") return i;
  }
  return -1;
}
function writtenScripts(s) {
  var low = apply(toLower, s, []), out = "", pos = 0;
  for (;;) {
    var k = apply(indexOf, s, ["<", pos]);
    if (k < 0) break;
    if (s[k + 1] === "!" && s[k + 2] === "-" && s[k + 3] === "-") { // a comment
      var ce = apply(indexOf, s, ["-->", k + 4]);
      if (ce < 0) break;
      out += apply(slice, s, [pos, ce + 3]);
      pos = ce + 3;
      continue;
    }
    var m = apply(reExec, TAG_NAME_RE, [apply(slice, s, [k, k + 64])]), end = m ? tagEnd(s, k) : -1;
    if (end < 0) { if (m) break; out += apply(slice, s, [pos, k + 1]); pos = k + 1; continue; }
    var name = apply(toLower, m[1], []), tag = apply(slice, s, [k, end + 1]);
    out += apply(slice, s, [pos, k]) + (name === "script" ? apply(replaceStr, tag, [WRITE_SRC_RE, writtenSrc]) : tag);
    pos = end + 1;
    if (RAW_TEXT[name] === 1) {
      var close = apply(indexOf, low, ["</" + name, pos]);
      if (close < 0) break;
      out += apply(slice, s, [pos, close]);
      pos = close;
    }
  }
  return out + apply(slice, s, [pos]);
}
function writtenMarkup(args) {
  args = apply(arraySlice, args, []);
  for (var i = 0; i < args.length; i++) {
    if (typeof args[i] !== "string" || apply(indexOf, apply(toLower, args[i], []), ["<script"]) < 0) continue;
    args[i] = writtenScripts(args[i]);
  }
  return args;
}
var docWrite = Document.prototype.write, docWriteln = Document.prototype.writeln;
if (docWrite) Document.prototype.write = function write() { return apply(docWrite, this, writtenMarkup(arguments)); };
if (docWriteln) Document.prototype.writeln = function writeln() { return apply(docWriteln, this, writtenMarkup(arguments)); };
