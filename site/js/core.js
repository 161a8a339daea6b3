// core.js — what every page of the site does to run the Go core: refuse to run inside another
// page, instantiate a wasm module with wasm_exec.js's Go runtime, fail the calls a stopped core
// can no longer answer, and register the service worker that keeps the site offline. Used by
// the studio (main.js) and by the surface pages (surface.js).

// isFramed: the page is inside another page (top !== self, or top is unreadable).
export function isFramed() {
  try { return window.top !== window.self; } catch { return true; }
}

// refuseFramed replaces the body with a notice and marks it "framed". A page that holds the
// user's API key refuses to run framed rather than frame-busting: a <meta> policy cannot carry
// frame-ancestors, so a framing page could overlay it (clickjacking).
export function refuseFramed(name) {
  document.body.dataset.state = "framed";
  const p = document.createElement("p");
  p.id = "framed-notice";
  p.setAttribute("role", "alert");
  p.className = "framed-notice";
  p.textContent = name + " does not run inside another page. Open it in its own tab: " + location.href;
  document.body.replaceChildren(p);
}

// runCore instantiates the module named by <meta name="webcoding-wasm"> and runs it. When the
// Go program ends, onStop is called and every call still waiting on it (jsbridge.Promise keeps
// them in globalThis.__webcodingPending until they settle) is rejected, so no caller waits on a
// core that stopped. It resolves once the module runs; it rejects when it cannot start.
export async function runCore(timings, onStop) {
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
    onStop();
    const pending = globalThis.__webcodingPending;
    if (pending) {
      for (const [, [, reject]] of pending) reject(new Error("the studio core stopped (see the console); reload the page"));
      pending.clear();
    }
  });
}

// registerServiceWorker registers the site's service worker (sw.js at the site's root, whose
// scope covers every page of the site) once the page has loaded. A new deployment taking
// control of a page that already had a worker dispatches "webcoding:update" on window (and
// sets globalThis.webcodingUpdateReady for a core that is not up yet).
export function registerServiceWorker(swURL) {
  if (!("serviceWorker" in navigator) || location.protocol === "file:") return;
  let controlled = !!navigator.serviceWorker.controller; // the first install is not an update
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    const update = controlled;
    controlled = true;
    if (!update) return;
    globalThis.webcodingUpdateReady = true;
    window.dispatchEvent(new Event("webcoding:update"));
  });
  window.addEventListener("load", () => {
    navigator.serviceWorker.register(swURL)
      .then((reg) => reg.update())
      .catch((err) => console.warn("service worker:", err));
  });
}
