package views

import (
	"encoding/hex"
	"hash/fnv"
	"sort"
	"strings"

	. "github.com/webcoding/studio/wasm/ui/markup"
)

// FileID is a stable element id for a workspace path ("file-" + FNV-64a of the path, hex), so
// focus and the morph's identity survive re-renders.
func FileID(p string) string {
	h := fnv.New64a()
	h.Write([]byte(p))
	return "file-" + hex.EncodeToString(h.Sum(nil))
}

// TabID is the element id of path's editor tab.
func TabID(p string) string { return "tab-" + strings.TrimPrefix(FileID(p), "file-") }

// FolderID is a folder's element id in the explorer (distinct from any file's).
func FolderID(p string) string { return "dir-" + strings.TrimPrefix(FileID(p+"/"), "file-") }

// Tab is one editor tab.
type Tab struct {
	ID, Path, Name string
	Active, Dirty  bool
}

// TabsHTML is #editor-tabs: a WAI-ARIA tablist (empty without tabs). Roving tabindex is set
// by the glue after the morph; every tab starts at tabindex -1.
func TabsHTML(list []Tab) HTML {
	if len(list) == 0 {
		return ""
	}
	var b Builder
	b.Open("div", A("class", "tabs"), A("role", "tablist"), A("id", "tablist"), A("aria-label", "Open files"))
	for _, t := range list {
		cls := "tab"
		if t.Active {
			cls += " active"
		}
		b.Open("div", A("class", cls), A("role", "presentation"))
		b.Open("button", A("type", "button"), A("role", "tab"), A("class", "tab-button"), A("id", t.ID),
			Bool("aria-selected", t.Active), A("aria-controls", "editor-host"), A("tabindex", "-1"),
			A("data-action", "tab-open"), A("data-path", t.Path), A("title", t.Path))
		b.Text(t.Name)
		if t.Dirty {
			b.Elem("span", "•", A("class", "dirty"), A("aria-hidden", "true"))
			b.Elem("span", " (unsaved changes)", A("class", "visually-hidden"))
		}
		b.Close("button")
		b.Elem("button", "×", A("type", "button"), A("class", "tab-close"), A("id", t.ID+"-close"), A("tabindex", "-1"),
			A("data-action", "tab-close"), A("data-path", t.Path), A("aria-label", "Close tab "+t.Path), A("title", "Close (Delete)"))
		b.Close("div")
	}
	b.Close("div")
	return b.HTML()
}

// TreeFile is one workspace.listFiles row the explorer needs.
type TreeFile struct {
	Path  string
	Dirty bool
	Draft bool // an over-budget draft of the file is kept in this browser (issue 14)
}

// TreeNode is one explorer item.
type TreeNode struct {
	ID       string // element id (stable per path: focus survives re-renders)
	Path     string // file path, or folder path without a trailing "/"
	Name     string // last path segment
	Folder   bool
	Level    int // aria-level, 1 for top-level items
	Expanded bool
	Active   bool // the workspace's active file
	Dirty    bool // a file changed since the last save; a folder holding one
	Draft    bool // a file with an over-budget draft kept in this browser (not yet saved)
	Children []*TreeNode
}

// BuildTree nests the flat paths (already normalized by the workspace: "/"-separated, no
// empty, "." or ".." segments) into folders and files, folders first, each level sorted by
// name (case-insensitive). Collapsed folders have no rendered children but still count
// their dirty files.
func BuildTree(files []TreeFile, active string, collapsed map[string]bool) []*TreeNode {
	root := &TreeNode{Expanded: true}
	folders := map[string]*TreeNode{"": root}
	var folder func(p string) *TreeNode
	folder = func(p string) *TreeNode {
		if n, ok := folders[p]; ok {
			return n
		}
		parentPath, name := "", p
		if i := strings.LastIndexByte(p, '/'); i >= 0 {
			parentPath, name = p[:i], p[i+1:]
		}
		par := folder(parentPath)
		n := &TreeNode{ID: FolderID(p), Path: p, Name: name, Folder: true, Level: par.Level + 1, Expanded: !collapsed[p]}
		par.Children = append(par.Children, n)
		folders[p] = n
		return n
	}
	for _, f := range files {
		dir, name := "", f.Path
		if i := strings.LastIndexByte(f.Path, '/'); i >= 0 {
			dir, name = f.Path[:i], f.Path[i+1:]
		}
		par := folder(dir)
		par.Children = append(par.Children, &TreeNode{ID: FileID(f.Path), Path: f.Path, Name: name, Level: par.Level + 1, Active: f.Path == active, Dirty: f.Dirty, Draft: f.Draft})
		if f.Dirty {
			for d := dir; ; {
				folders[d].Dirty = true
				if d == "" {
					break
				}
				if i := strings.LastIndexByte(d, '/'); i >= 0 {
					d = d[:i]
				} else {
					d = ""
				}
			}
		}
	}
	var sortLevel func(n *TreeNode)
	sortLevel = func(n *TreeNode) {
		sort.SliceStable(n.Children, func(i, j int) bool {
			a, b := n.Children[i], n.Children[j]
			if a.Folder != b.Folder {
				return a.Folder
			}
			return strings.ToLower(a.Name) < strings.ToLower(b.Name)
		})
		for _, c := range n.Children {
			sortLevel(c)
		}
	}
	sortLevel(root)
	var prune func(n *TreeNode)
	prune = func(n *TreeNode) { // a collapsed folder renders no children
		if n.Folder && !n.Expanded {
			n.Children = nil
			return
		}
		for _, c := range n.Children {
			prune(c)
		}
	}
	prune(root)
	return root.Children
}

