package wasm

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// Citations of the design documents (docs/design.md "Design", the mapping table):
//
//	SPEC §N[.M], design.md §…                    → docs/design.md
//	REFERENCE §N[.M], reference.md §…            → docs/reference.md
//	PLATFORM rule(s) N[–M], PLATFORM "heading"    → docs/platform.md
//	STYLE §N[.M], style.md §…                    → docs/style.md
//
// SPEC.md, REFERENCE.md, PLATFORM.md and STYLE.md name files the repository does not have;
// writing one is an error.
//
// A bare §N belongs to the nearest label on the same line or the two lines before it (a
// comment that wraps "REFERENCE" / "// §7.5" or lists "SPEC §2.9, §2.12"). Inside docs/X.md a
// bare §N with no label nearby refers to X.md itself; anywhere else it is an error, so that
// every § in the repository names its document. Outside standards (RFC 8259 §7, JSON-RPC 2.0
// §5.1, HTML Living Standard §13…) are recognised and not checked.

// citeDocs maps a label to its file under docs/.
var citeDocs = map[string]string{
	"SPEC": "design.md", "design": "design.md",
	"REFERENCE": "reference.md", "reference": "reference.md",
	"PLATFORM": "platform.md", "platform": "platform.md",
	"STYLE": "style.md", "style": "style.md",
}

// citeToken finds, in order of position on a line: our labels (with an optional rule range or
// quoted heading right after), outside-standard labels, and section numbers.
var citeToken = regexp.MustCompile(
	`\b(SPEC|REFERENCE|PLATFORM|STYLE)\.md\b` +
		`|\b(SPEC|REFERENCE|PLATFORM|STYLE)\b(?::?\s+(?:rules?\s+(\d+)(?:\s*[–-]\s*(\d+))?|"([^"]+)"))?` +
		`|(?:docs/)?\b(design|reference|platform|style)\.md\b` +
		`|(RFC \d+|JSON-RPC \d\.\d|HTML Living Standard|HTML(?:\s+§))` +
		`|§(\d+(?:\.\d+)*)`)

// headingNumber is the section number a Markdown heading starts with ("## 2. Tool catalog",
// "### 2.1 Tool names", "### Rule 3. …" gives "rule 3").
var headingNumber = regexp.MustCompile(`^#{1,6}\s+(?:§)?(?:(Rule)\s+)?(\d+(?:\.\d+)*)\.?(?:\s|$)`)

// citation is one checked reference: the doc file, and either a section number, a rule number
// or a quoted text (usually a heading) the file must contain.
type citation struct {
	where   string // file:line
	doc     string // design.md, reference.md, …
	section string // "2.1", "rule 3", or "" with heading set
	heading string
}

// docIndex is what a docs file offers to be cited: its numbered headings, and its whole text
// for quoted citations (PLATFORM "chromedp", REFERENCE: "prepended").
type docIndex struct {
	sections map[string]bool
	text     string // lower-cased
}

