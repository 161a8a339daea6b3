// morph.js — the keyed DOM morph of the studio's regions (issue 15: patch, never replace).
//
// Go builds each region's HTML (wasm/ui/views) and hands it to globalThis.webcodingMorph(el,
// html) (wasm/cmd/browser render.go setRegion). idiomorph (npm, pinned in package.json) turns
// el's children into html by patching: an element with the same id keeps its identity (the
// button under a pointer between press and release, the focused element, a text field's
// selection), attributes and text change in place, and only what is gone is removed.
//
// Never morph the preview host (moving an iframe reloads it) or the editor host (CodeMirror
// owns its DOM): they live outside every Go-drawn region.
import { Idiomorph } from "idiomorph";

// A form field the user is in (input, textarea, select) is left alone while it has focus: its
// value and selection belong to the user until the Go side syncs them. (idiomorph's own
// ignoreActiveValue would also skip the children of a focused button, leaving its label stale.)
function isActiveField(node) {
  return node === document.activeElement && node instanceof HTMLElement &&
    (node.tagName === "INPUT" || node.tagName === "TEXTAREA" || node.tagName === "SELECT");
}

const options = {
  morphStyle: "innerHTML",
  restoreFocus: true,
  callbacks: {
    beforeNodeMorphed: (oldNode) => !isActiveField(oldNode),
  },
};

export function morphRegion(el, html) {
  Idiomorph.morph(el, html, options);
}

// appendText adds text to one keyed element (a streamed message's text) without morphing the
// region around it.
export function appendText(el, text) {
  el.append(text);
}

globalThis.webcodingMorph = morphRegion;
