// 60-patch.js — CSS-only edits applied in place (design.md §5.33). When the new revision's
// document differs from this one only in the text of the compiler's marked stylesheet <style>
// elements and in CSS entries of the file table (preview.StyleOnlyChange), the parent posts,
// over this mount's port only, {type: T.patch, id, revision, styles: [{index, old, text}],
// files: {path: text}}. Each element named must still hold the text this document gave it
// (old, with the same url() rewriting as when it was parsed): a sheet the page swapped (theme
// switcher) or rewrote is not overwritten. If anything does not hold, nothing changes and the
// answer is {type: T.patched, id, ok: false, reason}: the parent then mounts the revision in
// full. Otherwise the file table entries are replaced first (fetch("style.css"), a later theme
// swap and workers started later read the new text), then the texts, and the answer
// is {ok: true}. A page that swapped a sheet or loaded a CSS file by URL (a blob: URL made from
// its old text) is refused too: what it shows would keep the old text. The page's DOM, scroll
// position, form input and JS state are untouched; rules the page inserted into a replaced
// sheet with insertRule are gone with its old text.
(function () {
  if (!port) return;
  var textDesc = getOwnDesc(Node.prototype, "textContent"), isArray = ArrayC.isArray, mapDelete = Map.prototype["delete"], CSS_TYPE = /^text\/css\b/;
  function getText(el) { return apply(textDesc.get, el, []); }
  function setText(el, t) { apply(textDesc.set, el, [t]); }
  function sheetText(t) { return apply(indexOf, t, ["url("]) >= 0 || apply(indexOf, t, ["@import"]) >= 0 ? cssText(t, BASE) : t; }
  function answer(id, ok, why) { send({ type: T.patched, id: id, ok: ok, reason: ok ? "" : cut(why, L.text) }); }
  function patch(d) {
    var id = d.id, styles = d.styles, files = d.files;
    if (sheetsForged) return answer(id, false, "a page script inserted a marked <style> element");
    // What the page loaded from the file table by itself would keep the old text: a sheet it
    // swapped through href (its text is the file's) and any CSS file it loaded by URL (a
    // <link> it added, an @import of a <style> it wrote: a blob: URL made from the old text).
    if (sheetSwapped) return answer(id, false, "the page swapped a stylesheet");
    var all = keysOf(FILES), i;
    for (i = 0; i < all.length; i++) {
      if (apply(reExec, CSS_TYPE, [S(FILES[all[i]].type)]) && apply(mapHas, blobs, [all[i]])) return answer(id, false, "the page loaded " + all[i] + " by URL");
    }
    if (!isArray(styles) || !files || typeof files !== "object") return answer(id, false, "malformed patch");
    var els = [], texts = [];
    for (i = 0; i < styles.length; i++) {
      var s = styles[i];
      if (!s || typeof s !== "object" || typeof s.index !== "number" || typeof s.old !== "string" || typeof s.text !== "string") return answer(id, false, "malformed patch");
      var el = apply(mapGet, sheetEls, [s.index]);
      if (!el) return answer(id, false, "style " + s.index + " is not in the document");
      if (getText(el) !== sheetText(s.old)) return answer(id, false, "the page changed the text of style " + s.index);
      apply(push, els, [el]); apply(push, texts, [s.text]);
    }
    var paths = keysOf(files);
    for (i = 0; i < paths.length; i++) {
      var f = fileAt(paths[i]);
      if (!f || f.b64 !== undefined || typeof files[paths[i]] !== "string") return answer(id, false, "file " + paths[i] + " is not a text file of the table");
    }
    for (i = 0; i < paths.length; i++) {
      FILES[paths[i]] = { type: fileAt(paths[i]).type, text: files[paths[i]] };
      apply(mapDelete, blobs, [paths[i]]);
    }
    if (paths.length) workerFiles = null; // workers started from now on get the new table
    for (i = 0; i < els.length; i++) setText(els[i], sheetText(texts[i]));
    if (typeof d.revision === "number") REVISION = d.revision;
    answer(id, true, "");
  }
  apply(addListener, port, ["message", function (e) {
    var d = e.data;
    if (d && typeof d === "object" && d.type === T.patch && typeof d.id === "number") {
      try { patch(d); } catch (err) { answer(d.id, false, "the patch failed: " + text(err)); }
    }
  }]);
})();