// TreeHTML is #file-list: the explorer as an ARIA tree. Every item starts at tabindex -1
// (the glue applies roving focus after the morph).
func TreeHTML(nodes []*TreeNode) HTML {
	var b Builder
	b.Open("ul", A("class", "tree"), A("role", "tree"), A("id", "file-tree"), A("aria-label", "Workspace files"))
	for _, n := range nodes {
		treeNode(&b, n)
	}
	b.Close("ul")
	return b.HTML()
}

func treeNode(b *Builder, n *TreeNode) {
	if n.Folder {
		label := n.Name
		if n.Dirty {
			label += ", contains unsaved changes"
		}
		b.Open("li", A("role", "treeitem"), A("class", "tree-item tree-folder"), A("id", n.ID), Int("aria-level", int64(n.Level)),
			Bool("aria-expanded", n.Expanded), A("tabindex", "-1"), A("data-action", "tree-toggle"), A("data-folder", n.Path),
			A("aria-label", label))
		b.Open("div", A("class", "tree-row"), CSSVarInt("level", n.Level))
		b.Elem("span", "", A("class", "tree-twisty"), A("aria-hidden", "true"))
		b.Elem("span", n.Name, A("class", "tree-name"), A("title", n.Path))
		if n.Dirty {
			b.Elem("span", "•", A("class", "dirty"), A("aria-hidden", "true"))
		}
		b.Close("div")
		if n.Expanded {
			b.Open("ul", A("role", "group"))
			for _, c := range n.Children {
				treeNode(b, c)
			}
			b.Close("ul")
		}
		b.Close("li")
		return
	}
	cls := "tree-item tree-file"
	if n.Active {
		cls += " active"
	}
	b.Open("li", A("role", "treeitem"), A("class", cls), A("id", n.ID), Int("aria-level", int64(n.Level)),
		Bool("aria-selected", n.Active), A("tabindex", "-1"), A("data-action", "open"), A("data-path", n.Path),
		A("aria-labelledby", n.ID+"-name"), If(n.Dirty, A("aria-describedby", n.ID+"-dirty")))
	b.Open("div", A("class", "tree-row"), CSSVarInt("level", n.Level))
	b.Elem("span", "", A("class", "tree-twisty"), A("aria-hidden", "true"))
	b.Elem("span", n.Name, A("class", "tree-name"), A("id", n.ID+"-name"), A("aria-label", "Open "+n.Path), A("title", n.Path))
	if n.Dirty {
		b.Open("span", A("class", "dirty"), A("id", n.ID+"-dirty"), A("title", "Changed since the last save"))
		b.Text("•")
		b.Elem("span", " unsaved changes", A("class", "visually-hidden"))
		b.Close("span")
	}
	if n.Draft {
		b.Elem("span", "draft", A("class", "draft-kept"), A("id", n.ID+"-draft"),
			A("title", "Over the 80,000-character budget: kept in this browser, not saved until it fits"))
	}
	b.Open("span", A("class", "file-actions"))
	fileButton(b, n, "rename", "✎", "Rename", "Rename (F2)")
	fileButton(b, n, "download", "⤓", "Download", "Download")
	if n.Dirty {
		fileButton(b, n, "revert", "↺", "Revert", "Revert")
	}
	fileButton(b, n, "delete", "✕", "Delete", "Delete (Delete key)")
	b.Close("span")
	b.Close("div")
	b.Close("li")
}

func fileButton(b *Builder, n *TreeNode, action, icon, verb, title string) {
	b.Elem("button", icon, A("type", "button"), A("id", n.ID+"-"+action), A("tabindex", "-1"), A("data-action", action),
		A("data-path", n.Path), A("aria-label", verb+" "+n.Path), A("title", title))
}
