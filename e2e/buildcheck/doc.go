// Package buildcheck runs the build verifier (scripts/verify-build, package
// scripts/verify-build/verify) as part of `make test`: it builds the studio once into a temp
// directory with host/sitebuild exactly as `webcoding build --base /web-coding/` does, checks
// that the build passes, and checks that doctored copies (a missing asset, other-origin
// resources, a stale precompressed file, a broken precache list) fail with the expected
// problems, both through the package and through the command's exit status.
//
// scripts/ is not in `go test ./host/... ./e2e/... ./wasm/...`, so the tests live here.
package buildcheck
