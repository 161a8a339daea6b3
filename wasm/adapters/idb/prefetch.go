//go:build js && wasm

package idb

import (
	"context"
	"reflect"
	"syscall/js"
	"time"
)

// PrefetchGlobal is the global under which the studio's shim leaves its early read of the
// workspace database (site/js/core.js prefetchWorkspace, started while the wasm module
// compiles): a Promise that never rejects and resolves to {meta, keys, values} — the
// "workspaces" record "current" (undefined when nothing is stored) and, when it exists, every
// key and value of "files", all read in ONE readonly transaction — or to {error: string}.
const PrefetchGlobal = "__webcodingWorkspacePrefetch"

// prefetchWait bounds how long the first Load waits for the shim's read before reading itself.
const prefetchWait = 3 * time.Second

// UsePrefetch makes the first Load take the shim's early read left under the global name
// (PrefetchGlobal) instead of reading every file again. The early read is used only when it is
// still current: Load reads the "current" record in its own transaction as always and takes
// the prefetched files only when that record decodes to exactly the prefetched one (same
// revision, order, active path, deletions, instance), which every write of the repository
// changes (SaveChanges and SaveSnapshot write it in the same transaction as the files, with a
// revision the workspace raises on every change). A missing global, a prefetch that failed
// ({error}), that is not settled within 3 s, or that is stale: Load reads everything itself,
// exactly as without UsePrefetch, so a read error is reported as before. The global is taken
// once (deleted) by the first Load. Call before the first Load.
func (r *Repository) UsePrefetch(global string) {
	r.mu.Lock()
	r.prefetch = global
	r.mu.Unlock()
}

// prefetched is the shim's read: the meta record and the files by key.
type prefetched struct {
	meta  js.Value
	files map[string]js.Value
}

// takePrefetch takes (and deletes) the global and waits for it; ok is false when there is
// nothing usable. It must run outside any transaction (awaiting a Promise inside one lets it
// commit, PLATFORM rule 3). Callers hold r.mu.
func (r *Repository) takePrefetch(ctx context.Context) (p prefetched, ok bool) {
	name := r.prefetch
	r.prefetch = ""
	if name == "" {
		return p, false
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	g := js.Global()
	pr := g.Get(name)
	g.Delete(name)
	if pr.Type() != js.TypeObject || pr.Get("then").Type() != js.TypeFunction {
		return p, false
	}
	ch := make(chan js.Value, 1)
	var f js.Func
	f = js.FuncOf(func(_ js.Value, args []js.Value) any {
		v := js.Undefined()
		if len(args) > 0 {
			v = args[0]
		}
		ch <- v
		f.Release() // called once: then's callbacks run at most once
		return nil
	})
	pr.Call("then", f)
	ctx, cancel := context.WithTimeout(ctx, prefetchWait)
	defer cancel()
	var v js.Value
	select {
	case v = <-ch:
	case <-ctx.Done():
		return p, false
	}
	if v.Type() != js.TypeObject || !v.Get("error").IsUndefined() {
		return p, false
	}
	p.meta = v.Get("meta")
	p.files = map[string]js.Value{}
	keys, values := v.Get("keys"), v.Get("values")
	if keys.Type() == js.TypeObject && values.Type() == js.TypeObject {
		n := min(keys.Length(), values.Length())
		for i := 0; i < n; i++ {
			if k := keys.Index(i); k.Type() == js.TypeString {
				p.files[k.String()] = values.Index(i)
			}
		}
	}
	return p, true
}

// current reports whether the prefetched meta record is the one Load just read (mv).
func (p prefetched) current(mv js.Value) bool {
	if p.meta.Type() != js.TypeObject || mv.Type() != js.TypeObject {
		return false
	}
	m1, o1 := decodeMeta(p.meta)
	m2, o2 := decodeMeta(mv)
	return reflect.DeepEqual(m1, m2) && reflect.DeepEqual(o1, o2)
}
