// Package filediff computes the bounded line diffs the studio shows (issue 9, issue 19): an
// approval card's "what this call would change" and the version history's "this checkpoint
// against the current files". Rows come from go-difflib's sequence matcher and are bounded:
// MaxLines rows per view (all files), MaxLineChars code points per row, and a file over
// MaxFileLines lines is summarized instead of diffed. It is pure (no I/O); the diffs are never
// traced, logged or exported.
//
// Owns: the line diff of two file sets and its bounds.
//
// Must never: import the UI or any adapter, or trace, log or export a diff.
package filediff

import (
	"sort"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

const (
	MaxLines     = 160  // rows of one diff view (all files)
	MaxLineChars = 200  // code points of one row
	MaxFileLines = 6000 // a file with more lines is summarized, not diffed
	Context      = 2    // unchanged lines around each change
)

// Row is one row: Kind "add", "del", "ctx" or "gap" (skipped unchanged lines).
type Row struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// File is the diff of one path: Status "modified", "added", "deleted" or "asset".
type File struct {
	Path    string `json:"path"`
	Status  string `json:"status"`
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
	Rows    []Row  `json:"rows,omitempty"`
	Note    string `json:"note,omitempty"` // e.g. "too large to show line by line"
}

// Text is one side's text file ("" source and Asset for binary files).
type Text struct {
	Source string
	Asset  bool
	Size   int
}

// Workspaces compares before and after (path → file) and returns the changed paths in
// path order, with at most MaxLines rows in total; truncated reports rows left out.
func Workspaces(before, after map[string]Text) (out []File, truncated bool) {
	paths := map[string]bool{}
	for p := range before {
		paths[p] = true
	}
	for p := range after {
		paths[p] = true
	}
	sorted := make([]string, 0, len(paths))
	for p := range paths {
		sorted = append(sorted, p)
	}
	sort.Strings(sorted)
	budget := MaxLines
	for _, p := range sorted {
		b, inB := before[p]
		f, inA := after[p]
		if inB && inA && b == f {
			continue
		}
		d := File{Path: p, Status: "modified"}
		switch {
		case !inB:
			d.Status = "added"
		case !inA:
			d.Status = "deleted"
		}
		if b.Asset || f.Asset {
			if d.Status == "modified" {
				d.Status = "asset"
			}
			d.Note = "binary asset"
			out = append(out, d)
			continue
		}
		old, cur := splitLines(b.Source, inB), splitLines(f.Source, inA)
		if len(old) > MaxFileLines || len(cur) > MaxFileLines {
			d.Note = "too large to show line by line"
			out = append(out, d)
			continue
		}
		d.Rows, d.Added, d.Removed = lineDiff(old, cur)
		if len(d.Rows) > budget {
			d.Rows, truncated = d.Rows[:budget], true
		}
		budget -= len(d.Rows)
		out = append(out, d)
	}
	return out, truncated
}

// splitLines splits s into lines without their "\n" (no lines for an absent file).
func splitLines(s string, present bool) []string {
	if !present || s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// lineDiff returns the rows of old → cur with Context unchanged lines around changes.
func lineDiff(old, cur []string) (rows []Row, added, removed int) {
	m := difflib.NewMatcherWithJunk(old, cur, false, nil)
	groups := m.GetGroupedOpCodes(Context)
	for gi, g := range groups {
		if gi > 0 || (len(g) > 0 && (g[0].I1 > 0 || g[0].J1 > 0)) {
			rows = append(rows, Row{Kind: "gap", Text: "…"})
		}
		for _, op := range g {
			switch op.Tag {
			case 'e':
				for _, l := range old[op.I1:op.I2] {
					rows = append(rows, Row{Kind: "ctx", Text: clip(l)})
				}
			case 'd', 'r', 'i':
				for _, l := range old[op.I1:op.I2] {
					rows = append(rows, Row{Kind: "del", Text: clip(l)})
					removed++
				}
				for _, l := range cur[op.J1:op.J2] {
					rows = append(rows, Row{Kind: "add", Text: clip(l)})
					added++
				}
			}
		}
	}
	if added == 0 && removed == 0 {
		return nil, 0, 0
	}
	return rows, added, removed
}

func clip(s string) string {
	if r := []rune(s); len(r) > MaxLineChars {
		return string(r[:MaxLineChars]) + "…"
	}
	return s
}
