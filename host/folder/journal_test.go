package folder

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// An interrupted save's recovery removes the temporaries of the paths its journal names and
// nothing else: a user's file that merely looks like a temporary (another name, another
// folder) stays (a new user's finding, issue 14).
func TestRecoveryRemovesOnlyJournaledTemps(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	must(os.MkdirAll(filepath.Join(dir, JournalDir), 0o755))
	files := map[string]string{
		"a.js":                               "old",
		".a.js.tmp-0123456789abcdef":         "half written", // ours: a.js is journaled
		"sub/.x.js.tmp-aaaaaaaaaaaaaaaa":     "user's file",  // not journaled
		".f000.js.tmp-0123456789abcdef":      "user's file",  // not journaled
		".a.js.tmp-0123456789abcdef-notours": "user's file",  // not the pattern
	}
	for p, s := range files {
		must(os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), []byte(s), 0o644))
	}
	journal := `{"op":"begin","pid":1,"at":"2026-12-02T00:00:00Z"}` + "\n" +
		`{"op":"write","path":"a.js","hash":"sha256:00"}` + "\n"
	must(os.WriteFile(filepath.Join(dir, JournalDir, journalName), []byte(journal), 0o644))

	j, rec, err := OpenJournal(dir, "test")
	must(err)
	defer j.Close()
	if !rec.Interrupted || !slices.Equal(rec.TempsRemoved, []string{".a.js.tmp-0123456789abcdef"}) {
		t.Fatalf("recovery = %+v, want only .a.js.tmp-0123456789abcdef removed", rec)
	}
	for p := range files {
		_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p)))
		if gone := err != nil; gone != (p == ".a.js.tmp-0123456789abcdef") {
			t.Errorf("%s: gone=%v", p, gone)
		}
	}

	// Without a journal (no interrupted save) nothing is removed.
	must(j.Close())
	must(os.WriteFile(filepath.Join(dir, ".a.js.tmp-0123456789abcdef"), []byte("x"), 0o644))
	j2, rec2, err := OpenJournal(dir, "test")
	must(err)
	defer j2.Close()
	if rec2.Interrupted || len(rec2.TempsRemoved) != 0 {
		t.Fatalf("recovery without a journal = %+v, want nothing", rec2)
	}
}
