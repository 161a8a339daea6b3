// folder.js — the File System Access shim of the folder feature (issue 8). It only reaches what
// Go cannot reach well: the directory picker, walking/reading/writing/removing through handles,
// and permission queries. Every call takes the root directory handle from Go (wasm/adapters/fsa)
// and answers a Promise; failures reject with an Error whose `kind` is one of
//   "stale"       the root directory itself is gone (NotFoundError on the root)
//   "missing"     the file (or a parent folder) does not exist in a reachable root
//   "permission"  readwrite permission is not granted
//   "not-a-file"  a directory is where a file should be, or a file where a folder should be
//   "escapes"     the path is not a plain relative path ("", ".", ".." segments)
//   "failed"      anything else (for writes: the outcome is unknown)
// Handles never leave the parent page: nothing here posts them anywhere.
//
// Test hook (globalThis.webcodingFolderTest, used by e2e/browser/folder_test.go only):
//   inject(handle)        the next pick() returns handle instead of showing the picker
//   permission(state)     queryPermission reports state ("prompt"/"denied"; null clears) and
//                         reads/writes are refused while it is not "granted"
//   requestResult(state)  what requestPermission answers (default "granted", which clears
//                         a forced state)
//   failAfter(k, mode)    after k more successful writes/removes, the next one fails:
//                         "throw-before" (nothing written), "throw-after" (written, then an
//                         error) or "hang" (never settles; for a page reload mid-save)
//   (sessionStorage "webcodingFolderTest.permission" forces a state from page load on)
//   noPicker(bool)        pretend showDirectoryPicker is missing (directory-upload fallback)
//   log                   ["write:path" | "remove:path", …] of completed operations
//   reset()               clears all of the above

const test = {
  queue: [],
  forced: null,
  request: "granted",
  fail: null,
  noPicker: false,
  log: [],
};

// A test may force the permission across a page reload (sessionStorage, this tab only).
try {
  const forced = sessionStorage.getItem("webcodingFolderTest.permission");
  if (forced) test.forced = forced;
} catch (_) { /* no sessionStorage */ }

globalThis.webcodingFolderTest = {
  inject(handle) { test.queue.push(handle); },
  permission(state) { test.forced = state || null; },
  requestResult(state) { test.request = state || "granted"; },
  failAfter(k, mode) { test.fail = { left: k, mode: mode || "throw-before" }; },
  noPicker(on) { test.noPicker = !!on; },
  get log() { return test.log.slice(); },
  reset() { test.queue = []; test.forced = null; test.request = "granted"; test.fail = null; test.noPicker = false; test.log = []; },
};

function folderError(kind, message) {
  const e = new Error(message);
  e.kind = kind;
  return e;
}

function split(path) {
  if (typeof path !== "string") throw folderError("escapes", "path is not a string");
  const parts = path.split("/");
  for (const p of parts) {
    if (p === "" || p === "." || p === "..") throw folderError("escapes", "not a plain relative path: " + path);
  }
  return parts;
}

// rootAlive reports whether the root directory is still reachable.
async function rootAlive(root) {
  try {
    // eslint-disable-next-line no-unused-vars
    for await (const _ of root.keys()) break;
    return true;
  } catch (e) {
    if (e && e.name === "NotFoundError") return false;
    throw e;
  }
}

async function classify(root, e) {
  if (e && e.kind) return e;
  const name = e && e.name;
  const msg = (e && e.message) || String(e);
  if (name === "NotFoundError") {
    let alive = true;
    try { alive = await rootAlive(root); } catch (_) { /* keep missing */ }
    return folderError(alive ? "missing" : "stale", msg);
  }
  if (name === "TypeMismatchError") return folderError("not-a-file", msg);
  if (name === "NotAllowedError" || name === "SecurityError") return folderError("permission", msg);
  return folderError("failed", msg);
}

function checkForced() {
  if (test.forced && test.forced !== "granted") throw folderError("permission", "readwrite permission is " + test.forced);
}

