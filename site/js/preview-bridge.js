// preview-bridge.js — the parent side of the preview bridge (SPEC §2.3, §2.16; issue 13).
//
// It owns the sandboxed iframe and nothing else: Go compiles the document and calls
// mount(revision, nonce, html, fresh, quirks); this shim shows it in the iframe — a FRESH element unless the
// previous mount was acknowledged after exactly one load (so no document that failed, hung,
// left or is still loading is ever reused) — and hands the frame's messages to Go as JSON
// arrays, batched.
//
// Channel. The runtime posts exactly one message through window.parent.postMessage — the hello
// {type, v, revision, nonce} carrying a MessagePort — synchronously, before any page code runs.
// The hello is accepted only from the current frame's contentWindow with the current mount's
// nonce and revision; from then on only that port is read, and the window listener is
// removed until the next mount. A window message is never forwarded to Go.
//
// Caps (per mount, port messages): MAX_MESSAGES messages and MAX_BYTES bytes. Over
// either cap the port is closed, the frame discarded and Go told with a runtime error, so a
// flood can neither freeze the studio nor starve the acknowledgement. Console lines and
// reports reach Go at most once per animation frame (or every FLUSH_MS when frames are not
// drawn); ready/error/leaving/navigate go at once.
//
// Quirks mode (docs/design.md §5.53). A document Go marks as a quirks-mode page (no doctype, or
// a legacy one) is loaded from a blob: URL made here, not as srcdoc: HTML's parser never puts an
// iframe srcdoc document in quirks mode, so percentage heights and tables would be laid out in
// standards mode where the served page is not. Such a frame is never reused, and its URL is
// revoked when its mount ends. The document's origin is opaque either way (the sandbox).
//
// Navigation. The frame's first load event is the compiled document; a later one means the
// document was replaced by a navigation the parent did not start (a link, location.href, a
// reload): Go is told "leaving" and shows "navigated away (Refresh)".
//
// The parent posts four kinds of message into the frame, and only over the mount's port: the
// accessibility audit request (audit() below; preview.audit, docs/design.md §5.17). axe-core's
// bundle (site/js/preview-axe.js, ~0.6 MB) is fetched from this origin only when the first audit
// is asked, and posted as text with the first audit of each document; the runtime evaluates it.
// The frame's reply is passed to Go as a JSON string (at most MAX_AUDIT_BYTES) and decoded there
// strictly, as untrusted input.
//
// CSS-only edits (docs/design.md §5.33). patch() posts {type: patch, id, revision, styles, files}
// over the acknowledged mount's port instead of a new srcdoc; the runtime answers {patched, id,
// ok}. Until that answer, the frame's messages still belong to the old revision (the port is
// ordered); on ok the mount takes the new revision and nonce and Go gets a ready with inPlace,
// on a refusal Go gets patchRefused and mounts the revision in full.
//
// Inspection and pick mode (issue 17, docs/design.md §5.22). The other two requests: {inspect, id, selector} (Go's
// preview.inspect) and {pick, on} (the Pick button). The frame answers with selections
// (forwarded to Go, which decodes them strictly: preview.DecodeSelection), hover boxes (drawn
// here as an overlay over the frame, never sent to Go; the page's DOM is not touched) and
// pickEnd (Escape in the frame). A selection is data: it never starts anything by itself.

const SANDBOX = "allow-scripts allow-forms allow-modals allow-popups"; // never allow-same-origin
const HELLO = "webcoding.preview.hello";
const T = {
  ready: "webcoding.preview.ready", error: "webcoding.preview.error", console: "webcoding.preview.console",
  report: "webcoding.preview.report", storage: "webcoding.preview.storage",
  navigate: "webcoding.preview.navigate", leaving: "webcoding.preview.leaving",
  selection: "webcoding.preview.selection", hover: "webcoding.preview.hover", pickEnd: "webcoding.preview.pickEnd",
  audit: "webcoding.preview.audit", patch: "webcoding.preview.patch", patched: "webcoding.preview.patched",
  patchRefused: "webcoding.preview.patchRefused", ping: "webcoding.preview.ping", pong: "webcoding.preview.pong",
};
// How long a ping waits for the document's pong before a second load counts as leaving (ms).
const PING_WAIT_MS = 1500;
const INSPECT = "webcoding.preview.inspect", PICK = "webcoding.preview.pick";
const URGENT = new Set([T.ready, T.error, T.navigate, T.leaving, T.storage, T.selection, T.pickEnd, T.patchRefused]);
// The same numbers as wasm/preview (MaxMountMessages, MaxMountBytes, text bounds).
export const MAX_MESSAGES = 5000;
export const MAX_BYTES = 8 << 20;
const MAX_TEXT = 2000;
const MAX_STORAGE_CHARS = 1000000;
const FLUSH_MS = 250;
const MAX_SELECTION_BYTES = 128 << 10; // preview.MaxSelectionBytes (UTF-16 units here, bytes in Go; every part is bounded in the frame first)
const MAX_BOX = 1e7; // preview.MaxBoxCoordinate
const MAX_AUDIT_BYTES = 256 << 10; // preview.MaxAuditReplyBytes

