// 40-storage.js — Web Storage and cookies, which throw SecurityError in an opaque-origin
// frame: localStorage, sessionStorage and the cookie jar start from CFG.storage (the
// workspace's stored preview storage) and every change is sent to the parent, which keeps it
// per workspace.
// Changes are coalesced per area and sent at most once per L.storageFlushMs as {type, area,
// clear, set: {key: value or null}}. No pagehide/unload listener: one would stop Chromium from
// ending the frame's process at once when the studio discards a frame stuck in a loop, and the
// next frame, placed in that process, would hang too. Changes of the last interval before the
// document goes away are lost.
var storagePending = create(null), storageTimer = 0;
// storageAreas: area → {snap(), put(key, value|null, clear)}, how nested documents share the
// storage (55-frames.js): snap copies an area, put changes it without reporting the change.
var storageAreas = create(null);
function storageChanged(area, k, v, clear) {
  var p = storagePending[area] || (storagePending[area] = { clear: false, set: create(null) });
  if (clear) { p.clear = true; p.set = create(null); } else p.set[k] = v;
  if (!storageTimer) storageTimer = apply(setTimeoutF, W, [flushStorage, L.storageFlushMs]);
}
function flushStorage() {
  storageTimer = 0;
  var areas = keysOf(storagePending);
  for (var i = 0; i < areas.length; i++) {
    var p = storagePending[areas[i]], m = { type: T.storage, area: areas[i], clear: p.clear, set: p.set };
    send(m);
    framesPost(m); // the nested documents of this one (55-frames.js)
  }
  storagePending = create(null);
}
function makeStorage(area, initial, quota) {
  var data = create(null), used = 0;
  if (initial) { var ks = keysOf(initial); for (var i = 0; i < ks.length; i++) { data[ks[i]] = S(initial[ks[i]]); used += ks[i].length + data[ks[i]].length; } }
  storageAreas[area] = {
    snap: function () { var o = create(null), ks = keysOf(data); for (var i = 0; i < ks.length; i++) o[ks[i]] = data[ks[i]]; return o; },
    put: function (k, v, clear) {
      if (clear) { data = create(null); used = 0; return; }
      k = S(k);
      if (apply(hasOwn, data, [k])) { used -= k.length + data[k].length; delete data[k]; }
      if (v === null) return;
      v = S(v); data[k] = v; used += k.length + v.length;
    }
  };
  var api = {
    getItem: function (k) { k = S(k); return apply(hasOwn, data, [k]) ? data[k] : null; },
    setItem: function (k, v) {
      k = S(k); v = S(v);
      var old = apply(hasOwn, data, [k]) ? k.length + data[k].length : 0;
      if (used - old + k.length + v.length > quota) throw new DOMExceptionC("Failed to execute 'setItem' on 'Storage': Setting the value of '" + cut(k, 40) + "' exceeded the quota.", "QuotaExceededError");
      used += k.length + v.length - old;
      data[k] = v;
      storageChanged(area, k, v, false);
    },
    removeItem: function (k) {
      k = S(k);
      if (!apply(hasOwn, data, [k])) return;
      used -= k.length + data[k].length;
      delete data[k];
      storageChanged(area, k, null, false);
    },
    clear: function () { data = create(null); used = 0; storageChanged(area, "", null, true); },
    key: function (i) { var ks = keysOf(data); i = +i; return i >= 0 && i < ks.length ? ks[i] : null; }
  };
  var target = create(W.Storage ? Storage.prototype : Object.prototype);
  return new Proxy(target, {
    get: function (t, k) {
      if (k === "length") return keysOf(data).length;
      if (typeof k === "string" && apply(hasOwn, api, [k])) return api[k];
      if (typeof k === "string" && apply(hasOwn, data, [k])) return data[k];
      if (typeof k === "symbol" || k === "constructor" || k === "toString") return t[k];
      return undefined;
    },
    set: function (t, k, v) { if (typeof k === "string") api.setItem(k, v); return true; },
    has: function (t, k) { return typeof k === "string" && (apply(hasOwn, data, [k]) || apply(hasOwn, api, [k]) || k === "length"); },
    deleteProperty: function (t, k) { api.removeItem(k); return true; },
    ownKeys: function () { return keysOf(data); },
    getOwnPropertyDescriptor: function (t, k) {
      if (typeof k === "string" && apply(hasOwn, data, [k])) return { value: data[k], writable: true, enumerable: true, configurable: true };
      return undefined;
    }
  });
}
var storageInit = CFG.storage || {};
var localStore = makeStorage("local", storageInit.local, L.storage), sessionStore = makeStorage("session", storageInit.session, L.storage);
try { defineProperty(W, "localStorage", { configurable: true, enumerable: true, get: function () { return localStore; } }); } catch (e) {}
try { defineProperty(W, "sessionStorage", { configurable: true, enumerable: true, get: function () { return sessionStore; } }); } catch (e) {}

