// 60-pick.js — inspection and pick mode (issue 17; docs/design.md §5.22). The parent asks over
// the port (never the window, which page code can post to): {inspect, id, selector} and
// {pick, on}. The answers are data only — the selector, tag, outerHTML (cut), ancestors,
// matches, the fixed list of computed styles (CFG.styles) and the box — and carry nothing the
// parent could run; the parent decodes them strictly (preview.DecodeSelection). Everything
// used here is captured now, before page code, and nothing is added to the page's DOM: the
// hover highlight is drawn by the parent from the boxes posted here.
if (BRIDGE && port) (function () {
  var EP = Element.prototype, NP = Node.prototype;
  var getCS = W.getComputedStyle, getPV = CSSStyleDeclaration.prototype.getPropertyValue;
  var rectOf = EP.getBoundingClientRect, outerGet = getOwnDesc(EP, "outerHTML").get;
  var localGet = getOwnDesc(EP, "localName").get, parentGet = getOwnDesc(NP, "parentElement").get;
  var childrenGet = getOwnDesc(EP, "children").get, collLen = getOwnDesc(HTMLCollection.prototype, "length").get;
  var collItem = HTMLCollection.prototype.item, listLen = getOwnDesc(NodeList.prototype, "length").get;
  var listItem = NodeList.prototype.item, docQSA = Document.prototype.querySelectorAll;
  var nodeTypeGet = getOwnDesc(NP, "nodeType").get, cssEscape = W.CSS && W.CSS.escape;
  var preventDefault = Event.prototype.preventDefault, stopAll = Event.prototype.stopImmediatePropagation;
  var trustedGet = getOwnDesc(Event.prototype, "isTrusted") ? getOwnDesc(Event.prototype, "isTrusted").get : null;
  function trusted(e) { try { return trustedGet ? apply(trustedGet, e, []) === true : e.isTrusted === true; } catch (x) { return false; } }
  var targetGet = getOwnDesc(Event.prototype, "target").get, keyGet = getOwnDesc(KeyboardEvent.prototype, "key").get;
  var portStart = MessagePort.prototype.start, raf = W.requestAnimationFrame;
  var splitWS = /\s+/, STYLES = CFG.styles || [];

  function esc(s) { try { return apply(cssEscape, W.CSS, [s]); } catch (e) { return s; } }
  function tagOf(el) { return S(apply(localGet, el, [])); }
  function parentOf(el) { return apply(parentGet, el, []); }
  function isElement(v) { try { return !!v && apply(nodeTypeGet, v, []) === 1; } catch (e) { return false; } }
  function count(sel) { try { return apply(listLen, apply(docQSA, D, [sel]), []); } catch (e) { return -1; } }
  function idOf(el) { var id = apply(getAttr, el, ["id"]); return id === null ? "" : S(id); }

  // selectorOf: "#id" when the id is unique in the document, else a child-combinator path of
  // tag(:nth-of-type(n)) steps from the nearest ancestor with a unique id (or from html) —
  // the rule wasm/preview's uniqueSelector applies to the parsed page.
  function selectorOf(el) {
    var steps = [];
    for (var x = el; isElement(x) && steps.length < 64; x = parentOf(x)) {
      var id = idOf(x);
      if (id && count("#" + esc(id)) === 1) { apply(push, steps, ["#" + esc(id)]); break; }
      var tag = tagOf(x), step = esc(tag), p = parentOf(x);
      if (isElement(p)) {
        var kids = apply(childrenGet, p, []), n = apply(collLen, kids, []), same = 0, at = 0;
        for (var i = 0; i < n && i < 10000; i++) {
          var c = apply(collItem, kids, [i]);
          if (tagOf(c) === tag) { same++; if (c === x) at = same; }
        }
        if (same > 1) step += ":nth-of-type(" + at + ")";
      }
      apply(push, steps, [step]);
    }
    var path = [];
    for (var j = steps.length - 1; j >= 0; j--) apply(push, path, [steps[j]]);
    return cut(apply(join, path, [" > "]), L.selector);
  }
  function label(el) {
    var s = tagOf(el), id = idOf(el), cls = apply(getAttr, el, ["class"]);
    if (id) s += "#" + esc(id);
    if (cls) { var parts = apply(splitStr, apply(trim, S(cls), []), [splitWS]); for (var i = 0; i < parts.length && i < 20; i++) if (parts[i]) s += "." + esc(parts[i]); }
    return cut(s, L.ancestorChars);
  }
  function boxOf(el) {
    var r = apply(rectOf, el, []);
    function n(v, min) { v = +v; if (!(v === v) || v > 1e7) return 0; if (v < -1e7) v = -1e7; return v < min ? min : v; }
    return { x: n(r.left, -1e7), y: n(r.top, -1e7), width: n(r.width, 0), height: n(r.height, 0) };
  }
  function describe(el, matches) {
    var html = S(apply(outerGet, el, [])), anc = [], styles = {};
    for (var a = parentOf(el); isElement(a) && anc.length < L.ancestors; a = parentOf(a)) apply(push, anc, [label(a)]);
    var cs = null;
    try { cs = apply(getCS, W, [el]); } catch (e) {}
    for (var i = 0; i < STYLES.length; i++) {
      var v = "";
      try { if (cs) v = S(apply(getPV, cs, [STYLES[i]])); } catch (e) {}
      styles[STYLES[i]] = cut(v, L.styleValue);
    }
    return { selector: selectorOf(el), tag: cut(tagOf(el), 64), html: cut(html, L.liveHTML), htmlTruncated: html.length > L.liveHTML,
      ancestors: anc, matches: matches, styles: styles, box: boxOf(el) };
  }

  function inspect(id, selector) {
    var list;
    try { list = apply(docQSA, D, [S(selector)]); } catch (e) { send({ type: T.selection, id: id, error: "syntax" }); return; }
    var n = apply(listLen, list, []);
    if (!n) { send({ type: T.selection, id: id, error: "no-match" }); return; }
    send({ type: T.selection, id: id, selection: describe(apply(listItem, list, [0]), n) });
  }

  // Pick mode: while on, the pointer's element is reported as a box (once per animation
  // frame, only when it changes, at most L.hovers per mount) and the first click is taken by
  // the bridge — its press, release and click never reach the page — and sent as the pick
  // (id 0); Escape leaves. Only trusted (user) events count: a click page code dispatches
  // picks nothing. The listeners sit on window in the capture phase, registered before
  // any page code, so a page listener cannot see or cancel a pick click first.
  var picking = false, hovered = null, hoverSent = 0, frameQueued = false;
  function stop(e) { apply(preventDefault, e, []); apply(stopAll, e, []); }
  function flushHover() {
    frameQueued = false;
    if (!picking || hoverSent >= L.hovers) return;
    hoverSent++;
    send({ type: T.hover, box: hovered ? boxOf(hovered) : null });
  }
  function onMove(e) {
    if (!picking || !trusted(e)) return;
    var t = apply(targetGet, e, []);
    if (!isElement(t) || t === hovered) return;
    hovered = t;
    if (!frameQueued) { frameQueued = true; try { apply(raf, W, [flushHover]); } catch (x) { flushHover(); } }
  }
  function onPress(e) { if (picking) stop(e); }
  function onClick(e) {
    if (!picking) return;
    stop(e);
    if (!trusted(e)) return; // a click page code dispatched is not the user's pick
    var t = apply(targetGet, e, []);
    if (!isElement(t)) return;
    picking = false; hovered = null;
    send({ type: T.selection, id: 0, selection: describe(t, 1) });
  }
  function onKey(e) {
    if (!picking || apply(keyGet, e, []) !== "Escape") return;
    stop(e);
    picking = false; hovered = null;
    send({ type: T.pickEnd });
  }
  apply(addListener, W, ["pointermove", onMove, true]);
  var presses = ["pointerdown", "pointerup", "mousedown", "mouseup", "dblclick", "auxclick", "contextmenu"];
  for (var i = 0; i < presses.length; i++) apply(addListener, W, [presses[i], onPress, true]);
  apply(addListener, W, ["click", onClick, true]);
  apply(addListener, W, ["keydown", onKey, true]);

  apply(addListener, port, ["message", function (e) {
    var d = e.data;
    if (!d || typeof d !== "object") return;
    if (d.type === T.inspect && typeof d.id === "number" && d.id > 0 && typeof d.selector === "string") inspect(d.id, d.selector);
    else if (d.type === T.pick) { picking = d.on === true; hovered = null; if (!picking) send({ type: T.hover, box: null }); }
  }]);
  try { apply(portStart, port, []); } catch (e) {}
})();
