// Package sites is a native end-to-end check of the studio core against real input: the
// small static sites under e2e/testdata/sites (a vanilla ES-module app with CSS @import
// chains, a multi-page portfolio with spaces and accents in file names, a canvas game with
// PNG sprites, a module dashboard with a URL-encoded import, a Korean recipe site with a
// poster asset and a data: image).
//
// Each site is read from disk with os, imported through workspace.ImportFiles, compiled with
// preview.Compile (clean diagnostics: no missing or blocked reference), and linked as a
// folder (host/folder.DirFolder over a temporary copy) in a studio session, where an
// applyPatch + readFile round-trips through the registry and saveAll writes the bytes back.
// It also holds the done-when check on disk: "Make it emerald" through agent/run
// with approval, then saveAll, changes styles.css in a copy of the seed.
//
// The package has only tests.
package sites