// document.cookie: name=value pairs, kept like sessionStorage (area "cookie": CFG.storage.cookie
// at start, every change sent to the parent), so a cookie set on one workspace page is read on
// the next, as over HTTP. Max-Age<=0 or a past Expires deletes. As Chromium does, a cookie
// whose name and value pass L.cookieBytes is ignored, and past L.cookies cookies the oldest
// is dropped. Path, Domain, Secure and SameSite are ignored: the workspace is one origin.
var jar = create(null), jarInit = storageInit.cookie;
if (jarInit) { var jk = keysOf(jarInit); for (var ji = 0; ji < jk.length && ji < L.cookies; ji++) jar[jk[ji]] = S(jarInit[jk[ji]]); }
storageAreas.cookie = {
  snap: function () { var o = create(null), ks = keysOf(jar); for (var i = 0; i < ks.length; i++) o[ks[i]] = jar[ks[i]]; return o; },
  put: function (k, v, clear) {
    if (clear) { jar = create(null); return; }
    k = S(k);
    if (v === null) { delete jar[k]; return; }
    if (!apply(hasOwn, jar, [k]) && keysOf(jar).length >= L.cookies) delete jar[keysOf(jar)[0]];
    jar[k] = S(v);
  }
};
try {
  defineProperty(D, "cookie", { configurable: true, enumerable: true,
    get: function () {
      var out = [], ks = keysOf(jar);
      for (var i = 0; i < ks.length; i++) out[out.length] = ks[i] === "" ? jar[ks[i]] : ks[i] + "=" + jar[ks[i]];
      return apply(join, out, ["; "]);
    },
    set: function (v) {
      var parts = apply(splitStr, S(v), [";"]), first = parts[0], eq = apply(indexOf, first, ["="]);
      var name = apply(trim, eq < 0 ? "" : apply(slice, first, [0, eq]), []), value = apply(trim, eq < 0 ? first : apply(slice, first, [eq + 1]), []);
      if (name.length + value.length > L.cookieBytes) return;
      var del = false;
      for (var i = 1; i < parts.length; i++) {
        var a = apply(trim, parts[i], []), al = apply(toLower, a, []);
        if (apply(indexOf, al, ["max-age="]) === 0 && +apply(slice, a, [8]) <= 0) del = true;
        if (apply(indexOf, al, ["expires="]) === 0) { var t = Date.parse(apply(slice, a, [8])); if (t === t && t <= Date.now()) del = true; }
      }
      if (del) {
        if (!apply(hasOwn, jar, [name])) return;
        delete jar[name];
        storageChanged("cookie", name, null, false);
        return;
      }
      if (!apply(hasOwn, jar, [name])) {
        var ks = keysOf(jar);
        if (ks.length >= L.cookies) { delete jar[ks[0]]; storageChanged("cookie", ks[0], null, false); }
      }
      jar[name] = value;
      storageChanged("cookie", name, value, false);
    } });
} catch (e) {}

// indexedDB: the in-memory shim (npm fake-indexeddb), present only when the page's code uses
// indexedDB; evaluated in global scope, it defines indexedDB, IDBKeyRange, … on the window.
// Databases live for the life of the document (not persisted across mounts).
if (CFG.idb) { try { (0, eval)(CFG.idb); } catch (e) { report("limit", "indexedDB", "the IndexedDB shim failed to start: " + S(e && e.message)); } }
