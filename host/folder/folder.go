package folder

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/webcoding/studio/wasm/workspace"
)

// maxTreeEntries bounds ReadTree. The importer examines MaxImportScannedEntries entries and
// only counts the rest, so that its summary says how many files it left out (issue 14: "1800
// more" was said for 9,801); ReadTree lists paths and sizes only (bytes are read lazily), so
// 100,000 entries cost a few megabytes. A folder beyond that is counted up to it.
const maxTreeEntries = 100_000

// DirFolder is a workspace.FolderAdapter rooted at a directory. It is safe for concurrent use.
type DirFolder struct {
	dir   string // absolute, symlinks resolved
	info  os.FileInfo
	root  *os.Root
	scope string
	// journal, when set (SetJournal), records every write and delete (journal.go).
	journal *Journal
}

// SetJournal makes d record each write and delete in j (before and after it). Set it before
// use; it is not synchronized with running calls.
func (d *DirFolder) SetJournal(j *Journal) { d.journal = j }

// journaled runs op between a journal line l and its outcome line. A journal that cannot be
// written fails op before it starts (nothing changed in the folder).
func (d *DirFolder) journaled(l journalLine, op func() error) error {
	if d.journal == nil {
		return op()
	}
	if err := d.journal.append(l); err != nil {
		return err
	}
	err := op()
	end := journalLine{Op: "done", Path: l.Path}
	if err != nil {
		end = journalLine{Op: "failed", Path: l.Path, Error: err.Error()}
	}
	_ = d.journal.append(end)
	return err
}

var _ workspace.FolderAdapter = (*DirFolder)(nil)

// Open links the directory dir. The scope id is "folder:<32 hex>", new for every Open
// (REFERENCE §6.6). It fails when dir is not an existing directory.
func Open(dir string) (*DirFolder, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("folder: %w", err)
	}
	if abs, err = filepath.EvalSymlinks(abs); err != nil {
		return nil, fmt.Errorf("folder: %w", err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("folder: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("folder: %s is not a directory", abs)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("folder: %w", err)
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	return &DirFolder{dir: abs, info: info, root: root, scope: "folder:" + hex.EncodeToString(b[:])}, nil
}

// Close releases the directory handle.
func (d *DirFolder) Close() error { return d.root.Close() }

// Dir returns the absolute directory path.
func (d *DirFolder) Dir() string { return d.dir }

// Name is the directory's base name.
func (d *DirFolder) Name() string { return filepath.Base(d.dir) }

// ScopeID is the scope id chosen at Open.
func (d *DirFolder) ScopeID() string { return d.scope }

// Permission is granted while the directory is reachable, denied when the process lacks
// access to it, unknown when it is gone.
func (d *DirFolder) Permission(ctx context.Context) workspace.Permission {
	if err := d.alive(); err != nil {
		return workspace.PermissionUnknown
	}
	if _, err := d.root.Stat("."); err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return workspace.PermissionDenied
		}
		return workspace.PermissionUnknown
	}
	return workspace.PermissionGranted
}

// alive reports ErrFolderStale when the directory no longer exists at its path or was replaced.
func (d *DirFolder) alive() error {
	info, err := os.Stat(d.dir)
	if err != nil || !os.SameFile(info, d.info) {
		return fmt.Errorf("%w: %s", workspace.ErrFolderStale, d.dir)
	}
	return nil
}

// check validates a workspace path: lexically (it must already be normalized: no "..", no
// empty or "." segments, no NUL, not absolute) and against symlinks leaving the root. It
// returns the OS-native relative name.
func (d *DirFolder) check(p string) (string, error) {
	if p == "" || strings.ContainsRune(p, 0) || strings.Contains(p, "\\") || path.IsAbs(p) {
		return "", fmt.Errorf("%w: %q", workspace.ErrFolderPathEscapes, p)
	}
	segs := strings.Split(p, "/")
	for _, s := range segs {
		if s == "" || s == "." || s == ".." {
			return "", fmt.Errorf("%w: %q", workspace.ErrFolderPathEscapes, p)
		}
	}
	for i := range segs {
		prefix := strings.Join(segs[:i+1], "/")
		info, err := d.root.Lstat(filepath.FromSlash(prefix))
		if err != nil {
			break // the rest does not exist yet
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			target, err := filepath.EvalSymlinks(filepath.Join(d.dir, filepath.FromSlash(prefix)))
			if err != nil || !within(d.dir, target) {
				return "", fmt.Errorf("%w: %q is a symlink leaving the folder", workspace.ErrFolderPathEscapes, prefix)
			}
		}
	}
	return filepath.FromSlash(p), nil
}

func within(dir, target string) bool {
	rel, err := filepath.Rel(dir, target)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// mapErr turns an os error into the port's sentinels.
func (d *DirFolder) mapErr(p string, err error) error {
	if err == nil {
		return nil
	}
	if aerr := d.alive(); aerr != nil {
		return aerr
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: %s: %v", workspace.ErrFolderFileMissing, p, err)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%w: %s: %v", workspace.ErrFolderPermission, p, err)
	case errors.Is(err, syscall.EISDIR), errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("%w: %s: %v", workspace.ErrFolderNotAFile, p, err)
	case strings.Contains(err.Error(), "escapes"):
		return fmt.Errorf("%w: %s: %v", workspace.ErrFolderPathEscapes, p, err)
	}
	return fmt.Errorf("folder: %s: %w", p, err)
}