async function parentDir(root, parts, create) {
  let dir = root;
  for (const p of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(p, { create });
  return dir;
}

async function permission(handle, request) {
  if (test.forced) {
    if (!request) return test.forced;
    if (test.request === "granted") test.forced = null;
    return test.request;
  }
  const fn = request ? handle.requestPermission : handle.queryPermission;
  if (typeof fn !== "function") return "granted";
  try {
    return await fn.call(handle, { mode: "readwrite" });
  } catch (e) {
    return "prompt";
  }
}

// walk lists the files under root in a stable order (names sorted per folder), not entering
// dot-folders or node_modules (the importer drops those anyway), and stops after max entries.
async function walk(root, max) {
  checkForced();
  const entries = [];
  const skippedFolders = [];
  let truncated = false;
  async function visit(dir, prefix) {
    const kids = [];
    try {
      for await (const [name, h] of dir.entries()) kids.push([name, h]);
    } catch (e) {
      throw await classify(root, e);
    }
    kids.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (const [name, h] of kids) {
      if (entries.length >= max) { truncated = true; return; }
      const path = prefix + name;
      if (h.kind === "directory") {
        if (name.startsWith(".") || name === "node_modules") { skippedFolders.push(path); continue; }
        await visit(h, path + "/");
        if (truncated) return;
      } else {
        let file;
        try { file = await h.getFile(); } catch (e) { continue; }
        entries.push({ path, size: file.size, file });
      }
    }
  }
  await visit(root, "");
  return { entries, skippedFolders, truncated };
}

async function read(root, path) {
  checkForced();
  const parts = split(path);
  try {
    const dir = await parentDir(root, parts, false);
    const fh = await dir.getFileHandle(parts[parts.length - 1]);
    const file = await fh.getFile();
    return new Uint8Array(await file.arrayBuffer());
  } catch (e) {
    throw await classify(root, e);
  }
}

async function injected(op, path) {
  const f = test.fail;
  if (!f) return "";
  if (f.left > 0) { f.left--; return ""; }
  test.fail = null;
  if (f.mode === "hang") await new Promise(() => {});
  return f.mode;
}

async function write(root, path, bytes) {
  checkForced();
  const parts = split(path);
  const mode = await injected("write", path);
  if (mode === "throw-before") throw folderError("failed", "injected failure before writing " + path);
  try {
    const dir = await parentDir(root, parts, true);
    const fh = await dir.getFileHandle(parts[parts.length - 1], { create: true });
    const w = await fh.createWritable();
    await w.write(bytes);
    await w.close();
  } catch (e) {
    throw await classify(root, e);
  }
  test.log.push("write:" + path);
  if (mode === "throw-after") throw folderError("failed", "injected failure after writing " + path);
}

// remove deletes a file; an absent file (or parent) is success — but only after checking that
// the root itself is still there (a vanished root is "stale", never a successful delete).
async function remove(root, path) {
  checkForced();
  const parts = split(path);
  const mode = await injected("remove", path);
  if (mode === "throw-before") throw folderError("failed", "injected failure before removing " + path);
  if (!(await rootAlive(root))) throw folderError("stale", "the folder is gone");
  try {
    const dir = await parentDir(root, parts, false);
    await dir.removeEntry(parts[parts.length - 1]);
    await pruneEmpty(root, parts.slice(0, -1));
  } catch (e) {
    if (!(e && e.name === "NotFoundError")) {
      const c = await classify(root, e);
      if (c.kind !== "missing") throw c;
    } else if (!(await rootAlive(root))) {
      throw folderError("stale", "the folder is gone");
    }
  }
  test.log.push("remove:" + path);
  if (mode === "throw-after") throw folderError("failed", "injected failure after removing " + path);
}

// pruneEmpty removes the folders of dirParts a delete left empty (a rename's old folder),
// deepest first and never the root; best effort: a folder that still holds an entry, or that
// cannot be listed or removed, ends it.
async function pruneEmpty(root, dirParts) {
  for (let n = dirParts.length; n > 0; n--) {
    try {
      let parent = root;
      for (const p of dirParts.slice(0, n - 1)) parent = await parent.getDirectoryHandle(p);
      const dir = await parent.getDirectoryHandle(dirParts[n - 1]);
      for await (const _ of dir.keys()) return; // not empty
      await parent.removeEntry(dirParts[n - 1]);
    } catch {
      return;
    }
  }
}

async function pick() {
  if (test.queue.length > 0) return test.queue.shift();
  if (typeof globalThis.showDirectoryPicker !== "function" || test.noPicker) {
    throw folderError("failed", "this browser cannot open folders (no showDirectoryPicker)");
  }
  try {
    return await globalThis.showDirectoryPicker({ id: "webcoding-workspace", mode: "readwrite" });
  } catch (e) {
    if (e && e.name === "AbortError") return null;
    throw e;
  }
}

function hasPicker() {
  if (test.queue.length > 0) return true;
  return !test.noPicker && typeof globalThis.showDirectoryPicker === "function";
}

globalThis.webcodingFolder = {
  hasPicker,
  pick,
  permission,
  walk,
  read,
  write,
  remove,
  rootAlive,
};
