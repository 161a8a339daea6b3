// main.js — boots the studio: installs the preview bridge and the editor widget, streams and
// starts the Go core, and registers the service worker. Everything else (UI, state, tools)
// lives in Go.
import { createPreviewBridge } from "./preview-bridge.js";
import { createEditor } from "./editor.js";
import "./folder.js"; // File System Access shim of the folder feature (issue 8)
import "./morph.js"; // webcodingMorph: the keyed DOM morph of the Go-drawn regions (issue 15)

// Framed by another page (top !== self): refuse to run rather than frame-bust. The studio
// holds the user's API key and a <meta> policy cannot carry frame-ancestors, so a framing
// page could overlay it (clickjacking); nothing starts — no core, no preview, no editor, no
// service worker — and the page says why.
export const framed = (() => { try { return window.top !== window.self; } catch { return true; } })();
if (framed) {
  document.body.dataset.state = "framed";
  const p = document.createElement("p");
  p.id = "framed-notice";
  p.setAttribute("role", "alert");
  p.className = "framed-notice";
  p.textContent = "Web Coding Studio does not run inside another page. Open it in its own tab: " + location.href;
  document.body.replaceChildren(p);
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
    go.run(result.instance).then(() => {
      showFailure("The studio core stopped. Reload the page.");
      // Calls the core can no longer answer fail now instead of waiting forever
      // (jsbridge.Promise keeps them in this Map until they settle).
      const pending = globalThis.__webcodingPending;
      if (pending) {
        for (const [, [, reject]] of pending) reject(new Error("the studio core stopped (see the console); reload the page"));
        pending.clear();
      }
    });
  }

  boot().catch((err) => showFailure("The studio core could not start: " + err));

  // The recipes menu closes once a recipe is chosen (Go runs it) and focus goes to the prompt,
  // where the run shows.
  document.addEventListener("click", (e) => {
    const recipe = e.target instanceof Element && e.target.closest("#recipes-menu .recipe");
    if (!recipe) return;
    const menu = document.getElementById("recipes-menu");
    setTimeout(() => { menu.open = false; document.getElementById("prompt").focus(); }, 0);
  });

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
}
