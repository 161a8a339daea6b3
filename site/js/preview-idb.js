// preview-idb.js — the preview's IndexedDB (issue 13): the npm package fake-indexeddb (pinned
// in site/package.json), an in-memory implementation, installed on the preview frame's global
// object. host/sitebuild bundles this file as a classic script (IIFE); the studio fetches its
// text once (main.js) and the preview runtime evaluates it in the frame before any page code,
// only when the page's code mentions indexedDB (an opaque-origin frame's own indexedDB throws
// SecurityError).
import "fake-indexeddb/auto";
