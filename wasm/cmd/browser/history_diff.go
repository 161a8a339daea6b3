//go:build js && wasm

package main

import (
	"sort"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// Line diffs shown in the page only: the approval card's "what this call would change" and
// the version history's "this checkpoint against the current files". They are computed here
// with go-difflib's sequence matcher, bounded (maxDiffLines rows per view, maxDiffLineChars per
// row, files over maxDiffFileLines lines are summarized), and never traced, logged or exported.

const (
	maxDiffLines     = 160  // rows of one diff view (all files)
	maxDiffLineChars = 200  // code points of one row
	maxDiffFileLines = 6000 // a file with more lines is summarized, not diffed
	diffContext      = 2    // unchanged lines around each change
)

// diffRow is one row: Kind "add", "del", "ctx" or "gap" (skipped unchanged lines).
type diffRow struct {
	Kind string
	Text string
}

// fileDiff is the diff of one path: Status "modified", "added", "deleted" or "asset".
type fileDiff struct {
	Path           string
	Status         string
	Added, Removed int
	Rows           []diffRow
	Note           string // e.g. "too large to show line by line"
}

// diffText is one side's text file ("" source and Asset for binary files).
type diffText struct {
	Source string
	Asset  bool
	Size   int
}

// diffWorkspaces compares before and after (path → file) and returns the changed paths in
// path order, with at most maxDiffLines rows in total; truncated reports rows left out.
func diffWorkspaces(before, after map[string]diffText) (out []fileDiff, truncated bool) {
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
	budget := maxDiffLines
	for _, p := range sorted {
		b, inB := before[p]
		f, inA := after[p]
		if inB && inA && b == f {
			continue
		}
		d := fileDiff{Path: p, Status: "modified"}
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
		if len(old) > maxDiffFileLines || len(cur) > maxDiffFileLines {
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

// lineDiff returns the rows of old → cur with diffContext unchanged lines around changes.
func lineDiff(old, cur []string) (rows []diffRow, added, removed int) {
	m := difflib.NewMatcherWithJunk(old, cur, false, nil)
	groups := m.GetGroupedOpCodes(diffContext)
	for gi, g := range groups {
		if gi > 0 || (len(g) > 0 && (g[0].I1 > 0 || g[0].J1 > 0)) {
			rows = append(rows, diffRow{Kind: "gap", Text: "…"})
		}
		for _, op := range g {
			switch op.Tag {
			case 'e':
				for _, l := range old[op.I1:op.I2] {
					rows = append(rows, diffRow{Kind: "ctx", Text: clip(l)})
				}
			case 'd', 'r', 'i':
				for _, l := range old[op.I1:op.I2] {
					rows = append(rows, diffRow{Kind: "del", Text: clip(l)})
					removed++
				}
				for _, l := range cur[op.J1:op.J2] {
					rows = append(rows, diffRow{Kind: "add", Text: clip(l)})
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
	if r := []rune(s); len(r) > maxDiffLineChars {
		return string(r[:maxDiffLineChars]) + "…"
	}
	return s
}