function str(v, n) { return typeof v === "string" ? v.slice(0, n) : ""; }

export function createPreviewBridge(host) {
  // fake-indexeddb's bundle (site/js/preview-idb.js), fetched once as text: the runtime
  // evaluates it in the frame when the page's code uses indexedDB.
  let idb = "";
  const idbLink = document.getElementById("preview-idb"); // <link rel="prefetch"> in index.html
  if (idbLink && idbLink.getAttribute("href") && !idbLink.getAttribute("href").startsWith("{{")) {
    fetch(idbLink.href).then((r) => (r.ok ? r.text() : "")).then((t) => { idb = t; }, () => {});
  }
  // axe-core's bundle (site/js/preview-axe.js), fetched as text on the first audit only.
  let axe = null; // Promise<string> ("" when it cannot be had)
  function axeSource() {
    if (axe) return axe;
    const meta = document.querySelector('meta[name="webcoding-axe"]');
    const href = meta ? meta.getAttribute("content") || "" : "";
    if (!href || href.startsWith("{{")) return Promise.resolve("");
    axe = fetch(new URL(href, document.baseURI)).then((r) => (r.ok ? r.text() : "")).catch(() => "");
    axe.then((t) => { if (!t) axe = null; }); // a failed fetch may be retried by the next audit
    return axe;
  }
  // Device sizes (setDevice below).
  let device = null; // {w, h} or null (desktop)
  let resizer = null;
  let scale = 1;
  function fit() {
    const out = document.getElementById("device-scale");
    if (!device) {
      scale = 1;
      host.classList.remove("device");
      if (out) out.textContent = "";
      return;
    }
    const w = host.clientWidth, h = host.clientHeight;
    scale = w > 0 && h > 0 ? Math.min(1, w / device.w, h / device.h) : 1;
    host.style.setProperty("--device-w", device.w + "px");
    host.style.setProperty("--device-h", device.h + "px");
    host.style.setProperty("--device-scale", String(scale));
    host.style.setProperty("--device-x", Math.max(0, (w - device.w * scale) / 2) + "px"); // centred
    host.classList.add("device");
    if (out) out.textContent = `scaled to ${Math.round(scale * 100)}%`;
  }
  let auditSeq = 0;
  let patchSeq = 0, pingSeq = 0;
  const audits = new Map(); // id → {m, done}
  let frame = null;
  let mount = null; // {revision, nonce, port, count, bytes, loads, dead}
  let deliver = null;
  const early = [];
  let batch = [];
  let scheduled = false;
  const mounts = []; // {mount, hello, ack, load} page-clock ms of the last 20 mounts (timings())

  function toGo(list) {
    const json = JSON.stringify(list);
    if (deliver) deliver(json); else if (early.length < 64) early.push(json);
  }
  function flush() {
    scheduled = false;
    if (!batch.length) return;
    const list = batch;
    batch = [];
    toGo(list);
  }
  function queue(m, urgent) {
    batch.push(m);
    if (urgent) { flush(); return; }
    if (!scheduled) {
      scheduled = true;
      requestAnimationFrame(() => { if (scheduled) flush(); });
      setTimeout(() => { if (scheduled) flush(); }, FLUSH_MS);
    }
  }

  // The pick highlight: one fixed-position element of the studio page over the frame, placed
  // from the box the bridge reported (CSS px of the frame's viewport), scaled by the frame's
  // displayed size. Out-of-range or malformed boxes hide it.
  let picking = false;
  let overlay = null;
  function drawHover(box) {
    const ok = box && typeof box === "object" && [box.x, box.y, box.width, box.height].every((v) => typeof v === "number" && Number.isFinite(v) && Math.abs(v) <= MAX_BOX) && box.width >= 0 && box.height >= 0;
    if (!ok || !frame || !frame.isConnected) { if (overlay) overlay.hidden = true; return; }
    if (!overlay) {
      overlay = document.createElement("div");
      overlay.className = "preview-pick-overlay";
      overlay.setAttribute("aria-hidden", "true");
      document.body.appendChild(overlay);
    }
    const r = frame.getBoundingClientRect();
    const sx = frame.clientWidth ? r.width / frame.offsetWidth : 1, sy = frame.clientHeight ? r.height / frame.offsetHeight : 1;
    const left = r.left + frame.clientLeft * sx + box.x * sx, top = r.top + frame.clientTop * sy + box.y * sy;
    const right = Math.min(left + box.width * sx, r.right), bottom = Math.min(top + box.height * sy, r.bottom);
    const l = Math.max(left, r.left), t = Math.max(top, r.top);
    if (right <= l || bottom <= t) { overlay.hidden = true; return; }
    Object.assign(overlay.style, { left: l + "px", top: t + "px", width: (right - l) + "px", height: (bottom - t) + "px" });
    overlay.hidden = false;
  }
  function post(m, msg) {
    if (!m || m.dead || !m.port || m !== mount) return false;
    try { m.port.postMessage(msg); return true; } catch (e) { return false; }
  }

  function newFrame() {
    // A fresh element is a new browsing context: a frame stuck in a script loop (SPEC §2.16)
    // is discarded with the old element instead of being asked to navigate, which it cannot.
    if (frame) frame.remove();
    frame = document.createElement("iframe");
    frame.setAttribute("sandbox", SANDBOX);
    frame.setAttribute("title", "Live generated web preview");
    frame.setAttribute("referrerpolicy", "no-referrer");
    frame.className = "preview-frame";
    const f = frame;
    f.addEventListener("load", () => { if (mount && mount.frame === f) onLoad(mount); });
    return frame;
  }

  // startAudit sends audit request id to its mount's document, with axe-core's source the
  // first time for that document (see audit below).
  function startAudit(id, a) {
    const m = a.m, t0 = performance.now();
    axeSource().then((src) => {
      if (!audits.has(id)) return; // cancelled or superseded meanwhile
      if (!src) { audits.delete(id); a.done("no-engine", ""); return; }
      const req = { type: T.audit, id, limits: JSON.parse(a.limitsJSON) };
      if (!m.axeSent) { req.source = src; m.axeSent = true; }
      m.times.auditFetch = performance.now() - t0;
      try { m.port.postMessage(req); } catch (e) { audits.delete(id); a.done("superseded", ""); }
    });
  }

  function endMount(m) {
    if (!m || m.dead) return;
    m.dead = true;
    for (const [id, a] of audits) if (a.m === m) { audits.delete(id); a.done("superseded", ""); }
    if (m.port) { m.port.onmessage = null; try { m.port.close(); } catch (e) { /* closed */ } }
    if (m.url) { URL.revokeObjectURL(m.url); m.url = ""; }
  }

  // overCap stops a mount that sent more than the caps allow: port closed, frame discarded,
  // Go told with a runtime error for that mount.
  function overCap(m, what) {
    endMount(m);
    if (mount === m) host.replaceChildren(newFrame());
    queue({ type: T.error, revision: m.revision, nonce: m.nonce,
      message: `The preview was stopped: it sent more than ${what} to the studio.` }, true);
  }
  function count(m, bytes) {
    m.count++;
    m.bytes += bytes;
    if (m.count > MAX_MESSAGES) { overCap(m, `${MAX_MESSAGES} messages`); return false; }
    if (m.bytes > MAX_BYTES) { overCap(m, `${MAX_BYTES >> 20} MiB of messages`); return false; }
    return true;
  }

  function onPort(m, event) {
    if (m.dead) return;
    const d = event.data;
    if (!d || typeof d !== "object" || typeof d.type !== "string") { count(m, 16); return; }
    const msg = { type: d.type, revision: m.revision, nonce: m.nonce };
    let size = 64;
    switch (d.type) {
      case T.pong:
        // The document is still there after a second load event (checkLeft): no navigation.
        if (!count(m, 32)) return;
        if (Number.isInteger(d.id) && d.id === m.ping) { m.ping = 0; m.loads = 1; }
        return;
      case T.ready: break;
      case T.error: msg.message = str(d.message, MAX_TEXT); break;
      case T.console:
        msg.level = str(d.level, 16); msg.kind = str(d.kind, 16); msg.text = str(d.text, MAX_TEXT);
        msg.path = str(d.path, MAX_TEXT); msg.line = Number.isInteger(d.line) && d.line > 0 ? d.line : 0; // Go checks both
        break;
      case T.report: msg.kind = str(d.kind, 16); msg.url = str(d.url, MAX_TEXT); msg.detail = str(d.detail, MAX_TEXT); break;
      case T.navigate: msg.path = str(d.path, MAX_TEXT); msg.search = str(d.search, MAX_TEXT); msg.hash = str(d.hash, MAX_TEXT); if (d.replace === true) msg.replace = true; if (d.dir === true) msg.dir = true; break;
      case T.leaving: msg.url = str(d.url, MAX_TEXT); break;
      case T.audit: {
        // The answer to audit(): handed to its caller, never batched. An unknown id (page code
        // cannot post on the port, so only a late answer) is dropped.
        const a = Number.isInteger(d.id) ? audits.get(d.id) : undefined;
        if (!a || a.m !== m) { count(m, 16); return; }
        audits.delete(d.id);
        let json = "";
        try { json = JSON.stringify(d.reply); } catch (e) { json = ""; }
        if (typeof json !== "string" || json.length > MAX_AUDIT_BYTES) json = "";
        if (!count(m, 64 + json.length)) return;
        a.done("reply", json);
        return;
      }
      case T.storage: {
        msg.area = d.area === "session" || d.area === "cookie" ? d.area : "local";
        msg.clear = d.clear === true;
        const set = {};
        let chars = 0;
        if (d.set && typeof d.set === "object") {
          for (const k of Object.keys(d.set)) {
            const v = d.set[k];
            if (v !== null && typeof v !== "string") continue;
            chars += k.length + (v ? v.length : 0);
            if (chars > MAX_STORAGE_CHARS) break;
            set[k] = v;
          }
        }
        msg.set = set;
        size += chars * 2;
        break;
      }
      case T.selection: {
        msg.id = Number.isSafeInteger(d.id) && d.id >= 0 ? d.id : -1;
        if (msg.id === 0) { picking = false; drawHover(null); } // a pick ends pick mode (the bridge left it too)
        if (typeof d.error === "string") { msg.error = str(d.error, 32); break; }
        let j = "";
        try { j = JSON.stringify(d.selection) || ""; } catch (e) { j = ""; }
        if (!j || j.length > MAX_SELECTION_BYTES) { msg.error = "too-large"; break; }
        msg.selection = JSON.parse(j); // a plain copy; Go decodes it strictly
        size += j.length;
        break;
      }
      case T.patched: {
        // The answer to patch(): only for the patch in flight (page code cannot post on the
        // port, so anything else is late or malformed).
        const pt = m.patch;
        if (!pt || d.id !== pt.id) { count(m, 16); return; }
        m.patch = null;
        if (!count(m, 64)) return;
        if (d.ok === true) {
          m.revision = pt.revision;
          m.nonce = pt.nonce;
          pt.times.ack = performance.now();
          queue({ type: T.ready, revision: pt.revision, nonce: pt.nonce, inPlace: true }, true);
        } else {
          pt.times.refused = true;
          queue({ type: T.patchRefused, revision: pt.revision, nonce: pt.nonce, message: str(d.reason, MAX_TEXT) }, true);
        }
        return;
      }
      case T.hover:
        count(m, 64);
        if (m === mount && picking) drawHover(d.box);
        return;
      case T.pickEnd:
        picking = false;
        drawHover(null);
        break;
      default: count(m, 16); return;
    }
    size += (msg.message || "").length + (msg.text || "").length + (msg.url || "").length + (msg.detail || "").length + (msg.path || "").length;
    if (!count(m, size)) return;
    if ((d.type === T.ready || d.type === T.error) && !m.times.ack) m.times.ack = performance.now();
    if (d.type === T.ready) m.settled = true;
    if (d.type === T.error) m.failed = true; // a page whose script failed still has a document to audit
    queue(msg, URGENT.has(d.type));
  }

  // The window listener exists only while a mount waits for its hello: after it (and when no
  // mount is pending) there is no listener at all, and a window message from the frame costs
  // the studio no script. While it waits, a message that is not the hello is dropped.
  let listening = false;
  function onWindowMessage(event) {
    const m = mount;
    if (!m || m.dead || m.port || !frame || event.source !== frame.contentWindow) return;
    const d = event.data;
    if (d && typeof d === "object" && d.type === HELLO && d.nonce === m.nonce && d.revision === m.revision &&
        event.ports && event.ports.length === 1) {
      m.port = event.ports[0];
      m.port.onmessage = (e) => onPort(m, e);
      m.times.hello = performance.now();
      if (typeof d.at === "number") m.times.frameStart = performance.now() - (Date.now() - d.at); // the runtime's start, on this page's clock
      listen(false);
    }
  }
  function listen(on) {
    if (on === listening) return;
    listening = on;
    if (on) window.addEventListener("message", onWindowMessage);
    else window.removeEventListener("message", onWindowMessage);
  }

  function onLoad(m) {
    if (m.dead || mount !== m) return;
    m.loads++;
    if (m.loads === 1) {
      m.times.load = performance.now();
      for (const [id, a] of audits) if (a.m === m && a.waiting) { a.waiting = false; startAudit(id, a); }
    } else {
      for (const [id, a] of audits) if (a.m === m) { audits.delete(id); a.done("superseded", ""); }
    }
    if (m.loads > 1) checkLeft(m);
  }

  // checkLeft: a second load event of the frame element is a navigation away — unless the
  // mounted document answers a ping over its port: Chromium fires a load event at the frame
  // element on Back to a document's first history entry, which stays in the same document.
  // Without an answer within PING_WAIT_MS (a new document has no port of this mount), Go is
  // told "leaving".
  function checkLeft(m) {
    const id = ++pingSeq;
    const left = () => {
      if (m.dead || m.ping !== id || mount !== m) return;
      m.ping = 0;
      // While a patch is in flight Go waits on the patch's revision and nonce: the navigation fails it.
      const r = m.patch || m;
      queue({ type: T.leaving, revision: r.revision, nonce: r.nonce, url: "" }, true);
    };
    m.ping = id;
    if (!m.port) { left(); return; }
    try { m.port.postMessage({ type: T.ping, id }); } catch (e) { left(); return; }
    setTimeout(left, PING_WAIT_MS);
  }

  // The frame exists from the start with an empty document of ours, so the sandboxed frame's
  // renderer process is started while the studio boots; once that document has loaded (and
  // only then: its load event must not be counted for a mount) the first mount reuses it.
  const first = newFrame();
  first.addEventListener("load", () => { first.__idle = true; }, { once: true });
  first.srcdoc = "<!doctype html><title>Preview</title>";
  host.replaceChildren(first);

  return {
    // mount(revision, nonce, html[, fresh[, quirks]]): show the compiled document of one mount.
    // A fresh element unless the previous mount is known done (see above); "fresh" from Go
    // (Refresh, or a previous mount that never answered) is implied by that rule. quirks: load
    // html from a blob: URL in a fresh element (see "Quirks mode" above).
    mount(revision, nonce, html, fresh, quirks) {
      const prev = mount;
      picking = false;
      drawHover(null);
      endMount(prev);
      // The frame is reused only when its document is known to be done: never mounted (the
      // initial empty frame), or its mount was acknowledged (ready) after its one load. A
      // mount that failed, timed out, left or is still loading gets a fresh element: a stuck
      // or hostile document is discarded, and no load event of it can be mistaken for the
      // next document's.
      const reuse = !quirks && !!frame && frame.isConnected && !frame.__blob && (prev ? !fresh && prev.frame === frame && prev.settled && prev.loads === 1 : frame === first && first.__idle === true);
      const m = { revision, nonce, port: null, count: 0, bytes: 0, loads: 0, dead: false, settled: false, frame: null, url: "", ping: 0, times: { mount: performance.now(), reused: reuse } };
      mounts.push(m.times);
      if (mounts.length > 20) mounts.shift();
      mount = m;
      listen(true);
      const f = reuse ? frame : newFrame();
      m.frame = f;
      if (quirks) {
        m.url = URL.createObjectURL(new Blob([html], { type: "text/html;charset=utf-8" }));
        f.__blob = true;
        f.src = m.url;
      } else f.srcdoc = html;
      if (!reuse) host.replaceChildren(f);
    },
    // patch(fromRevision, fromNonce, revision, nonce, patchJSON): apply a CSS-only change
    // (preview.StylePatch JSON: {styles, files}) to the running document of mount (fromRevision,
    // fromNonce) as revision/nonce, when that mount is the current one, acknowledged after its
    // one load, without an error and without another patch in flight. Returns whether it was
    // posted (false: Go mounts instead).
    patch(fromRevision, fromNonce, revision, nonce, patchJSON) {
      const m = mount;
      if (!m || m.dead || !m.port || !m.settled || m.failed || m.loads !== 1 || m.patch || m.frame !== frame ||
          !frame || !frame.isConnected || m.revision !== fromRevision || m.nonce !== fromNonce) return false;
      let p;
      try { p = JSON.parse(patchJSON); } catch (e) { return false; }
      const times = { mount: performance.now(), reused: true, inPlace: true };
      const pt = { id: ++patchSeq, revision, nonce, times };
      try { m.port.postMessage({ type: T.patch, id: pt.id, revision, styles: p.styles, files: p.files }); } catch (e) { return false; }
      m.patch = pt;
      mounts.push(times);
      if (mounts.length > 20) mounts.shift();
      return true;
    },
    // discard(): replace the frame with a fresh empty one (after an ack timeout); messages of
    // the discarded mount are no longer accepted.
    discard() {
      picking = false;
      drawHover(null);
      endMount(mount);
      mount = null;
      listen(false);
      host.replaceChildren(newFrame());
    },
    // attach(callback): callback(json) receives every accepted batch (a JSON array).
    attach(callback) {
      deliver = callback;
      while (early.length) callback(early.shift());
    },
    // audit(revision, nonce, limitsJSON, done): run the accessibility audit in the current
    // document when it is that mount's, acknowledged (ready, or an error — then from its load on), and
    // still the first document of its frame; done(kind, text) is called once: ("reply", reply JSON — "" when the reply was
    // unserialisable or over MAX_AUDIT_BYTES), ("superseded", "") when the mount is not that
    // one or ends first, ("no-engine", "") when axe-core could not be fetched. Returns the
    // request id (0 when done was already called) for cancelAudit.
    audit(revision, nonce, limitsJSON, done) {
      const m = mount;
      if (!m || m.dead || !m.port || !(m.settled || m.failed) || m.loads > 1 || m.revision !== revision || m.nonce !== nonce) {
        done("superseded", "");
        return 0;
      }
      const id = ++auditSeq;
      const a = { m, done, limitsJSON, waiting: m.loads === 0 };
      audits.set(id, a);
      // A page whose script threw is acknowledged (its error) as soon as the error is
      // reported, which may be before its load event: the audit then starts at that load
      // (onLoad), so it sees the finished document; a second load ends the mount first.
      if (!a.waiting) startAudit(id, a);
      return id;
    },
    // setDevice(width, height): give the frame a layout viewport of width × height CSS pixels,
    // scaled down (CSS transform, never up) to fit the pane, which a ResizeObserver follows;
    // (0, 0): the frame fills the pane (desktop). The scale is shown in #device-scale. The
    // rule lives on the host element, so every fresh frame of later mounts gets it too.
    setDevice(width, height) {
      device = width > 0 && height > 0 ? { w: width, h: height } : null;
      if (device && !resizer && typeof ResizeObserver === "function") { resizer = new ResizeObserver(fit); resizer.observe(host); }
      fit();
    },
    // deviceScale(): the scale applied now (1 without a device size).
    deviceScale() { return scale; },
    // cancelAudit(id): forget a pending audit (its done is never called).
    cancelAudit(id) { audits.delete(id); },
    // idbSource(): the IndexedDB shim's source text ("" until fetched or when absent).
    idbSource() { return idb; },
    // timings(): {mount, hello, load, ack} (performance.now ms) of the last 20 mounts; a patch
    // (inPlace: true) has {mount, ack} (no ack when refused: refused true).
    timings() { return mounts.slice(); },
    // inspect(id, selector): ask the current mount's bridge to describe the first element
    // selector matches; the answer is a selection message with the same id. False when the
    // mount has no port (not started, ended).
    inspect(id, selector) { return post(mount, { type: INSPECT, id, selector: String(selector) }); },
    // pick(on): enter or leave pick mode in the current mount; false when it has no port.
    pick(on) {
      const ok = post(mount, { type: PICK, on: on === true });
      picking = ok && on === true;
      if (!picking) drawHover(null);
      return ok;
    },
    // frame(): the iframe element (tests and the full-screen toggle).
    frame() { return frame; },
  };
}
