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
//	SPEC §N[.M], design §…, design.md §…          → docs/design.md
//	REFERENCE §N[.M], reference §…, reference.md §… → docs/reference.md
//	PLATFORM rule(s) N[–M], PLATFORM "heading"    → docs/platform.md
//	STYLE §N[.M], style §…, style.md §…           → docs/style.md
//	X.md §…, docs/X.md §…                         → docs/X.md (any file of docs/)
//
// SPEC.md, REFERENCE.md, PLATFORM.md and STYLE.md name files the repository does not have;
// writing one is an error, and so is naming docs/X.md when there is no such file.
//
// A bare §N belongs to the last label before it in the same block: the same line or the lines
// above it up to a blank line (a comment that wraps "REFERENCE" / "// §7.5" or lists
// "SPEC §2.9, §2.12"); in .go, .js and .css files a block of comment lines also ends where
// code starts. Every label binds, so "SPEC §2.1 says" then "architecture.md §42" checks §42
// against docs/architecture.md. Inside docs/X.md a bare §N with no label in its block refers to
// X.md itself; anywhere else it is an error, so that every § in the repository names its
// document. After an outside standard (RFC 8259 §7, JSON-RPC 2.0 §5.1, HTML Living Standard
// §13…, MCP §…) the § belongs to that standard and is not checked.

// citeDocs maps a label to its file.
var citeDocs = map[string]string{
	"SPEC": "docs/design.md", "design": "docs/design.md",
	"REFERENCE": "docs/reference.md", "reference": "docs/reference.md",
	"PLATFORM": "docs/platform.md", "platform": "docs/platform.md",
	"STYLE": "docs/style.md", "style": "docs/style.md",
}

// citeToken finds, in order of position on a line: the uppercase .md names that are no file,
// our labels (with an optional rule range or quoted heading right after), Markdown file names,
// a document word right before a §, outside-standard labels, and section numbers.
var citeToken = regexp.MustCompile(
	`\b(SPEC|REFERENCE|PLATFORM|STYLE)\.md\b` +
		`|\b(SPEC|REFERENCE|PLATFORM|STYLE)\b(?::?\s+(?:rules?\s+(\d+)(?:\s*[–-]\s*(\d+))?|"([^"]+)"))?` +
		`|((?:[\w.-]+/)*[\w-]+\.md)\b` +
		`|\b(design|reference|platform|style)\s+§(\d+(?:\.\d+)*)` +
		`|(RFC \d+|JSON-RPC \d\.\d|HTML Living Standard|HTML(?:\s+§)|\bMCP(?: [\w.-]+)?\s+§)` +
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
// positions and to know which docs file a bare § inside docs/ refers to), and the problems that
// need no docs file to see: a bare § with no label, an uppercase .md name, docs/X.md where docs/
// has no X.md (exists reports whether a repository path exists; nil skips that check).
func scanCitations(name string, r io.Reader, exists func(string) bool) (cites []citation, problems []string) {
	name = filepath.ToSlash(name)
	self := ""
	if dir, _ := filepath.Split(name); dir == "docs/" && strings.HasSuffix(name, ".md") {
		self = name
	}
	codeComments := map[string]bool{".go": true, ".js": true, ".css": true}[filepath.Ext(name)]
	type label struct {
		doc string // "" for an outside standard
	}
	var cur *label
	prevComment := false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 4<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		where := name + ":" + strconv.Itoa(n)
		// A block ends at a blank line (comment markers aside) and, in code, where comment
		// lines and code lines meet.
		trimmed := strings.TrimSpace(line)
		if strings.Trim(trimmed, "/*#<>!- \t") == "" {
			cur = nil
		}
		// Where a docs/X.md name must exist: in comments of code (not in string literals,
		// where tests name workspace files such as "docs/readme.md") and in Markdown.
		checkFrom := -1
		switch {
		case codeComments:
			comment := strings.HasPrefix(trimmed, "//") || strings.HasPrefix(trimmed, "/*") || strings.HasPrefix(trimmed, "*")
			if comment != prevComment || !comment {
				cur = nil
			}
			prevComment = comment
			if checkFrom = strings.Index(line, "//"); comment {
				checkFrom = 0
			}
		case strings.HasSuffix(name, ".md"):
			checkFrom = 0
		}
		for _, loc := range citeToken.FindAllStringSubmatchIndex(line, -1) {
			m := make([]string, len(loc)/2)
			for i := range m {
				if loc[2*i] >= 0 {
					m[i] = line[loc[2*i]:loc[2*i+1]]
				}
			}
			switch {
			case m[1] != "":
				cur = nil
				problems = append(problems, fmt.Sprintf("%s: %s.md names a file the repository does not have (write %s §… or %s)", where, m[1], m[1], citeDocs[m[1]]))
			case m[2] != "":
				cur = &label{doc: citeDocs[m[2]]}
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
			case m[6] != "" && loc[12] >= 2 && line[loc[12]-2:loc[12]] == "](":
				// A Markdown link's target is a link (TestDocLinksResolve checks it), not a
				// label for the bare sections after it.
			case m[6] != "":
				doc := m[6]
				switch {
				case strings.HasPrefix(doc, "docs/"):
					if exists != nil && checkFrom >= 0 && loc[0] >= checkFrom && !exists(doc) {
						problems = append(problems, fmt.Sprintf("%s: names %s, which does not exist", where, doc))
					}
				case !strings.Contains(doc, "/"):
					doc = "docs/" + doc // a bare name is a file of docs/
				case strings.HasPrefix(doc, "."):
					doc = filepath.ToSlash(filepath.Join(filepath.Dir(name), doc))
				}
				cur = &label{doc: doc}
			case m[7] != "":
				cur = &label{doc: citeDocs[m[7]]}
				cites = append(cites, citation{where: where, doc: cur.doc, section: m[8]})
			case m[9] != "":
				cur = &label{}
			case m[10] != "":
				switch {
				case cur != nil:
					if cur.doc != "" {
						cites = append(cites, citation{where: where, doc: cur.doc, section: m[10]})
					}
				case self != "":
					cites = append(cites, citation{where: where, doc: self, section: m[10]})
				default:
					problems = append(problems, fmt.Sprintf("%s: §%s names no document (write SPEC §…, REFERENCE §…, STYLE §…, X.md §… or the standard it belongs to, in the same comment block)", where, m[10]))
				}
			}
		}
	}
	return cites, problems
}

