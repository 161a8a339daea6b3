package workspace

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"iter"
	"net/url"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/preview/cssscan"
	"github.com/webcoding/studio/wasm/preview/jsscan"
	"github.com/webcoding/studio/wasm/preview/pagerefs"
)

// Import limits (REFERENCE §4, folder import). Sizes are bytes. MaxImportTextBytes is 2 MiB
// instead of the reference's 512 KiB (issue 13, docs/design.md §5.44): real sites ship vendored
// scripts and stylesheets between the two (reveal.js's 920 KB highlight plugin), and such a
// file is only read: over MaxSourceChars it is imported over budget, readable in full and not
// editable until a write shrinks it. A model's read of it is bounded by the provider loop's
// 64 KiB output limit (a larger result is TOOL_OUTPUT_LIMIT_EXCEEDED, never cut). The 12 MiB
// total still bounds the workspace.
const (
	MaxImportFiles          = 200
	MaxImportScannedEntries = 2_000
	MaxImportTextBytes      = 2 << 20
	MaxImportAssetBytes     = 4 << 20 // images, fonts and other binaries (AssetClasses)
	MaxImportMediaBytes     = 8 << 20 // audio and video files (AssetClasses)
	MaxImportTotalBytes     = 12 << 20
)

// totalLimitMessage is the message of a SkipTotalLimit entry.
var totalLimitMessage = "import larger than " + sizeText(MaxImportTotalBytes)

// Reasons in Skipped entries.
const (
	SkipInvalidPath = "invalid-path" // NUL or ".." in the path, or nothing left; Message names the path reason
	SkipHidden      = "hidden"       // a dot-file ("name" starting with ".")
	SkipIgnored     = "ignored"      // a file named "node_modules" (folders of that name are dropped silently)
	SkipNotText     = "not-text"     // not an asset extension, but the bytes are not UTF-8 text (invalid UTF-8 or NUL)
	SkipDuplicate   = "duplicate"    // same normalized path as an earlier entry
	SkipTooLarge    = "too-large"    // text > 2 MiB, asset over its AssetClasses limit (4 or 8 MiB)
	SkipTotalLimit  = "total-limit"  // would push the import over 12 MiB
	SkipReadFailed  = "read-failed"  // the entry's Read failed
	SkipFileLimit   = "file-limit"   // summary: 200 files accepted, traversal stopped
	SkipScanLimit   = "scan-limit"   // summary: 2,000 entries scanned, traversal stopped; per path in LeftOut: an entry past that bound
)

// Skipped is one entry the importer left out: {"path", "reason", "message"?, "count"?}. A
// traversal stopped by a limit adds exactly one summary entry with an empty path and reason
// SkipFileLimit or SkipScanLimit; a SkipFileLimit summary's Count is how many entries were left
// out (counted up to the scan limit, without reading them).
type Skipped struct {
	Path    string `json:"path"`
	Reason  string `json:"reason"`
	Message string `json:"message,omitempty"`
	Count   int    `json:"count,omitempty"`
}

// Imported is the importer's product: accepted files in entry order, what was skipped, and the
// active path chosen by ChooseActivePath.
type Imported struct {
	RootName   string
	Files      []*File
	Skipped    []Skipped
	ActivePath string
	// LeftOut lists, in walk order, each file the MaxImportFiles cut left out — every
	// candidate the import had examined (at most MaxImportScannedEntries of them, plus the
	// entries past the scan limit that prioritize took) but did not reach — as a Skipped
	// entry {path, reason SkipFileLimit} without a message. Skipped reports the same cut as one
	// summary; these go to Metadata.NotImported (NotImported), so the preview names the limit
	// instead of calling a reference to one of them missing.
	//
	// After them come the entries past MaxImportScannedEntries that the reference walk did not
	// take (the listing is walked to its end; only bytes reading is bounded), up to
	// MaxImportLateNames of them, each {path, reason SkipScanLimit}: they are in the folder,
	// so a reference to one must say so, never "missing".
	LeftOut []Skipped
	// LateUnnamed counts the entries past the scan limit beyond MaxImportLateNames (left out
	// and not named).
	LateUnnamed int
}

