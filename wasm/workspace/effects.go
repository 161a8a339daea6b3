package workspace

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
)

// newInstanceID returns "ws-" and 24 random hex digits: the identity of one workspace instance
// (issue 14 item 4). A Manager gets one when it is created; a Repository-backed workspace keeps
// the stored one across reloads (Metadata.Instance), so a reloaded tab is the same instance
// while another process on the same folder is another one.
func newInstanceID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "ws-" + hex.EncodeToString(b[:])
}

// Instance returns the workspace instance id ("ws-…").
func (m *Manager) Instance() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.instance
}

// Fingerprint returns SourceHash of the file's bytes as saved to a folder ("sha256:<hex>").
func (f *File) Fingerprint() string { return SourceHash(f.bytes()) }

// Fingerprints returns, for each path, the Fingerprint of the workspace file there now, or ""
// when there is none.
func (m *Manager) Fingerprints(paths []string) map[string]string {
	m.mu.Lock()
	files := m.files
	m.mu.Unlock()
	out := make(map[string]string, len(paths))
	for _, p := range paths {
		out[p] = ""
	}
	for _, f := range files {
		if _, ok := out[f.Path]; ok {
			out[f.Path] = f.Fingerprint()
		}
	}
	return out
}

// FolderFingerprints reads each path back from the linked folder and returns SourceHash of its
// bytes, or "" when the folder has no file there (ErrFolderFileMissing).
//
// Errors: ErrFolderNotLinked without a linked folder; any other read error of the adapter
// (permission, stale root, a directory in the way).
func (m *Manager) FolderFingerprints(ctx context.Context, paths []string) (map[string]string, error) {
	m.mu.Lock()
	folder := m.folder
	m.mu.Unlock()
	if folder == nil {
		return nil, ErrFolderNotLinked
	}
	out := make(map[string]string, len(paths))
	for _, p := range paths {
		data, err := folder.ReadFile(ctx, p)
		switch {
		case errors.Is(err, ErrFolderFileMissing):
			out[p] = ""
		case err != nil:
			return nil, err
		default:
			out[p] = SourceHash(data)
		}
	}
	return out, nil
}

// ErrFolderNotLinked is returned by FolderFingerprints when no folder is linked.
var ErrFolderNotLinked = errors.New("workspace: no folder is linked")