// check reports every citation whose section or heading is missing from its docs file.
func check(cites []citation, docs map[string]docIndex) []string {
	var bad []string
	for _, c := range cites {
		idx, ok := docs[c.doc]
		switch {
		case !ok:
			bad = append(bad, fmt.Sprintf("%s: cites %s, which does not exist", c.where, c.doc))
		case c.heading != "":
			if !strings.Contains(idx.text, strings.ToLower(c.heading)) {
				bad = append(bad, fmt.Sprintf("%s: cites %q, but %s does not contain it", c.where, c.heading, c.doc))
			}
		case c.section != "" && !idx.sections[c.section]:
			what := "§" + c.section
			if strings.HasPrefix(c.section, "rule ") {
				what = c.section
			}
			bad = append(bad, fmt.Sprintf("%s: cites %s, but %s has no heading numbered %s", c.where, what, c.doc, strings.TrimPrefix(c.section, "rule ")))
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
	exists := func(p string) bool {
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
		return err == nil
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
		c, u := scanCitations(name, f, exists)
		f.Close()
		cites = append(cites, c...)
		bad = append(bad, u...)
	}
	docs := map[string]docIndex{}
	for _, c := range cites {
		if _, done := docs[c.doc]; done {
			continue
		}
		f, err := os.Open(filepath.Join(root, filepath.FromSlash(c.doc)))
		if err != nil {
			continue // reported per citation
		}
		docs[c.doc] = indexDoc(f)
		f.Close()
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

// The scanner attributes wrapped and listed sections to their label, binds every label that
// names a document, skips outside standards, reports uppercase .md names, missing docs files
// and unlabelled §, and check names the file and line of each unresolved citation.
func TestCitationScanner(t *testing.T) {
	src := strings.Join([]string{
		"// (SPEC §2.9, §2.12) and REFERENCE",                            // 1
		"// §7.5; RFC 8259 §7, JSON-RPC 2.0 §5.1",                        // 2
		"// PLATFORM rules 1–2, PLATFORM \"What works\", STYLE.md §10.5", // 3: STYLE.md is no file
		"// design.md §9.9 and STYLE §10.99",                             // 4
		"", "", "",                                                       // 5–7
		"// §4 alone",                  // 8
		"x := `</STYLE > */`",          // 9
		"// SPEC §2.1 says",            // 10
		"// architecture.md §42",       // 11: binds to architecture.md, not SPEC
		"// design §99.1 and MCP §3.2", // 12: a document word is a label; MCP § is not ours
		"//",                           // 13: ends the block
		"// §2.12 after a blank line",  // 14
		"// SPEC §2.9",                 // 15
		"f() // §2.12 in code",         // 16: code ends the comment block
		"// see docs/nope.md, docs/design.md and reference §7.5",   // 17
		`w.Write("docs/readme.md") // a workspace file, not a doc`, // 18: not checked: a string literal
	}, "\n")
	exists := func(p string) bool { return p == "docs/design.md" }
	cites, problems := scanCitations("wasm/x.go", strings.NewReader(src), exists)
	var got []string
	for _, c := range cites {
		got = append(got, c.where+" "+c.doc+" "+c.section+c.heading)
	}
	want := []string{
		"wasm/x.go:1 docs/design.md 2.9", "wasm/x.go:1 docs/design.md 2.12", "wasm/x.go:2 docs/reference.md 7.5",
		"wasm/x.go:3 docs/platform.md rule 1", "wasm/x.go:3 docs/platform.md rule 2", "wasm/x.go:3 docs/platform.md What works",
		"wasm/x.go:4 docs/design.md 9.9", "wasm/x.go:4 docs/style.md 10.99",
		"wasm/x.go:10 docs/design.md 2.1", "wasm/x.go:11 docs/architecture.md 42", "wasm/x.go:12 docs/design.md 99.1",
		"wasm/x.go:15 docs/design.md 2.9", "wasm/x.go:17 docs/reference.md 7.5",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("citations:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantProblems := []string{
		"wasm/x.go:3: STYLE.md names a file the repository does not have",
		"wasm/x.go:3: §10.5 names no document",
		"wasm/x.go:8: §4 names no document",
		"wasm/x.go:14: §2.12 names no document",
		"wasm/x.go:16: §2.12 names no document",
		"wasm/x.go:17: names docs/nope.md, which does not exist",
	}
	ok := len(problems) == len(wantProblems)
	for i := 0; ok && i < len(problems); i++ {
		ok = strings.HasPrefix(problems[i], wantProblems[i])
	}
	if !ok {
		t.Fatalf("problems:\n%s\nwant\n%s", strings.Join(problems, "\n"), strings.Join(wantProblems, "\n"))
	}
	docs := map[string]docIndex{
		"docs/design.md":    indexDoc(strings.NewReader("# D\n## 2. Decisions\n### 2.1 Tools\n### 2.9 Storage names\n### 2.12 Revision\n```\n## 9.9 in a fence\n```\n")),
		"docs/reference.md": indexDoc(strings.NewReader("### 7.5 OpenRouter agent\n")),
		"docs/platform.md":  indexDoc(strings.NewReader("## 1. What works and what does not\n### Rule 1. Never block\n### Rule 2. Keep it coarse\n")),
		"docs/style.md":     indexDoc(strings.NewReader("### 10.5 One coarse entry\n")),
	}
	bad := check(cites, docs)
	wantBad := []string{
		"wasm/x.go:4: cites §9.9, but docs/design.md has no heading numbered 9.9",
		"wasm/x.go:4: cites §10.99, but docs/style.md has no heading numbered 10.99",
		"wasm/x.go:11: cites docs/architecture.md, which does not exist",
		"wasm/x.go:12: cites §99.1, but docs/design.md has no heading numbered 99.1",
	}
	if strings.Join(bad, "\n") != strings.Join(wantBad, "\n") {
		t.Fatalf("check:\n%s\nwant\n%s", strings.Join(bad, "\n"), strings.Join(wantBad, "\n"))
	}
	// Inside docs/, a bare § refers to the file itself.
	self, none := scanCitations("docs/reference.md", strings.NewReader("see §5.4\n"), nil)
	if len(none) != 0 || len(self) != 1 || self[0].doc != "docs/reference.md" || self[0].section != "5.4" {
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
