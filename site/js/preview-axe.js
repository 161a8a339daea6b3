// preview-axe.js — the accessibility audit engine of the preview (preview.audit, issue 17):
// the npm package axe-core (pinned in site/package.json). host/sitebuild bundles this file as a
// classic script (IIFE); the studio fetches its text only when the first audit is asked
// (preview-bridge.js) and posts it over the mount's port; the preview runtime evaluates it in
// the frame. It is never part of a compiled document and never goes into the wasm.
import axe from "axe-core";

globalThis.axe = axe;
