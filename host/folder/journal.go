package folder

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The save journal (issue 14 item 5). A headless host that writes into a linked folder (the
// CLI's call/agent/mcp over --dir) keeps, in DIR/.webcoding/ (JournalDir):
//
//   - lock: an exclusive advisory lock (flock) held for the life of the process, holding
//     "pid <n> <command>" — a second process on the same folder gets ErrFolderBusy naming it;
//   - save-journal.jsonl: while a call writes into the folder, one line before each write or
//     delete ({"op":"write","path","hash"} / {"op":"delete","path"}) and one after it
//     ({"op":"done"|"failed","path"}); the file is removed when the call returns. The journal
//     is not synced to disk after each line: it protects against a killed process, not a
//     power failure (each file write itself is fsynced and renamed into place).
//
// A journal found at the next start means a save was interrupted. OpenJournal then rolls it
// forward by reading the folder back (every journaled path: does it hold what the save was
// writing, is a deleted path gone?), removes the temporary files our writes leave when killed
// (".<name>.tmp-<16 hex>"), removes the journal and returns what it found (Recovery) for the
// host to report. The folder's content is then what the next import reads: nothing is
// re-written, because the bytes of writes that never began are not in the journal.
//
// The journal directory starts with a dot, so the folder import never enters it.

// JournalDir is the journal's directory inside the linked folder.
const JournalDir = ".webcoding"

const (
	lockName    = "lock"
	journalName = "save-journal.jsonl"
)

// ErrFolderBusy is returned by OpenJournal when another process holds the folder's lock.
var ErrFolderBusy = errors.New("folder: in use by another webcoding process")

// tempPattern matches the temporary files WriteFile creates next to their target.
var tempPattern = regexp.MustCompile(`^\..+\.tmp-[0-9a-f]{16}$`)

// Journal is an open save journal holding the folder's lock. Safe for concurrent use.
type Journal struct {
	dir  string // DIR/.webcoding
	lock *os.File

	mu     sync.Mutex
	f      *os.File // save-journal.jsonl while a call writes; nil otherwise
	closed bool
}

// Recovery is what OpenJournal found of an interrupted save (Interrupted false: none).
//
//	Written:      journaled writes whose path holds the bytes the save was writing
//	NotWritten:   journaled writes whose path holds something else (the old content)
//	Deleted:      journaled deletes whose path is gone
//	NotDeleted:   journaled deletes whose path still exists
//	TempsRemoved: our temporary files removed (folder-relative paths)
//
// Paths are sorted. StartedAt and PID come from the journal's first line.
type Recovery struct {
	Interrupted  bool
	StartedAt    string
	PID          int
	Written      []string
	NotWritten   []string
	Deleted      []string
	NotDeleted   []string
	TempsRemoved []string
}

// Summary is a one-line report of r for a log or stderr.
func (r Recovery) Summary(dir string) string {
	if !r.Interrupted {
		if len(r.TempsRemoved) > 0 {
			return fmt.Sprintf("removed %d leftover temporary file(s) in %s: %s", len(r.TempsRemoved), dir, list(r.TempsRemoved))
		}
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the previous save into %s was interrupted (process %d, started %s); read back: %d file(s) written",
		dir, r.PID, r.StartedAt, len(r.Written))
	if len(r.NotWritten) > 0 {
		fmt.Fprintf(&b, ", %d NOT written (they keep their old content: %s)", len(r.NotWritten), list(r.NotWritten))
	}
	if len(r.Deleted)+len(r.NotDeleted) > 0 {
		fmt.Fprintf(&b, ", %d deleted", len(r.Deleted))
	}
	if len(r.NotDeleted) > 0 {
		fmt.Fprintf(&b, ", %d NOT deleted (%s)", len(r.NotDeleted), list(r.NotDeleted))
	}
	if len(r.TempsRemoved) > 0 {
		fmt.Fprintf(&b, "; removed %d temporary file(s)", len(r.TempsRemoved))
	}
	b.WriteString(". Files the save had not reached keep their old content, and the killed process's unsaved edits are gone: the workspace now shows the folder as it is; redo the edits that did not reach it.")
	return b.String()
}

func list(ps []string) string {
	const max = 10
	if len(ps) <= max {
		return strings.Join(ps, ", ")
	}
	return strings.Join(ps[:max], ", ") + fmt.Sprintf(" and %d more", len(ps)-max)
}

// OpenJournal takes the lock of the folder dir (absolute), recovers an interrupted save and
// returns the journal. command names the holder in the lock file ("call", "mcp", …).
//
// Errors: ErrFolderBusy (wrapped, with the holder's pid and command) when another process
// holds the lock; a failure to create DIR/.webcoding or the lock file.
func OpenJournal(dir, command string) (*Journal, Recovery, error) {
	jdir := filepath.Join(dir, JournalDir)
	if err := os.MkdirAll(jdir, 0o755); err != nil {
		return nil, Recovery{}, fmt.Errorf("folder: save journal: %w", err)
	}
	lf, err := os.OpenFile(filepath.Join(jdir, lockName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, Recovery{}, fmt.Errorf("folder: save journal lock: %w", err)
	}
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(lf.Name())
		lf.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			h := strings.TrimSpace(string(holder))
			if h == "" {
				h = "another process"
			}
			return nil, Recovery{}, fmt.Errorf("%w: %s holds %s (two processes saving into one folder would interleave their writes); stop it or use another folder",
				ErrFolderBusy, h, filepath.Join(jdir, lockName))
		}
		return nil, Recovery{}, fmt.Errorf("folder: save journal lock: %w", err)
	}
	_ = lf.Truncate(0)
	_, _ = lf.WriteAt([]byte(fmt.Sprintf("pid %d %s\n", os.Getpid(), command)), 0)
	j := &Journal{dir: jdir, lock: lf}
	rec := j.recover(dir)
	return j, rec, nil
}