// NotImported returns what Metadata.NotImported keeps of this import: NotImportedEntries of
// Skipped (too large, not text, over the total), then LeftOut (over the file count, past the
// scan limit), each in walk order, then — when LateUnnamed > 0 — one entry without a path,
// {reason SkipScanLimit, count LateUnnamed}, standing for the files past the scan limit it
// could not name (the preview then says a reference to no file "may be in the folder"); nil
// when there are none.
func (imp Imported) NotImported() []Skipped {
	out := NotImportedEntries(imp.Skipped)
	if len(imp.LeftOut) > 0 {
		out = append(out, imp.LeftOut...)
	}
	if imp.LateUnnamed > 0 {
		out = append(out, Skipped{Reason: SkipScanLimit, Count: imp.LateUnnamed})
	}
	return out
}

// ImportFiles applies the folder-import rules of REFERENCE §2.2 and §4 to a stream of entries.
//
// Order of checks per entry: an entry inside a dot-folder (".git/", ".cache/", …) or
// "node_modules/" is dropped silently and does not count against the scan limit; then the entry
// counts as scanned (more than MaxImportScannedEntries stops traversal with one SkipScanLimit
// summary); the path is normalized (failure → SkipInvalidPath); dot-files → SkipHidden; a file
// named node_modules → SkipIgnored; repeated normalized paths → SkipDuplicate; a 201st
// acceptable file stops traversal with one SkipFileLimit summary; text over MaxImportTextBytes
// or an asset over MaxImportAssetBytes → SkipTooLarge (checked on the claimed size before
// reading and on the bytes read); a file that would push the total over MaxImportTotalBytes →
// SkipTotalLimit; a non-asset whose bytes are not valid UTF-8 or hold a NUL byte →
// SkipNotText (it is never loaded, so a save can never rewrite it with replacement
// characters). A text file over
// MaxSourceChars is kept in full and reported OverBudget.
//
// When the folder holds more than MaxImportFiles candidates, or their claimed sizes add up to
// more than MaxImportTotalBytes, the files are taken in prioritize's order (the entry page and
// what it references, transitively through stylesheets and module scripts, breadth-first; then
// path order), and every candidate left out by the count is listed in LeftOut (for
// Metadata.NotImported). Files keeps walk order.
//
// # Errors
//   - WORKSPACE_NO_SUPPORTED_FILES: nothing accepted; details {operation:"import", rootName,
//     skippedCount}; the returned Imported then holds only RootName and Skipped (every reason)
//   - TOOL_CANCELLED (retryable): ctx ended during the walk
func ImportFiles(ctx context.Context, rootName string, entries iter.Seq[ImportEntry]) (Imported, error) {
	out := Imported{RootName: rootName}
	seen := map[string]bool{}
	scanned, total := 0, 0
	var skippedDirs []string
	var cands []candidate
	var summary *Skipped
	var skipPos []int // walk position of each out.Skipped entry (restores walk order at the end)
	skip := func(pos int, sk Skipped) {
		out.Skipped = append(out.Skipped, sk)
		skipPos = append(skipPos, pos)
	}
	cancelled := mcp.NewError(mcp.CodeToolCancelled, true, nil, "Import cancelled.")
	// Pass 1: path rules only (nothing is read), every entry up to the scan limit; entries
	// past it are counted, not examined.
	beyond, scanStopped := 0, false
	var late []candidate // path-valid entries past the scan limit (only their paths are used)
	for e := range entries {
		if err := ctx.Err(); err != nil {
			return Imported{}, cancelled
		}
		if dir := SkippedFolder(e.Path); dir != "" {
			if !scanStopped && !slices.Contains(skippedDirs, dir) && len(skippedDirs) < maxNamedSkips {
				skippedDirs = append(skippedDirs, dir)
			}
			continue
		}
		if !scanStopped && scanned == MaxImportScannedEntries {
			scanStopped = true // this entry is the first past the limit
		} else if !scanStopped {
			scanned++
		}
		if scanStopped {
			beyond++
			// Past the scan limit entries are only counted, except that their paths are kept
			// so the preview entry and what it references can still be found (prioritize).
			if p, perr := NormalizePath(e.Path); perr == nil && ExcludedPathReason(p) == "" && !seen[p] {
				seen[p] = true
				late = append(late, candidate{path: p, e: e, order: MaxImportScannedEntries + len(late) + 1})
			}
			continue
		}
		shown := strings.ToValidUTF8(strings.ReplaceAll(e.Path, "\x00", "\uFFFD"), "\uFFFD")
		p, perr := NormalizePath(e.Path)
		if perr != nil {
			skip(scanned, Skipped{Path: shown, Reason: SkipInvalidPath,
				Message: mcp.ToolErrorOf(perr).Details.(map[string]any)["reason"].(string)})
			continue
		}
		switch ExcludedPathReason(p) {
		case PathReasonHidden:
			skip(scanned, Skipped{Path: p, Reason: SkipHidden})
			continue
		case PathReasonIgnored:
			skip(scanned, Skipped{Path: p, Reason: SkipIgnored})
			continue
		}
		if seen[p] {
			skip(scanned, Skipped{Path: p, Reason: SkipDuplicate})
			continue
		}
		seen[p] = true
		cands = append(cands, candidate{path: p, e: e, order: scanned})
	}
	// Over the file limit, or over the byte total by the sizes the entries claim: the preview
	// entry and what it references come first, then the rest in path order (issue 14 item 12:
	// a big folder must keep its index.html; with text files up to 2 MiB, six vendored files
	// sorting before index.html filled the 12 MiB total and left the page out).
	order := cands
	claimed := int64(0)
	for _, c := range cands {
		claimed += max(c.e.Size, 0)
	}
	prioritized := len(cands) > MaxImportFiles || len(late) > 0 || claimed > MaxImportTotalBytes
	if prioritized {
		var fromLate int
		order, fromLate = prioritize(ctx, cands, late)
		beyond -= fromLate
	}
	// Pass 2: size, read and text rules, until MaxImportFiles files are accepted.
	done := 0
	for _, c := range order {
		if len(out.Files) >= MaxImportFiles {
			break
		}
		if err := ctx.Err(); err != nil {
			return Imported{}, cancelled
		}
		done++
		p, e := c.path, c.e
		asset := IsAssetPath(p)
		maxBytes, _ := AssetLimit(p)
		limit, label := int64(maxBytes), TooLargeMessage(p)
		if e.Size > limit {
			skip(c.order, Skipped{Path: p, Reason: SkipTooLarge, Message: label})
			continue
		}
		if int64(total)+max(e.Size, 0) > MaxImportTotalBytes {
			skip(c.order, Skipped{Path: p, Reason: SkipTotalLimit, Message: totalLimitMessage})
			continue
		}
		if e.Read == nil {
			skip(c.order, Skipped{Path: p, Reason: SkipReadFailed, Message: "no content"})
			continue
		}
		data := c.data
		if data == nil {
			var err error
			if data, err = e.Read(ctx); err != nil {
				if ctx.Err() != nil {
					return Imported{}, cancelled
				}
				skip(c.order, Skipped{Path: p, Reason: SkipReadFailed, Message: boundText(err.Error(), MaxMessageChars)})
				continue
			}
		}
		if int64(len(data)) > limit {
			skip(c.order, Skipped{Path: p, Reason: SkipTooLarge, Message: label})
			continue
		}
		if total+len(data) > MaxImportTotalBytes {
			skip(c.order, Skipped{Path: p, Reason: SkipTotalLimit, Message: totalLimitMessage})
			continue
		}
		if !asset && !isText(data) {
			skip(c.order, Skipped{Path: p, Reason: SkipNotText, Message: "binary or not UTF-8 text"})
			continue
		}
		total += len(data)
		var f *File
		if asset {
			f = NewAssetFile(p, data)
		} else {
			f = NewTextFile(p, string(data))
		}
		out.Files = append(out.Files, f)
	}
	if done < len(order) {
		cut := slices.Clone(order[done:])
		slices.SortStableFunc(cut, func(a, b candidate) int { return cmp.Compare(a.order, b.order) })
		out.LeftOut = make([]Skipped, len(cut))
		for i, c := range cut {
			out.LeftOut[i] = Skipped{Path: c.path, Reason: SkipFileLimit}
		}
	}
	if len(late) > 0 {
		// Entries past the scan limit that the walk did not take are in the folder too: name
		// them (up to MaxImportLateNames) so a run-time request for one (fetch, a computed
		// URL) is reported as not imported, never as missing.
		taken := map[string]bool{}
		for _, c := range order {
			if c.order > MaxImportScannedEntries {
				taken[c.path] = true
			}
		}
		named := 0
		for _, c := range late {
			if taken[c.path] {
				continue
			}
			if named == MaxImportLateNames {
				out.LateUnnamed++
				continue
			}
			named++
			out.LeftOut = append(out.LeftOut, Skipped{Path: c.path, Reason: SkipScanLimit})
		}
	}
	if left := len(order) - done + beyond; done < len(order) {
		// Count what is left out (without reading it) so the summary tells the real number.
		msg := fmt.Sprintf("Stopped after 200 files; %d more file(s) of the folder were not imported.", left)
		if prioritized {
			msg = fmt.Sprintf("Imported 200 files (the preview entry and the files it references first, then in path order); %d more file(s) of the folder were not imported.", left)
		}
		summary = &Skipped{Reason: SkipFileLimit, Count: left, Message: msg}
	} else if scanStopped {
		summary = &Skipped{Reason: SkipScanLimit, Count: beyond,
			Message: fmt.Sprintf("Stopped after scanning 2,000 entries; the rest of the folder (%d more entries) was not imported.", beyond)}
	}
	// Skips in walk order (pass 2 ran in priority order), the summary last.
	idx := make([]int, len(out.Skipped))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(x, y int) int { return cmp.Compare(skipPos[x], skipPos[y]) })
	sorted := make([]Skipped, len(idx))
	for i, j := range idx {
		sorted[i] = out.Skipped[j]
	}
	out.Skipped = sorted
	if summary != nil {
		out.Skipped = append(out.Skipped, *summary)
	}
	// Files keep the folder's walk order whatever order they were chosen in.
	if prioritized {
		pos := make(map[string]int, len(order))
		for _, c := range order {
			pos[c.path] = c.order
		}
		slices.SortStableFunc(out.Files, func(a, b *File) int { return cmp.Compare(pos[a.Path], pos[b.Path]) })
	}
	if len(out.Files) == 0 {
		details := map[string]any{"operation": "import", "rootName": rootName, "skippedCount": len(out.Skipped)}
		msg := fmt.Sprintf("No supported files were found in %q.", rootName)
		var named []string
		for _, sk := range out.Skipped[:min(len(out.Skipped), maxNamedSkips)] {
			if sk.Path != "" {
				named = append(named, sk.Path+" ("+sk.Reason+")")
			}
		}
		if len(named) > 0 {
			details["skipped"] = named
			msg += " Skipped: " + strings.Join(named, ", ") + "."
		}
		if len(skippedDirs) > 0 {
			details["skippedFolders"] = skippedDirs
			msg += " Folders not entered (hidden or node_modules): " + strings.Join(skippedDirs, ", ") + "."
		}
		return Imported{RootName: rootName, Skipped: out.Skipped}, mcp.NewError(mcp.CodeWorkspaceNoSupportedFiles, false,
			details, "%s", boundText(msg, MaxMessageChars))
	}
	out.ActivePath = ChooseActivePath(out.Files)
	return out, nil
}

