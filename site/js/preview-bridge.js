// preview-bridge.js — the parent side of the preview bridge (SPEC §2.3, §2.16; REFERENCE §5.5).
//
// It owns the sandboxed iframe and nothing else: Go compiles the document and calls
// mount(revision, nonce, html); this shim sets it as srcdoc and forwards the frame's bridge
// messages to Go as JSON strings, but only messages whose event.source is the iframe's
// contentWindow and whose nonce and revision are the current mount's. Go checks nonce and
// revision again. The parent never posts anything into the frame.

const SANDBOX = "allow-scripts allow-forms allow-modals allow-popups"; // never allow-same-origin
const TYPES = new Set(["webcoding.preview.ready", "webcoding.preview.error", "webcoding.preview.console"]);

export function createPreviewBridge(host) {
  let frame = null;
  let current = { revision: -1, nonce: "" };
  let deliver = null;
  const early = [];

  function ensureFrame(fresh) {
    if (frame && frame.isConnected && !fresh) return frame;
    // A fresh element is a new browsing context: a frame stuck in a script loop (SPEC §2.16)
    // is discarded with the old element instead of being asked to navigate, which it cannot.
    if (frame) frame.remove();
    frame = document.createElement("iframe");
    frame.setAttribute("sandbox", SANDBOX);
    frame.setAttribute("title", "Live generated web preview");
    frame.setAttribute("referrerpolicy", "no-referrer");
    frame.className = "preview-frame";
    host.replaceChildren(frame);
    return frame;
  }

  window.addEventListener("message", (event) => {
    if (!frame || event.source !== frame.contentWindow) return;
    const d = event.data;
    if (!d || typeof d !== "object" || !TYPES.has(d.type)) return;
    if (d.nonce !== current.nonce || d.revision !== current.revision) return;
    const msg = { type: d.type, revision: d.revision, nonce: d.nonce };
    if (typeof d.message === "string") msg.message = d.message.slice(0, 2000);
    if (typeof d.level === "string") msg.level = d.level.slice(0, 16);
    if (typeof d.text === "string") msg.text = d.text.slice(0, 2000);
    const json = JSON.stringify(msg);
    if (deliver) deliver(json); else if (early.length < 64) early.push(json);
  });

  // The (empty) frame exists from the start: the first mount only sets its srcdoc.
  ensureFrame();

  return {
    // mount(revision, nonce, html, fresh): show the compiled document of one mount; fresh
    // replaces the iframe element first (Refresh, or the previous mount never answered).
    mount(revision, nonce, html, fresh) {
      current = { revision, nonce };
      ensureFrame(!!fresh).srcdoc = html;
    },
    // discard(): replace the frame with a fresh empty one (after an ack timeout); messages of
    // the discarded mount are no longer accepted.
    discard() {
      current = { revision: -1, nonce: "" };
      ensureFrame(true);
    },
    // attach(callback): callback(json) receives every accepted message.
    attach(callback) {
      deliver = callback;
      while (early.length) callback(early.shift());
    },
    // frame(): the iframe element (tests and the full-screen toggle).
    frame() { return frame; },
  };
}
