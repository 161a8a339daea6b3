package workspace

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// FuzzOperations applies a byte-coded sequence of operations and checks the model invariants
// of REFERENCE §2.2 after each: the revision never decreases (and rises by exactly one per
// applied change), the active path names a file, no pending deletion names an existing file,
// paths are unique and normalized, an HTML entry never disappears, history stays within
// MaxHistory, and every edited text file is within MaxSourceChars.
func FuzzOperations(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
	f.Add([]byte{3, 3, 3, 3, 7, 7, 8, 8, 2, 1, 0})
	f.Add([]byte{4, 0, 4, 1, 4, 2, 4, 3, 9, 9, 9})
	names := []string{"index.html", "styles.css", "app.js", "README.md", "b.html", "x/y.js", "logo.png", "./app.js", "../z"}
	f.Fuzz(func(t *testing.T, ops []byte) {
		m, _, _ := newManager(t)
		folder := NewMemFolder("f", map[string]string{"index.html": "<p>", "a.js": "1"})
		// external: folder files edited behind the workspace's back since the last import; a
		// save must never overwrite or delete them.
		external := map[string]string{}
		for i := 0; i+1 < len(ops) && i < 120; i += 2 {
			op, arg := ops[i]%14, int(ops[i+1])
			p, q := names[arg%len(names)], names[(arg/len(names))%len(names)]
			before := m.Revision()
			var changed bool
			switch op {
			case 0:
				r, err := m.CreateFile(ctx, tool("c"), p, strings.Repeat("c", arg))
				changed = err == nil && r.Changed
			case 1:
				r, err := m.RenameFile(ctx, tool("r"), p, q)
				changed = err == nil && r.Changed
			case 2:
				r, err := m.DeleteFile(ctx, tool("d"), p)
				changed = err == nil && r.Changed
			case 3:
				r, err := m.WriteFile(ctx, tool("w"), p, strings.Repeat("w", arg))
				changed = err == nil && r.Changed
			case 4:
				r, err := m.ApplyPatch(ctx, tool("p"), p, "w", "ww", OccurrenceAll)
				changed = err == nil && r.Changed
			case 5:
				r, err := m.RevertFile(ctx, tool("v"), p)
				changed = err == nil && r.Changed
			case 6:
				_, err := m.Undo(ctx, tool("u"))
				changed = err == nil
			case 7:
				_, err := m.Redo(ctx, tool("r"))
				changed = err == nil
			case 8:
				_, err := m.SaveCheckpoint(ctx, tool("s"))
				_ = err
			case 9:
				r, err := m.SetTheme(ctx, tool("t"), []string{"violet", "rose", "amber", "emerald"}[arg%4])
				changed = err == nil && r.Changed
			case 10:
				_, err := m.ImportFolder(ctx, tool("i"), folder)
				changed = err == nil
				if changed {
					clear(external)
				}
			case 11:
				_, err := m.SaveAll(ctx, tool("s"), SaveOptions{})
				_ = err
				for ep, want := range external {
					if got, ok := folder.Content(ep); !ok || got != want {
						t.Fatalf("save overwrote or deleted the folder's own edit of %q: %q (%v), want %q", ep, got, ok, want)
					}
				}
			case 12:
				m.DisconnectFolder(ctx)
			case 13:
				if n, err := NormalizePath(p); err == nil {
					body := fmt.Sprintf("external %d", i)
					if folder.WriteFile(ctx, n, []byte(body)) == nil {
						external[n] = body
					}
				}
			}
			after := m.Revision()
			if changed && after != before+1 || !changed && after != before {
				t.Fatalf("op %d: revision %d → %d (changed %v)", op, before, after, changed)
			}
			checkInvariants(t, m)
		}
	})
}

func checkInvariants(t *testing.T, m *Manager) {
	t.Helper()
	st := m.Status(ctx)
	files := m.Files()
	var ps []string
	html := 0
	for _, f := range files {
		if n, err := NormalizePath(f.Path); err != nil || n != f.Path {
			t.Fatalf("unnormalized path %q", f.Path)
		}
		if f.Language == "html" {
			html++
		}
		if f.OverBudget() {
			t.Fatalf("%s over budget", f.Path)
		}
		ps = append(ps, f.Path)
	}
	if len(files) == 0 || html == 0 {
		t.Fatalf("files %v: the workspace lost its last file or HTML entry", ps)
	}
	sorted := slices.Sorted(slices.Values(ps))
	if len(slices.Compact(sorted)) != len(ps) {
		t.Fatalf("duplicate paths %v", ps)
	}
	if !slices.Contains(ps, st.ActivePath) {
		t.Fatalf("active %q not in %v", st.ActivePath, ps)
	}
	for _, d := range st.DeletedPaths {
		if slices.Contains(ps, d) {
			t.Fatalf("pending deletion %q names an existing file", d)
		}
	}
	if n := len(m.History()); n < 1 || n > MaxHistory {
		t.Fatalf("history %d", n)
	}
}