// MaxImportLateNames bounds how many entries past MaxImportScannedEntries (never read, not
// referenced by the pages the import followed) Imported.LeftOut names with reason
// SkipScanLimit; the rest are only counted (Imported.LateUnnamed). Each name is a path kept
// in Metadata.NotImported and in every compiled page's not-imported table, so the bound keeps
// those linear in it.
const MaxImportLateNames = 2_000

// candidate is an entry that passed the path rules: its normalized path, its walk position
// (order: the scan count when it was seen),
// and (once prioritize read it) its bytes.
type candidate struct {
	path  string
	e     ImportEntry
	order int
	data  []byte
}

// MaxImportPriorityScanBytes bounds the bytes prioritize reads to follow references (the
// entry page, then the pages, stylesheets and module scripts it reaches): once this many are
// scanned, the rest of the priority list comes from what was already found. Files read for
// the scan are kept for pass 2, so nothing is read twice.
const MaxImportPriorityScanBytes = 4 << 20

// prioritize orders candidates for a folder over the file limit (issue 14 item 12, issue 13):
// the preview entry (index.html at the root, else the first HTML file in path order), then
// what it references, breadth-first, then every other candidate in path order.
//
// References are followed transitively: an HTML page's references as the preview compiler
// finds them (pagerefs.Scan: src/href/poster/data/background, srcset, url() in style
// attributes and <style>, inline module imports including import("literal")),
// a stylesheet's `url()` and `@import` (cssscan.Scan) and a script's static relative module
// imports and import("./x.js") with a string literal (`import … from "./x.js"`, `export … from`, `import "./x.js"`; jsscan.FindRefs, only
// for a source that mentions import or export), each resolved against the referring file's
// folder, without query or fragment. A file is scanned when its claimed size is at most
// MaxImportTextBytes, its bytes fit what is left of MaxImportPriorityScanBytes, and the list
// is still shorter than MaxImportFiles; so the work is linear in the bytes scanned (at most
// MaxImportPriorityScanBytes) and the order depends only on the folder's paths and bytes.
// late are entries past the scan limit: only the entry and what it reaches are taken from
// them (fromLate says how many). A read failure only loses that file's references.
func prioritize(ctx context.Context, cands, late []candidate) (order []candidate, fromLate int) {
	all := append(slices.Clip(cands), late...)
	byPath := make(map[string]int, len(all))
	for i, c := range all {
		byPath[c.path] = i
	}
	rest := slices.Clone(cands)
	slices.SortStableFunc(rest, func(a, b candidate) int { return strings.Compare(a.path, b.path) })
	entry := -1
	if i, ok := byPath["index.html"]; ok {
		entry = i
	} else {
		htmls := slices.Clone(all)
		slices.SortStableFunc(htmls, func(a, b candidate) int { return strings.Compare(a.path, b.path) })
		for _, c := range htmls {
			if LanguageFor(c.path) == "html" {
				entry = byPath[c.path]
				break
			}
		}
	}
	if entry < 0 {
		return rest, 0
	}
	first := []int{entry}
	inFirst := map[int]bool{entry: true}
	budget := MaxImportPriorityScanBytes
	for head := 0; head < len(first) && len(first) < MaxImportFiles && ctx.Err() == nil; head++ {
		c := &all[first[head]]
		lang := LanguageFor(c.path)
		if lang != "html" && lang != "css" && lang != "javascript" {
			continue
		}
		if c.e.Read == nil || c.e.Size > MaxImportTextBytes || c.e.Size > int64(budget) {
			continue
		}
		data, err := c.e.Read(ctx)
		if err != nil {
			continue
		}
		c.data = data // kept for pass 2
		if len(data) > MaxImportTextBytes || len(data) > budget {
			continue
		}
		budget -= len(data)
		dir := path.Dir(c.path)
		for _, ref := range fileRefs(lang, string(data)) {
			if p, ok := resolveImportRef(dir, ref); ok {
				if i, ok := byPath[p]; ok && !inFirst[i] {
					first = append(first, i)
					inFirst[i] = true
				}
			}
		}
	}
	order = make([]candidate, 0, len(cands)+len(first))
	for _, i := range first {
		order = append(order, all[i])
		if i >= len(cands) {
			fromLate++
		}
	}
	for _, c := range rest {
		if !inFirst[byPath[c.path]] {
			order = append(order, c)
		}
	}
	return order, fromLate
}

