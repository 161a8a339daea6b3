// surface.js — boots a page of the other two surfaces (issue 18): the Live Code Editor
// (live/) and realtime web coding (realtime/). The same preview bridge, editor widget, folder
// shim and morph as the studio; the Go core is surface.wasm (wasm/cmd/surface), which reads
// <meta name="webcoding-surface"> and draws every region. The page's <base> is the site root,
// so assets and the service worker resolve as they do for the studio.
import { createPreviewBridge } from "./preview-bridge.js";
import { createEditor } from "./editor.js";
import { isFramed, refuseFramed, runCore, registerServiceWorker } from "./core.js";
import "./folder.js";
import "./morph.js";

if (isFramed()) {
  refuseFramed(document.title);
} else {
  const timings = (globalThis.webcodingTimings = globalThis.webcodingTimings || {});
  timings.scriptStart = performance.now();
  globalThis.webcodingPreview = createPreviewBridge(document.getElementById("preview-host"));
  globalThis.webcodingEditor = createEditor(document.getElementById("editor-host"));
  const showFailure = (text) => {
    const el = document.getElementById("surface-status");
    if (el) el.textContent = text;
    document.body.dataset.state = "failed";
  };
  runCore(timings, () => showFailure("The core stopped. Reload the page."))
    .catch((err) => showFailure("The core could not start: " + err));
  registerServiceWorker("sw.js");
}
