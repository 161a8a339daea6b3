// Package folder implements workspace.FolderAdapter for a directory on disk (DirFolder), the
// native host's linked folder (SPEC §1, §3 "--dir is a linked folder").
//
// Every access goes through an os.Root opened on the directory, after a lexical check (no "..",
// no absolute paths, no NUL) and a symlink check (a symlink may be followed only when its
// target stays inside the root): a path or symlink that would leave the root fails with
// workspace.ErrFolderPathEscapes. Writes replace files atomically: the bytes go to a temporary
// file in the same directory, which is synced and renamed over the target. A vanished or
// replaced root is workspace.ErrFolderStale; reading an absent file is
// workspace.ErrFolderFileMissing; deleting an absent file succeeds.
//
// This package is native host code (it uses os); the wasm core never imports it.
//
// Owns: the native linked folder (DirFolder over os.Root), atomic writes, and the folder lock
// and save journal of the headless hosts (journal.go).
//
// Must never: follow a path or symlink out of the root, leave a file half written, or touch a
// file the journal does not name when it cleans up.
package folder