// fileRefs returns the reference texts of src, a file of language lang, in source order
// (see prioritize). Linear in len(src).
func fileRefs(lang, src string) []string {
	var out []string
	switch lang {
	case "html":
		return pagerefs.Scan(src)
	case "css":
		for _, r := range cssscan.Scan(src).Refs {
			out = append(out, r.Value)
		}
	case "javascript":
		if !strings.Contains(src, "import") && !strings.Contains(src, "export") {
			return nil // a classic script: nothing to find, not worth lexing
		}
		for _, r := range jsscan.FindRefs(src) {
			if strings.HasPrefix(r.Value, "./") || strings.HasPrefix(r.Value, "../") {
				out = append(out, r.Value)
			}
		}
	}
	return out
}

// resolveImportRef resolves ref, a reference found in a file of folder dir, to a normalized
// workspace path: the query and fragment are dropped and %-escapes decoded; an absolute URL,
// a scheme (data:, https:), a root-relative or an empty reference names no folder file.
func resolveImportRef(dir, ref string) (string, bool) {
	ref = strings.TrimSpace(ref)
	if i := strings.IndexAny(ref, "?#"); i >= 0 {
		ref = ref[:i]
	}
	if ref == "" || strings.Contains(ref, ":") || strings.HasPrefix(ref, "/") || strings.HasPrefix(ref, "\\") {
		return "", false
	}
	if strings.Contains(ref, "%") {
		if u, err := url.PathUnescape(ref); err == nil {
			ref = u
		}
	}
	p, err := NormalizePath(path.Join(dir, ref))
	return p, err == nil
}