// ReadTree lists regular files in lexical walk order with "/"-separated paths. It does not
// descend into dot-directories or node_modules and does not follow symlinks (symlinked
// entries are left out); it stops after MaxImportScannedEntries+1 files. Each entry reads its
// bytes lazily through the root.
func (d *DirFolder) ReadTree(ctx context.Context) ([]workspace.ImportEntry, error) {
	if err := d.alive(); err != nil {
		return nil, err
	}
	var out []workspace.ImportEntry
	errStop := errors.New("stop")
	err := fs.WalkDir(d.root.FS(), ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			return nil // unreadable subtree: skip
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if e.IsDir() {
			if p != "." && (strings.HasPrefix(e.Name(), ".") || e.Name() == "node_modules") {
				return fs.SkipDir
			}
			return nil
		}
		if !e.Type().IsRegular() {
			return nil
		}
		info, err := e.Info()
		if err != nil {
			return nil
		}
		rel := p
		out = append(out, workspace.ImportEntry{Path: rel, Size: info.Size(),
			Read: func(ctx context.Context) ([]byte, error) { return d.ReadFile(ctx, rel) }})
		if len(out) >= maxTreeEntries {
			return errStop
		}
		return nil
	})
	if err != nil && err != errStop {
		return nil, d.mapErr(".", err)
	}
	return out, nil
}

// ReadFile returns a file's bytes (ErrFolderFileMissing when absent, ErrFolderNotAFile when a
// directory is at p or a file is where a parent directory should be).
func (d *DirFolder) ReadFile(ctx context.Context, p string) ([]byte, error) {
	if err := d.alive(); err != nil {
		return nil, err
	}
	name, err := d.check(p)
	if err != nil {
		return nil, err
	}
	data, err := d.root.ReadFile(name)
	return data, d.mapErr(p, err)
}

// WriteFile replaces p atomically (temp file in the same directory, fsync, rename), creating
// parent directories as needed. An existing file keeps its permission bits. A directory (or
// other non-regular file) at p, or a file where a parent directory is needed, fails with
// ErrFolderNotAFile before anything is written.
func (d *DirFolder) WriteFile(ctx context.Context, p string, data []byte) error {
	return d.journaled(journalLine{Op: "write", Path: p, Hash: hashOf(data)}, func() error { return d.writeFile(ctx, p, data) })
}

func (d *DirFolder) writeFile(ctx context.Context, p string, data []byte) error {
	if err := d.alive(); err != nil {
		return err
	}
	name, err := d.check(p)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	dir := filepath.Dir(name)
	if dir != "." {
		if err := d.root.MkdirAll(dir, 0o755); err != nil {
			if errors.Is(err, fs.ErrExist) { // a parent exists but is not a directory
				return fmt.Errorf("%w: %s: %v", workspace.ErrFolderNotAFile, p, err)
			}
			return d.mapErr(p, err)
		}
		// MkdirAll may have followed a symlink created meanwhile: check again.
		if _, err := d.check(p); err != nil {
			return err
		}
	}
	mode := fs.FileMode(0o644)
	if info, err := d.root.Stat(name); err == nil {
		if !info.Mode().IsRegular() {
			return fmt.Errorf("%w: %s is not a regular file", workspace.ErrFolderNotAFile, p)
		}
		mode = info.Mode().Perm()
	}
	fault("before-write")
	var b [8]byte
	_, _ = rand.Read(b[:])
	tmp := filepath.Join(dir, "."+filepath.Base(name)+".tmp-"+hex.EncodeToString(b[:]))
	f, err := d.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return d.mapErr(p, err)
	}
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		fault("after-temp")
		werr = d.root.Rename(tmp, name)
	}
	if werr == nil {
		fault("after-rename")
	}
	if werr != nil {
		_ = d.root.Remove(tmp)
		return d.mapErr(p, werr)
	}
	return nil
}

// DeleteFile removes p; an absent file is success, a vanished root is ErrFolderStale.
func (d *DirFolder) DeleteFile(ctx context.Context, p string) error {
	return d.journaled(journalLine{Op: "delete", Path: p}, func() error { return d.deleteFile(ctx, p) })
}

func (d *DirFolder) deleteFile(ctx context.Context, p string) error {
	if err := d.alive(); err != nil {
		return err
	}
	name, err := d.check(p)
	if err != nil {
		return err
	}
	if err := d.root.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return d.mapErr(p, err)
	} else if err != nil {
		return d.alive()
	}
	// Remove the parent folders the delete emptied (a rename's old folder), never the root:
	// Remove refuses a non-empty folder, which ends the walk.
	for dir := filepath.Dir(name); dir != "." && dir != string(filepath.Separator); dir = filepath.Dir(dir) {
		if d.root.Remove(dir) != nil {
			break
		}
	}
	return nil
}
