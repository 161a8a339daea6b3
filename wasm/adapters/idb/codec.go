//go:build js && wasm

package idb

import (
	"syscall/js"

	"github.com/webcoding/studio/wasm/workspace"
)

// applyOrder returns order without del, with put's new paths appended (in put order).
func applyOrder(order []string, put []*workspace.File, del []string) []string {
	gone := make(map[string]bool, len(del))
	for _, d := range del {
		gone[d] = true
	}
	out := make([]string, 0, len(order)+len(put))
	seen := map[string]bool{}
	for _, p := range order {
		if !gone[p] && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, f := range put {
		if !seen[f.Path] {
			seen[f.Path] = true
			out = append(out, f.Path)
		}
	}
	return out
}

func newObject() js.Value { return js.Global().Get("Object").New() }

func stringArray(list []string) js.Value {
	a := js.Global().Get("Array").New(len(list))
	for i, s := range list {
		a.SetIndex(i, s)
	}
	return a
}

func readStrings(v js.Value) []string {
	if v.Type() != js.TypeObject {
		return nil
	}
	n := v.Length()
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		if e := v.Index(i); e.Type() == js.TypeString {
			out = append(out, e.String())
		}
	}
	return out
}

func str(v js.Value, key string) string {
	if e := v.Get(key); e.Type() == js.TypeString {
		return e.String()
	}
	return ""
}

// encodeMeta builds the "workspaces" record.
func encodeMeta(m workspace.Metadata, order []string) js.Value {
	o := newObject()
	o.Set("rootName", m.RootName)
	o.Set("activePath", m.ActivePath)
	o.Set("revision", float64(m.Revision))
	o.Set("deletedPaths", stringArray(m.DeletedPaths))
	o.Set("order", stringArray(order))
	if m.Instance != "" {
		o.Set("instance", m.Instance) // the workspace instance id (issue 14): a reload stays the same instance
	}
	return o
}

// decodeMeta reads a "workspaces" record; missing fields decode as zero values.
func decodeMeta(v js.Value) (workspace.Metadata, []string) {
	m := workspace.Metadata{RootName: str(v, "rootName"), ActivePath: str(v, "activePath")}
	if r := v.Get("revision"); r.Type() == js.TypeNumber {
		m.Revision = int64(r.Float())
	}
	m.DeletedPaths = readStrings(v.Get("deletedPaths"))
	m.Instance = str(v, "instance")
	return m, readStrings(v.Get("order"))
}

// encodeFile builds a "files" record: text as a string, asset bytes as a Uint8Array.
func encodeFile(f *workspace.File) js.Value {
	o := newObject()
	o.Set("path", f.Path)
	o.Set("kind", f.Kind)
	o.Set("language", f.Language)
	o.Set("mimeType", f.MimeType)
	if f.RenamedFrom != "" {
		o.Set("renamedFrom", f.RenamedFrom)
	}
	if f.Kind == workspace.KindAsset {
		a := js.Global().Get("Uint8Array").New(len(f.Data))
		js.CopyBytesToJS(a, f.Data)
		o.Set("data", a)
	} else {
		o.Set("source", f.Source)
	}
	return o
}

// decodeFile reads a "files" record back through workspace.NewTextFile/NewAssetFile (so
// Size and defaults are recomputed), keeping the stored language and MIME type.
func decodeFile(v js.Value) *workspace.File {
	p := str(v, "path")
	var f *workspace.File
	if str(v, "kind") == workspace.KindAsset {
		var data []byte
		if d := v.Get("data"); d.Type() == js.TypeObject {
			data = make([]byte, d.Get("length").Int())
			js.CopyBytesToGo(data, d)
		}
		f = workspace.NewAssetFile(p, data)
	} else {
		f = workspace.NewTextFile(p, str(v, "source"))
	}
	if l := str(v, "language"); l != "" {
		f.Language = l
	}
	if mt := str(v, "mimeType"); mt != "" {
		f.MimeType = mt
	}
	f.RenamedFrom = str(v, "renamedFrom")
	return f
}
