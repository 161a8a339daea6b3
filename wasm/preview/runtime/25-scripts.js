// 25-scripts.js — a static classic <script src> reads as the page wrote it (issue 13).
// The compiler inlines a workspace script (no src), gives a defer/async one a data: URL and a
// missing one its virtual URL, and marks each with CFG.scriptAttr = the src as written
// (preview.ScriptSrcAttr). As the parser inserts the element — this observer's callback runs
// before the script does, like takeSheet's (20-origin.js) — the marker is taken off and the
// authored src kept per element. While the element's src attribute is still what the
// compiler wrote, getAttribute("src") gives the authored value, hasAttribute("src") is true
// and the src property is it resolved against the page's virtual URL (BASE), as over HTTP,
// where loaders (dojo, GWT, CKEditor, TinyMCE, ace, MathJax) find their folder from them.
// Once the page sets or removes src, the element reads as the earlier patches make it.
var SCRIPT_ATTR = CFG.scriptAttr, scriptSrcs = new WeakMapC(), wmDelete = WeakMap.prototype["delete"];
var SCRIPT_SEL = SCRIPT_ATTR ? "script[" + SCRIPT_ATTR + "]" : "";
function takeScript(el) {
  if (el.localName !== "script" || el.namespaceURI !== HTML_NS) return;
  var v = apply(getAttr, el, [SCRIPT_ATTR]);
  if (v === null) return;
  apply(removeAttr, el, [SCRIPT_ATTR]);
  apply(wmSet, scriptSrcs, [el, { authored: v, compiled: apply(getAttr, el, ["src"]) }]);
}
// scriptSrcOf(el): the authored src of a marked script whose src attribute is still the
// compiler's (null for an inlined one), else null.
function scriptSrcOf(el) {
  var r = apply(wmGet, scriptSrcs, [el]);
  if (!r) return null;
  return apply(getAttr, el, ["src"]) === r.compiled ? r.authored : null;
}
// An inline classic script's text as written (docs/design.md §5.50): the compiler marks one
// whose text it only padded and ended with a sourceURL with CFG.scriptTextAttr = the number of
// padding newlines. The marker is taken off as the parser inserts the script (before it runs);
// its text is set back once it has run: in the observer's next callback (the parser inserted
// something after it, which it does only once the script ran) or at DOMContentLoaded. A script
// that runs later than that (held by a pending external stylesheet) runs the text as written:
// the same code, without the padding and sourceURL.
var TEXT_ATTR = CFG.scriptTextAttr, textsTaken = [], takeRecords = W.MutationObserver && MutationObserver.prototype.takeRecords;
var textDesc = getOwnDesc(Node.prototype, "textContent");
function takeText(el) {
  if (!TEXT_ATTR || el.localName !== "script") return;
  var v = apply(getAttr, el, [TEXT_ATTR]);
  if (v === null) return;
  apply(removeAttr, el, [TEXT_ATTR]);
  var pad = +v;
  if (pad >= 0 && pad === (pad | 0)) apply(push, textsTaken, [{ el: el, pad: pad }]);
}
function restoreTexts(n) {
  var todo = apply(arraySlice, textsTaken, [0, n]);
  textsTaken = apply(arraySlice, textsTaken, [n]);
  for (var i = 0; i < todo.length; i++) {
    var el = todo[i].el, pad = todo[i].pad, t = apply(textDesc.get, el, []);
    if (typeof t !== "string") continue;
    var k = apply(lastIndexOf, t, ["\n//# sourceURL="]), ok = k >= pad;
    for (var j = 0; ok && j < pad; j++) ok = t[j] === "\n";
    if (ok) apply(textDesc.set, el, [apply(slice, t, [pad, k])]);
  }
}
function isSrcName(name) { return apply(toLower, S(name), []) === "src"; }
if (SCRIPT_ATTR) {
  // Each chains onto the patch before it (20-origin.js maps rewritten attributes back).
  var getAttrBefore = Element.prototype.getAttribute, hasAttrBefore = Element.prototype.hasAttribute;
  var removeAttrBefore = Element.prototype.removeAttribute;
  Element.prototype.getAttribute = function getAttribute(name) {
    var v = apply(getAttrBefore, this, arguments);
    if (apply(wmGet, scriptSrcs, [this]) && isSrcName(name)) { var a = scriptSrcOf(this); if (a !== null) return a; }
    return v;
  };
  Element.prototype.hasAttribute = function hasAttribute(name) {
    var v = apply(hasAttrBefore, this, arguments);
    if (!v && apply(wmGet, scriptSrcs, [this]) && isSrcName(name) && scriptSrcOf(this) !== null) return true;
    return v;
  };
  // Removing src from an inlined script (whose src attribute was already absent) forgets it.
  Element.prototype.removeAttribute = function removeAttribute(name) {
    if (apply(wmGet, scriptSrcs, [this]) && isSrcName(name)) apply(wmDelete, scriptSrcs, [this]);
    return apply(removeAttrBefore, this, arguments);
  };
  (function () {
    var d = W.HTMLScriptElement && getOwnDesc(HTMLScriptElement.prototype, "src");
    if (!d || !d.get) return;
    defineProperty(HTMLScriptElement.prototype, "src", { configurable: true, enumerable: d.enumerable,
      get: function () {
        var a = scriptSrcOf(this);
        if (a === null) return apply(d.get, this, []);
        try { return new URLC(a, BASE).href; } catch (e) { return a; } // HTML: unparsable → as written
      },
      set: d.set });
  })();
  if (W.MutationObserver) {
    // Parser-inserted scripts arrive one element per record; a marked script inside an added
    // subtree (a template's content cloned into the page) is found by the selector.
    var scriptObserver = new W.MutationObserver(function (records) {
      if (textsTaken.length) {
        restoreTexts(textsTaken.length); // taken in earlier callbacks: they ran
        // The restore's own mutations would call this again in the same microtask checkpoint,
        // which would restore the scripts taken below before they run (their errors would
        // name no file and line): dropped (nothing else changes the DOM while this runs).
        apply(takeRecords, scriptObserver, []);
      }
      for (var i = 0; i < records.length; i++) {
        var added = records[i].addedNodes;
        for (var j = 0; j < added.length; j++) {
          var n = added[j];
          if (n.nodeType !== 1) continue;
          if (n.localName === "script") { takeScript(n); takeText(n); continue; }
          if (n.firstElementChild === null) continue;
          var all = apply(querySelectorAll, n, [SCRIPT_SEL + (TEXT_ATTR ? ",script[" + TEXT_ATTR + "]" : "")]);
          for (var k = 0; k < all.length; k++) { takeScript(all[k]); takeText(all[k]); }
        }
      }
    });
    apply(MutationObserver.prototype.observe, scriptObserver, [D, { childList: true, subtree: true }]);
    // Markers come only from the static markup: once it is parsed (the observer's last
    // callback for it ran before DOMContentLoaded), only a static <template>'s content can
    // still bring one in, so without such a template the observer stops.
    var disconnect = MutationObserver.prototype.disconnect, docQSA = Document.prototype.querySelectorAll, fragQS = DocumentFragment.prototype.querySelector;
    apply(addListener, D, ["DOMContentLoaded", function () {
      var left = apply(docQSA, D, [SCRIPT_SEL]);
      for (var i = 0; i < left.length; i++) takeScript(left[i]);
      restoreTexts(textsTaken.length);
      try {
        var ts = apply(docQSA, D, ["template"]);
        for (var j = 0; j < ts.length; j++) {
          var c = ts[j].content;
          if (c && apply(fragQS, c, [SCRIPT_SEL + ",template" + (TEXT_ATTR ? ",script[" + TEXT_ATTR + "]" : "")]) !== null) return;
        }
      } catch (e) { return; }
      apply(disconnect, scriptObserver, []);
    }]);
  }
}