func indexDoc(r io.Reader) docIndex {
	idx := docIndex{sections: map[string]bool{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	fence := false
	var text strings.Builder
	for sc.Scan() {
		line := sc.Text()
		text.WriteString(strings.ToLower(line))
		text.WriteByte('\n')
		if strings.HasPrefix(line, "```") {
			fence = !fence
			continue
		}
		if fence || !strings.HasPrefix(line, "#") {
			continue
		}
		if m := headingNumber.FindStringSubmatch(line); m != nil {
			if m[1] == "Rule" {
				idx.sections["rule "+m[2]] = true
			} else {
				idx.sections[m[2]] = true
			}
		}
	}
	idx.text = text.String()
	return idx
}

// scanCitations returns the citations of one file (name is its repository path, used for the
// positions and to know which docs file a bare § inside docs/ refers to), and the positions of
// bare § with no label.
func scanCitations(name string, r io.Reader) (cites []citation, unlabelled []string) {
	self := ""
	if dir, file := filepath.Split(filepath.ToSlash(name)); dir == "docs/" {
		for _, d := range citeDocs {
			if d == file {
				self = file
			}
		}
	}
	type label struct {
		doc  string // "" for an outside standard
		line int
	}
	var cur *label
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 4<<20)
	for n := 1; sc.Scan(); n++ {
		where := name + ":" + strconv.Itoa(n)
		for _, m := range citeToken.FindAllStringSubmatch(sc.Text(), -1) {
			switch {
			case m[1] != "":
				cur = nil
				unlabelled = append(unlabelled, fmt.Sprintf("%s: %s.md names a file the repository does not have (write %s §… or docs/%s)", where, m[1], m[1], citeDocs[m[1]]))
			case m[2] != "":
				cur = &label{doc: citeDocs[m[2]], line: n}
				switch {
				case m[3] != "":
					lo, _ := strconv.Atoi(m[3])
					hi := lo
					if m[4] != "" {
						hi, _ = strconv.Atoi(m[4])
					}
					for i := lo; i <= hi && i < lo+20; i++ {
						cites = append(cites, citation{where: where, doc: cur.doc, section: "rule " + strconv.Itoa(i)})
					}
				case m[5] != "":
					cites = append(cites, citation{where: where, doc: cur.doc, heading: m[5]})
				}
			case m[6] != "":
				cur = &label{doc: citeDocs[m[6]], line: n}
			case m[7] != "":
				cur = &label{line: n}
			case m[8] != "":
				switch {
				case cur != nil && n-cur.line <= 2:
					if cur.doc != "" {
						cites = append(cites, citation{where: where, doc: cur.doc, section: m[8]})
					}
				case self != "":
					cites = append(cites, citation{where: where, doc: self, section: m[8]})
				default:
					unlabelled = append(unlabelled, fmt.Sprintf("%s: §%s names no document (write SPEC §…, REFERENCE §…, STYLE §… or the standard it belongs to)", where, m[8]))
				}
			}
		}
	}
	return cites, unlabelled
}

// check reports every citation whose section or heading is missing from its docs file.
func check(cites []citation, docs map[string]docIndex) []string {
	var bad []string
	for _, c := range cites {
		idx, ok := docs[c.doc]
		switch {
		case !ok:
			bad = append(bad, fmt.Sprintf("%s: cites docs/%s, which does not exist", c.where, c.doc))
		case c.heading != "":
			if !strings.Contains(idx.text, strings.ToLower(c.heading)) {
				bad = append(bad, fmt.Sprintf("%s: cites %q, but docs/%s does not contain it", c.where, c.heading, c.doc))
			}
		case c.section != "" && !idx.sections[c.section]:
			what := "§" + c.section
			if strings.HasPrefix(c.section, "rule ") {
				what = c.section
			}
			bad = append(bad, fmt.Sprintf("%s: cites %s, but docs/%s has no heading numbered %s", c.where, what, c.doc, strings.TrimPrefix(c.section, "rule ")))
		}
	}
	return bad
}

// citedExts are the file types scanned for citations.
var citedExts = map[string]bool{".go": true, ".js": true, ".css": true, ".html": true, ".md": true, ".sh": true}

// trackedFiles lists the repository's tracked .go, .js, .css, .html, .md and .sh files
// (git ls-files), relative to root. Without git (or outside a checkout) it walks root instead,
// skipping dot-directories, node_modules and dist (build output).
func trackedFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	if out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output(); err == nil {
		for _, f := range bytes.Split(out, []byte{0}) {
			if citedExts[filepath.Ext(string(f))] {
				files = append(files, string(f))
			}
		}
	} else {
		t.Logf("git ls-files: %v; walking the tree instead", err)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if d.IsDir() && p != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "dist") {
				return filepath.SkipDir
			}
			if !d.IsDir() && citedExts[filepath.Ext(name)] {
				rel, _ := filepath.Rel(root, p)
				files = append(files, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(files)
	return files
}

// TestCitationsResolve checks that every SPEC/REFERENCE/PLATFORM/STYLE citation in a tracked
// source or documentation file names a section that docs/ has (docs/design.md gives the
// mapping), and that no § is left without a document label. It fails naming file:line.
func TestCitationsResolve(t *testing.T) {
	root := ".."
	docs := map[string]docIndex{}
	for _, d := range citeDocs {
		f, err := os.Open(filepath.Join(root, "docs", d))
		if err != nil {
			continue // reported per citation
		}
		docs[d] = indexDoc(f)
		f.Close()
	}
	var cites []citation
	var bad []string
	for _, name := range trackedFiles(t, root) {
		if name == "wasm/docrefs_test.go" {
			continue // its scanner test feeds deliberately broken citations
		}
		f, err := os.Open(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			if os.IsNotExist(err) {
				continue // deleted in the work tree, not yet committed
			}
			t.Fatal(err)
		}
		c, u := scanCitations(name, f)
		f.Close()
		cites = append(cites, c...)
		bad = append(bad, u...)
	}
	bad = append(bad, check(cites, docs)...)
	for _, b := range bad {
		t.Error(b)
	}
	// The code cites these documents hundreds of times; finding almost none means the scan is
	// broken, not that the citations are gone.
	if len(cites) < 300 {
		t.Errorf("found only %d citations; the scan is broken", len(cites))
	}
	t.Logf("%d citations checked", len(cites))
}

// The scanner attributes wrapped and listed sections to their label, skips outside standards,
// and check names the file and line of each unresolved citation.
func TestCitationScanner(t *testing.T) {
	src := strings.Join([]string{
		"// (SPEC §2.9, §2.12) and REFERENCE",                            // 1
		"// §7.5; RFC 8259 §7, JSON-RPC 2.0 §5.1",                        // 2
		"// PLATFORM rules 1–2, PLATFORM \"What works\", STYLE.md §10.5", // 3: STYLE.md is no file
		"// design.md §9.9 and STYLE §10.99",                             // 4
		"", "", "",                                                       // 5–7
		"// §4 alone",         // 8
		"x := `</STYLE > */`", // 9
	}, "\n")
	cites, unlabelled := scanCitations("wasm/x.go", strings.NewReader(src))
	var got []string
	for _, c := range cites {
		got = append(got, c.where+" "+c.doc+" "+c.section+c.heading)
	}
	want := []string{
		"wasm/x.go:1 design.md 2.9", "wasm/x.go:1 design.md 2.12", "wasm/x.go:2 reference.md 7.5",
		"wasm/x.go:3 platform.md rule 1", "wasm/x.go:3 platform.md rule 2", "wasm/x.go:3 platform.md What works",
		"wasm/x.go:4 design.md 9.9", "wasm/x.go:4 style.md 10.99",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("citations:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(unlabelled) != 3 || !strings.HasPrefix(unlabelled[0], "wasm/x.go:3: STYLE.md names a file the repository does not have") ||
		!strings.HasPrefix(unlabelled[1], "wasm/x.go:3: §10.5 names no document") ||
		!strings.HasPrefix(unlabelled[2], "wasm/x.go:8: §4 names no document") {
		t.Fatalf("unlabelled %q", unlabelled)
	}
	docs := map[string]docIndex{
		"design.md":    indexDoc(strings.NewReader("# D\n## 2. Decisions\n### 2.9 Storage names\n### 2.12 Revision\n```\n## 9.9 in a fence\n```\n")),
		"reference.md": indexDoc(strings.NewReader("### 7.5 OpenRouter agent\n")),
		"platform.md":  indexDoc(strings.NewReader("## 1. What works and what does not\n### Rule 1. Never block\n### Rule 2. Keep it coarse\n")),
		"style.md":     indexDoc(strings.NewReader("### 10.5 One coarse entry\n")),
	}
	bad := check(cites, docs)
	wantBad := []string{
		"wasm/x.go:4: cites §9.9, but docs/design.md has no heading numbered 9.9",
		"wasm/x.go:4: cites §10.99, but docs/style.md has no heading numbered 10.99",
	}
	if strings.Join(bad, "\n") != strings.Join(wantBad, "\n") {
		t.Fatalf("check:\n%s\nwant\n%s", strings.Join(bad, "\n"), strings.Join(wantBad, "\n"))
	}
	// Inside docs/, a bare § refers to the file itself.
	self, none := scanCitations("docs/reference.md", strings.NewReader("see §5.4\n"))
	if len(none) != 0 || len(self) != 1 || self[0].doc != "reference.md" || self[0].section != "5.4" {
		t.Fatalf("docs self-reference: %+v %q", self, none)
	}
}

// mdLink finds Markdown links to relative targets: [text](path#fragment).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// headingSlug is GitHub's anchor for a heading text: lower case, punctuation other than '-'
// and '_' dropped, spaces turned into '-'.
func headingSlug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestDocLinksResolve checks that every relative link in README.md and docs/*.md names a file
// that exists and, with a #fragment, a heading of that file, so the README's map of the docs
// cannot point nowhere.
func TestDocLinksResolve(t *testing.T) {
	root := ".."
	mds, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	mds = append(mds, filepath.Join(root, "README.md"))
	anchors := func(file string) map[string]bool {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil
		}
		set := map[string]bool{}
		fence := false
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "```") {
				fence = !fence
			}
			if !fence && strings.HasPrefix(line, "#") {
				set[headingSlug(strings.TrimLeft(line, "#"))] = true
			}
		}
		return set
	}
	links := 0
	for _, md := range mds {
		b, err := os.ReadFile(md)
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range strings.Split(string(b), "\n") {
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				links++
				file, frag, _ := strings.Cut(target, "#")
				where := fmt.Sprintf("%s:%d", strings.TrimPrefix(filepath.ToSlash(md), "../"), n+1)
				full := md
				if file != "" {
					full = filepath.Join(filepath.Dir(md), filepath.FromSlash(file))
				}
				if _, err := os.Stat(full); err != nil {
					t.Errorf("%s: link %q: no such file", where, target)
					continue
				}
				if frag != "" && strings.HasSuffix(full, ".md") && !anchors(full)[frag] {
					t.Errorf("%s: link %q: no heading with that anchor", where, target)
				}
			}
		}
	}
	if links < 20 {
		t.Errorf("found only %d relative links in README.md and docs/; the scan is broken", links)
	}
	t.Logf("%d relative links checked", links)
}
