// 55-frames.js — workspace pages in <iframe>s (issue 13; docs/preview.md "Workspace pages in
// frames"). A frame whose src names a workspace page the compiler compiled (CFG.pages) gets a
// srcdoc: that page with a copy of this script in front, configured for it (its path, query
// and hash, the same file table and pages, a snapshot of the storage, CFG.nested = {depth,
// chain}, no nonce). The nested document has an opaque origin of its own (measured), so it
// serves its own blob: URLs; its runtime says hello to this document (MessageFrameHello with a
// port), never to the studio, and this document relays its console lines, errors and reports
// within this document's own bounds, shares storage changes both ways, and re-fills the frame
// when the nested page navigates to another workspace page.
var PAGES = CFG.pages || {}, DEPTH = NESTED ? +NESTED.depth || 0 : 0;
var CHAIN = NESTED && NESTED.chain ? apply(arraySlice, NESTED.chain, []) : [];
apply(push, CHAIN, [ENTRY + SEARCH]); // this document's URL without its fragment, from the top
var FRAME_ATTR = CFG.frameAttr, frameRecs = [], filled = new WeakMapC(), frameDocs = 0;
var hasAttr = Element.prototype.hasAttribute, mpPost = W.MessagePort && MessagePort.prototype.postMessage, mpStart = W.MessagePort && MessagePort.prototype.start;
var cwDesc = W.HTMLIFrameElement && getOwnDesc(HTMLIFrameElement.prototype, "contentWindow"), cwGet = cwDesc && cwDesc.get;
var fcwDesc = W.HTMLFrameElement && getOwnDesc(HTMLFrameElement.prototype, "contentWindow"), fcwGet = fcwDesc && fcwDesc.get;
// A <frame> (of a <frameset>) has no srcdoc: its nested document is loaded from a blob: URL
// made here (measured, Chromium 2026-12-07: a <frame> of the sandboxed preview document loads a
// blob: URL the document made, 8 MB too, with an opaque origin of its own; a data: URL over
// ~2 MB does not load). frameSrc and fillFrame return that URL for a <frame>.
function isFrameEl(el) { return el.localName === "frame"; }
// An <iframe> showing a page laid out in quirks mode when served (NestedPage.quirks) is loaded
// from a blob: URL as a <frame> is: a srcdoc document is never in quirks mode (HTML's parser;
// docs/design.md §5.54). Its src attribute then names the blob: URL (getAttribute and .src
// read what the page set) and the srcdoc this runtime gave it is removed, since srcdoc wins.
function byBlob(el, page) { return isFrameEl(el) || !!(page && page.quirks); }
var queueMicro = W.queueMicrotask;
// A frame's own srcdoc is the page's (over HTTP srcdoc wins over src): left alone, unless the
// compiler's marker says the empty one is ours, or it is the one this runtime gave the frame
// (rec.doc; a srcdoc the page set since is the page's).
// For a <frame>: the URL its src is to be set to by the caller (the page's blob: URL,
// "about:blank" for a page left empty), or undefined.
function frameSrc(el, v) {
  var c = classify(v), rec = apply(wmGet, filled, [el]);
  var ours = !apply(hasAttr, el, ["srcdoc"]) || apply(getAttrOrig, el, [FRAME_ATTR]) !== null || (rec && !rec.blob && apply(getAttrOrig, el, ["srcdoc"]) === rec.doc);
  if (!ours) return;
  if (c && c.file && isPage(c.file)) return fillFrame(el, c, false, true);
  if (c && c.missing) reportMissing(c, S(v), "<" + el.localName + " src>");
  if (rec) { apply(wmSet, filled, [el, null]); closeFrame(rec); if (!isFrameEl(el)) apply(removeAttr, el, ["srcdoc"]); }
}
// closeFrame ends a filling. Its blob: URL is not revoked: the frame's history may still hold
// it (Back inside the frame to that page loads it again, as over HTTP), and the browser frees it
// with this document (at most L.frames nested documents per mount).
function closeFrame(rec) {
  if (rec && rec.port) { try { rec.port.close(); } catch (e) {} rec.port = null; }
  rec.dead = true; frameSettled(rec);
}
function frameSettled(rec) { if (rec.waited) { rec.waited = false; pending--; maybeReady(); } }
function blankFrame(el, bySrc) {
  if (!isFrameEl(el)) { apply(setAttr, el, ["srcdoc", ""]); remember(el, "srcdoc", null); return; }
  if (!bySrc) apply(setAttr, el, ["src", "about:blank"]);
  return "about:blank";
}
// fillFrame shows the workspace page c.file (query and hash kept) in the frame el; force
// fills it again for the same URL (a navigation of the nested page, its reload()). bySrc: the
// caller sets a <frame>'s src to the URL returned (a src setter); otherwise this does.
function fillFrame(el, c, force, bySrc, ref) {
  var key = c.file + c.url.search, rec = apply(wmGet, filled, [el]);
  if (rec && !rec.dead && rec.href === c.url.href && !force) return rec.blob || undefined;
  if (apply(getAttrOrig, el, [FRAME_ATTR]) !== null) apply(removeAttr, el, [FRAME_ATTR]);
  var why = "";
  // As in browsers (HTML: a frame whose URL, without fragment, is that of an ancestor of the
  // document holding it is not loaded): a page may show itself in a frame once, not deeper.
  for (var i = 0; i < CHAIN.length - 1; i++) if (CHAIN[i] === key) why = "a page in a frame inside a frame of itself (" + apply(join, CHAIN, [" → "]) + " → " + key + ") is left empty, as browsers leave a frame naming the URL of an ancestor of its document";
  if (!why && DEPTH >= L.frameDepth) why = "workspace pages nested deeper than " + L.frameDepth + " frames are not shown in the preview";
  if (!why && !apply(hasOwn, PAGES, [c.file])) why = "this workspace page was not compiled for frames: only pages the previewed page or its framed pages name in a static <iframe src> or <frame src>, and the pages those link to, are (the first " + L.framePages + ", at most " + L.frameDepth + " levels deep)";
  if (!why && frameDocs >= L.frames) why = "at most " + L.frames + " nested documents per page";
  if (rec) closeFrame(rec);
  if (why) { apply(wmSet, filled, [el, null]); report("limit", c.file, why); return blankFrame(el, bySrc); }
  frameDocs++;
  rec = { el: el, href: c.url.href, port: null, dead: false, waited: false, blob: "", doc: "" };
  // Filled before this document's ready: its ready waits for the nested document's ready or
  // error (so an error there is this mount's error, as this page's own would be), at most
  // L.frameWaitMs.
  if (!readySent && !failed) { rec.waited = true; pending++; apply(setTimeoutF, W, [function () { frameSettled(rec); }, L.frameWaitMs]); }
  apply(wmSet, filled, [el, rec]);
  if (frameRecs.length < L.frames * 4) apply(push, frameRecs, [rec]);
  if (byBlob(el, PAGES[c.file])) {
    // The type names UTF-8 (the text is a JS string, encoded as UTF-8 by the Blob): without
    // it a page without <meta charset> is decoded as windows-1252 (measured, Chromium
    // 2026-12-07: the frame's opaque origin does not inherit its parent's encoding).
    rec.blob = apply(createObjectURL, URLC, [new BlobC([frameDoc(c, PAGES[c.file], ref)], { type: "text/html;charset=utf-8" })]);
    if (!bySrc) {
      // A navigation inside the frame (a link of its page, or one targeting it by name)
      // leaves the src attribute as it was, as over HTTP.
      var m = apply(wmGet, origAttr, [el]), was = m && apply(hasOwn, m, ["src"]) ? m.src : apply(getAttrOrig, el, ["src"]);
      apply(setAttr, el, ["src", rec.blob]);
      remember(el, "src", was);
    }
    // An <iframe>'s srcdoc (this runtime's, or the compiler's empty one) would win over the
    // src: removed once the src names the blob: URL — at once when set here, else right after
    // the caller's setter (a microtask, before the frame can load the srcdoc again).
    if (!isFrameEl(el) && apply(hasAttr, el, ["srcdoc"])) {
      var had = apply(getAttrOrig, el, ["srcdoc"]);
      var unset = function () { if (apply(wmGet, filled, [el]) === rec && !rec.dead && apply(getAttrOrig, el, ["srcdoc"]) === had) apply(removeAttr, el, ["srcdoc"]); };
      if (bySrc) apply(queueMicro, W, [unset]); else unset();
    }
    return rec.blob;
  }
  rec.doc = frameDoc(c, PAGES[c.file], ref);
  apply(setAttr, el, ["srcdoc", rec.doc]);
  remember(el, "srcdoc", null); // getAttribute("srcdoc") reads as over HTTP (none)
}
// frameDoc: the nested document of page (a NestedPage) at c: its head, this script configured
// for it, its body; ref is what it reads as document.referrer (default: this page's URL, as
// for a frame's first page over HTTP). The config is JSON with "<" escaped, so it cannot end
// the script.
function frameDoc(c, page, ref) {
  var cfg = create(null), ks = keysOf(CFG);
  for (var i = 0; i < ks.length; i++) cfg[ks[i]] = CFG[ks[i]];
  var snap = create(null), areas = keysOf(storageAreas);
  for (var j = 0; j < areas.length; j++) snap[areas[j]] = storageAreas[areas[j]].snap();
  cfg.revision = REVISION; cfg.nonce = ""; cfg.entry = c.file; cfg.search = c.url.search; cfg.hash = c.url.hash;
  cfg.base = page.base || virtualURL(c.file) + c.url.search; cfg.files = FILES; cfg.pages = PAGES;
  cfg.storage = snap; cfg.sheets = page.sheets || 0; cfg.nested = { depth: DEPTH + 1, chain: CHAIN };
  cfg.referrer = ref !== undefined ? ref : pageURL() + SEARCH;
  var json = apply(replaceStr, toJSON(cfg), [/</g, "\\u003c"]);
  return S(page.head) + "<script>" + apply(slice, SELF, [0, CFG.headLen]) + json + apply(slice, SELF, [SELF.length - CFG.tailLen]) + "</script>" + S(page.body);
}
function frameOf(win) {
  for (var i = 0; i < frameRecs.length; i++) {
    var r = frameRecs[i], get = isFrameEl(r.el) ? fcwGet : cwGet;
    if (!r.dead && get && apply(get, r.el, []) === win) return r;
  }
  return null;
}
// The nested runtime's hello: a trusted message event from a frame this runtime filled. Taken in
// the capture phase before any page listener and stopped, so the page never sees it. A frame
// says hello again whenever a nested document loads in it without this runtime filling it —
// Back or Forward inside the frame, the frame removed and inserted again, the same src set
// again, the nested page's reload — and the newest hello's port is the one relayed (the older
// one closed): before, only the first was taken, the later document's console was lost and the
// page's own listeners saw the hello. A port from the nested page's own code (it can post a hello
// too) can only ask what that page can do anyway: log, fail, report, store, navigate the frame.
apply(addListener, W, ["message", function (e) {
  var d = e.data;
  if (!e.isTrusted || !d || typeof d !== "object" || d.type !== T.frame) return;
  var rec = frameOf(e.source);
  if (!rec) return;
  apply(stopImmediate, e, []);
  var p = e.ports && e.ports[0];
  if (!p) return;
  var old = rec.port;
  rec.port = p;
  if (old) { try { old.close(); } catch (x) {} }
  apply(addListener, p, ["message", function (m) { if (!rec.dead && rec.port === p) fromFrame(rec, m.data); }]);
  apply(mpStart, p, []);
}, true]);
// What a nested document may ask: a console line or error entry (relayed as this document's,
// within its bounds), its first error (fails this mount, as this page's own would), a report,
// a storage change, a navigation of its frame. Everything else (ready, leaving, …) is dropped.
function fromFrame(rec, d) {
  if (!d || typeof d !== "object") return;
  var t = d.type;
  if (t === T.console) relayConsole(d);
  else if (t === T.ready) frameSettled(rec);
  else if (t === T.error) { fail(cut(d.message, L.error), CFG.defaultError); frameSettled(rec); }
  else if (t === T.report) { var k = S(d.kind); if (k === "blocked" || k === "missing" || k === "limit") report(k, S(d.url), S(d.detail)); }
  else if (t === T.storage) takeStorage(d, true);
  else if (t === T.navigate) {
    var c = classify(virtualURL(S(d.path)) + S(d.search) + S(d.hash)), tg = typeof d.target === "string" ? d.target : "";
    if (!c || !c.file || !isPage(c.file)) return;
    // A link of the nested page that targets another navigable (linkTarget, 50-nav.js):
    // "_parent" is this document, "_top" the preview's page, a name a frame here or above.
    // The page that navigated: the frame's page (its URL without the fragment).
    var h = apply(indexOf, rec.href, ["#"]);
    navFrom = h >= 0 ? apply(slice, rec.href, [0, h]) : rec.href;
    if (tg === "_parent") goTo(c, c.url.search, c.url.hash);
    else if (tg && !navTarget(tg, c)) report("limit", c.file, "a link to a window named \"" + cut(tg, 60) + "\": no frame of the preview has that name, and the preview opens no new windows");
    else if (!tg) fillFrame(rec.el, c, true, false, navFrom);
    navFrom = undefined;
  }
}
// The frames (<iframe>, <frame>) of this document whose name (the navigable's name HTML gives
// a frame from its name attribute) is name.
function framesNamed(name) {
  var all = apply(querySelectorAll, D.documentElement || D, ["iframe[name],frame[name]"]), out = [];
  for (var i = 0; i < all.length; i++) if (apply(getAttrOrig, all[i], ["name"]) === name) apply(push, out, [all[i]]);
  return out;
}
function hasNamedFrame(name) { return framesNamed(name).length > 0; }
// namedFrame shows page c in this document's first frame called name; false when none.
var navFrom; // while a nested page's navigation is handled: its URL (the referrer), else undefined
function namedFrame(name, c) {
  var els = framesNamed(name);
  if (!els.length) return false;
  fillFrame(els[0], c, true, false, navFrom);
  return true;
}
function relayConsole(d) {
  if (!RELAY) return;
  var kind = S(d.kind), isErr = kind === "error" || kind === "rejection";
  if (isErr ? errorCount >= L.errors : consoleCount >= L.console) return;
  if (isErr) errorCount++; else { consoleCount++; kind = "console"; }
  var level = isErr ? "error" : d.level === "warn" || d.level === "error" ? d.level : "log";
  var p = workspacePath(d.path), line = typeof d.line === "number" && d.line > 0 && d.line < 1e9 ? d.line | 0 : 0;
  send({ type: T.console, level: level, kind: kind, text: cut(d.text, L.text), path: p, line: p ? line : 0 });
}
// takeStorage applies a storage message: from a nested document (fromFrame) as this
// document's own change (sent on, to the parent and every nested document), from the parent
// quietly (and on to this document's nested documents).
function takeStorage(d, fromFrame) {
  var a = S(d.area), st = apply(hasOwn, storageAreas, [a]) ? storageAreas[a] : null, set = d.set;
  if (!st || !set || typeof set !== "object") return;
  if (d.clear === true) { st.put("", null, true); if (fromFrame) storageChanged(a, "", null, true); }
  var ks = keysOf(set);
  for (var i = 0; i < ks.length; i++) {
    var v = set[ks[i]] === null ? null : S(set[ks[i]]);
    st.put(ks[i], v, false);
    if (fromFrame) storageChanged(a, ks[i], v, false);
  }
  if (!fromFrame) framesPost({ type: T.storage, area: a, clear: d.clear === true, set: set });
}
function framesPost(m) {
  for (var i = 0; i < frameRecs.length; i++) { var r = frameRecs[i]; if (!r.dead && r.port) { try { apply(mpPost, r.port, [m]); } catch (e) {} } }
}
// A nested document takes its parent's storage changes.
if (NESTED && port) {
  apply(addListener, port, ["message", function (e) { var d = e.data; if (d && typeof d === "object" && d.type === T.storage) takeStorage(d, false); }]);
  try { apply(mpStart, port, []); } catch (e) {}
}