// isText reports whether data can be held as a text file and saved back byte for byte: valid
// UTF-8 without NUL bytes.
func isText(data []byte) bool {
	return utf8.Valid(data) && bytes.IndexByte(data, 0) < 0
}

// inSkippedFolder reports whether a raw entry path lies inside a dot-folder or node_modules.
// Only directory segments count (the last segment is the file name).
func inSkippedFolder(raw string) bool { return SkippedFolder(raw) != "" }

// maxNamedSkips bounds the skipped names an empty-import error lists.
const maxNamedSkips = 20

// SkippedFolder returns the folder of raw (a relative entry path, "/" or "\\" separated) that
// the importer does not enter — the first dot-folder (".git") or "node_modules" segment
// before the file name, with its parents ("a/.cache") — or "" when the entry is imported.
func SkippedFolder(raw string) string {
	segs := strings.Split(strings.ReplaceAll(raw, "\\", "/"), "/")
	for i, s := range segs[:len(segs)-1] {
		if s == "node_modules" || (strings.HasPrefix(s, ".") && s != "." && s != "..") {
			return strings.Join(segs[:i+1], "/")
		}
	}
	return ""
}

// SkippedFolders lists, in first-seen order without repeats, the folders SkippedFolder finds
// in paths (for a file list such as a directory upload's, which the walk never saw).
func SkippedFolders(paths []string) []string {
	var out []string
	for _, p := range paths {
		if d := SkippedFolder(p); d != "" && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// boundText trims s and cuts it to at most n code points (adding "…" when cut).
func boundText(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