type journalLine struct {
	Op    string `json:"op"`
	Path  string `json:"path,omitempty"`
	Hash  string `json:"hash,omitempty"`
	PID   int    `json:"pid,omitempty"`
	At    string `json:"at,omitempty"`
	Error string `json:"error,omitempty"`
}

// recover reads a leftover journal (see the package comment) and removes our temporaries.
func (j *Journal) recover(root string) Recovery {
	var r Recovery
	name := filepath.Join(j.dir, journalName)
	data, err := os.ReadFile(name)
	if err == nil {
		r.Interrupted = true
		writes := map[string]string{}
		written := map[string]bool{} // every path a write began on (its temporary may be left)
		deletes := map[string]bool{}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			var l journalLine
			if json.Unmarshal(sc.Bytes(), &l) != nil {
				continue // a line cut by the kill
			}
			switch l.Op {
			case "begin":
				r.PID, r.StartedAt = l.PID, l.At
			case "write":
				writes[l.Path] = l.Hash
				written[l.Path] = true
				delete(deletes, l.Path)
			case "delete":
				deletes[l.Path] = true
				delete(writes, l.Path)
			}
		}
		for p, h := range writes {
			b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
			if err == nil && hashOf(b) == h {
				r.Written = append(r.Written, p)
			} else {
				r.NotWritten = append(r.NotWritten, p)
			}
		}
		for p := range deletes {
			if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p))); errors.Is(err, fs.ErrNotExist) {
				r.Deleted = append(r.Deleted, p)
			} else {
				r.NotDeleted = append(r.NotDeleted, p)
			}
		}
		_ = os.Remove(name)
		r.TempsRemoved = removeTemps(root, slices.Collect(maps.Keys(written)))
	}
	for _, s := range [][]string{r.Written, r.NotWritten, r.Deleted, r.NotDeleted} {
		slices.Sort(s)
	}
	return r
}

// removeTemps removes the temporary files WriteFile leaves next to a journaled path when the
// process is killed mid-write (".<name>.tmp-<16 hex>" in the path's directory), returning
// their folder-relative paths, sorted. Only the journal's paths are looked at: a file of the
// user's that merely looks like a temporary is never touched.
func removeTemps(root string, paths []string) []string {
	var out []string
	for _, rel := range paths {
		dir := filepath.Dir(filepath.Join(root, filepath.FromSlash(rel)))
		prefix := "." + path.Base(rel) + ".tmp-"
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := e.Name()
			if !e.Type().IsRegular() || !strings.HasPrefix(name, prefix) || !tempPattern.MatchString(name) ||
				len(name) != len(prefix)+16 {
				continue
			}
			if os.Remove(filepath.Join(dir, name)) == nil {
				r, _ := filepath.Rel(root, filepath.Join(dir, name))
				out = append(out, filepath.ToSlash(r))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func hashOf(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// append writes one journal line, opening the journal (with its "begin" line) on first use.
func (j *Journal) append(l journalLine) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return errors.New("folder: save journal is closed")
	}
	if j.f == nil {
		f, err := os.OpenFile(filepath.Join(j.dir, journalName), os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("folder: save journal: %w", err)
		}
		j.f = f
		b, _ := json.Marshal(journalLine{Op: "begin", PID: os.Getpid(), At: time.Now().UTC().Format(time.RFC3339)})
		if _, err := f.Write(append(b, '\n')); err != nil {
			return fmt.Errorf("folder: save journal: %w", err)
		}
	}
	b, _ := json.Marshal(l)
	if _, err := j.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("folder: save journal: %w", err)
	}
	return nil
}

// End marks the end of a call: the writes it journaled all returned, so the journal is
// removed. A call that wrote nothing leaves nothing to remove.
func (j *Journal) End() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return nil
	}
	err := j.f.Close()
	j.f = nil
	if rerr := os.Remove(filepath.Join(j.dir, journalName)); rerr != nil && err == nil {
		err = rerr
	}
	return err
}

// Close ends the journal (End) and releases the lock.
func (j *Journal) Close() error {
	err := j.End()
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return err
	}
	j.closed = true
	_ = j.lock.Truncate(0)
	if cerr := j.lock.Close(); err == nil {
		err = cerr
	}
	return err
}

// HolderPID parses "pid <n> …" from a lock file's content (0 when absent); for tests.
func HolderPID(content string) int {
	f := strings.Fields(content)
	if len(f) >= 2 && f[0] == "pid" {
		n, _ := strconv.Atoi(f[1])
		return n
	}
	return 0
}
