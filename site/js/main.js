// main.js — boots the studio: installs the preview bridge and the editor widget, streams and
// starts the Go core, and registers the service worker. Everything else (UI, state, tools)
// lives in Go.
import { createPreviewBridge } from "./preview-bridge.js";
import { createEditor } from "./editor.js";
import "./folder.js"; // File System Access shim of the folder feature (issue 8)
import "./morph.js"; // webcodingMorph: the keyed DOM morph of the Go-drawn regions (issue 15)

const timings = (globalThis.webcodingTimings = globalThis.webcodingTimings || {});
timings.scriptStart = performance.now();

globalThis.webcodingPreview = createPreviewBridge(document.getElementById("preview-host"));
globalThis.webcodingEditor = createEditor(document.getElementById("editor-host"));

function showFailure(text) {
  const el = document.getElementById("status-text");
  if (el) { el.textContent = text; el.classList.remove("loading"); }
  document.body.dataset.state = "failed";
}

async function boot() {
  const url = document.querySelector('meta[name="webcoding-wasm"]').content;
  if (typeof Go !== "function") {
    await new Promise((resolve) => window.addEventListener("DOMContentLoaded", resolve, { once: true }));
  }
  const go = new Go();
  let result;
  if (WebAssembly.instantiateStreaming) {
    result = await WebAssembly.instantiateStreaming(fetch(url), go.importObject);
  } else {
    const bytes = await (await fetch(url)).arrayBuffer();
    result = await WebAssembly.instantiate(bytes, go.importObject);
  }
  timings.wasmInstantiated = performance.now();
  go.run(result.instance).then(() => showFailure("The studio core stopped. Reload the page."));
}

boot().catch((err) => showFailure("The studio core could not start: " + err));

// A new deployment: the new service worker takes control (skipWaiting + clients.claim) of a
// page that already had one. Go shows the "Reload studio" prompt (webcoding:update event; the
// flag covers an update that lands before the core is up).
if ("serviceWorker" in navigator && location.protocol !== "file:") {
  let controlled = !!navigator.serviceWorker.controller; // the first install is not an update
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    const update = controlled;
    controlled = true;
    if (!update) return;
    globalThis.webcodingUpdateReady = true;
    window.dispatchEvent(new Event("webcoding:update"));
  });
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("sw.js")
      .then((reg) => reg.update())
      .catch((err) => console.warn("service worker:", err));
  });
}
