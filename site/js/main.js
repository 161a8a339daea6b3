// main.js — boots the studio: installs the preview bridge and the editor widget, streams and
// starts the Go core, and registers the service worker. Everything else (UI, state, tools)
// lives in Go.
import { createPreviewBridge } from "./preview-bridge.js";
import { createEditor } from "./editor.js";
import { isFramed, refuseFramed, runCore, registerServiceWorker } from "./core.js";
import "./folder.js"; // File System Access shim of the folder feature (issue 8)
import "./morph.js"; // webcodingMorph: the keyed DOM morph of the Go-drawn regions (issue 15)

// Framed by another page (top !== self): refuse to run rather than frame-bust (core.js). Nothing
// starts — no core, no preview, no editor, no service worker — and the page says why.
export const framed = isFramed();
if (framed) {
  refuseFramed("Web Coding Studio");
} else {
  start();
}

// start boots the studio (not framed).
function start() {
  const timings = (globalThis.webcodingTimings = globalThis.webcodingTimings || {});
  timings.scriptStart = performance.now();

  globalThis.webcodingPreview = createPreviewBridge(document.getElementById("preview-host"));
  globalThis.webcodingEditor = createEditor(document.getElementById("editor-host"));

  function showFailure(text) {
    const el = document.getElementById("status-text");
    if (el) { el.textContent = text; el.classList.remove("loading"); }
    document.body.dataset.state = "failed";
  }

  runCore(timings, () => showFailure("The studio core stopped. Reload the page."))
    .catch((err) => showFailure("The studio core could not start: " + err));

  // The recipes menu closes once a recipe is chosen (Go runs it) and focus goes to the prompt,
  // where the run shows.
  document.addEventListener("click", (e) => {
    const recipe = e.target instanceof Element && e.target.closest("#recipes-menu .recipe");
    if (!recipe) return;
    const menu = document.getElementById("recipes-menu");
    setTimeout(() => { menu.open = false; document.getElementById("prompt").focus(); }, 0);
  });

  // A new deployment: the new service worker takes control (skipWaiting + clients.claim) of a
  // page that already had one. Go shows the "Reload studio" prompt (webcoding:update event).
  registerServiceWorker("sw.js");
}
