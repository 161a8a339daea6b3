// Package realsites measures how real public static sites behave in the studio's preview
// against the same folder served over HTTP (issue 13, "The preview behaves like the real
// browser"). It is a measurement, not a gate: scripts/realsites.sh fetches the sites (npm
// tarballs pinned in scripts/realsites.txt, unpacked outside the repository) and runs
// TestRealSites with WEBCODING_REALSITES set to the folder that holds one sub-folder per site;
// without that variable the browser test skips, so `make test` needs no network. The pure
// parts (the list format, the comparison of two runs' observations, the screenshot diff) are
// in compare.go and are unit-tested without a browser or network (compare_test.go, in make test).
//
// Each site is imported as the studio imports a folder (workspace.ImportFiles, its limits and
// skips included), then run three times in one Chromium, one after another, with the same
// viewport (800×600 CSS px) and probe (e2e/fidelity/harness): served twice (the second run is
// the control: what differs between two served runs — a clock, a random quote, an animation
// frame — is "unstable" and not compared) and once in the preview. See Compare for what is
// observed and when two runs count as identical.
//
// The sites are served over HTTPS at the root of a loopback origin of their own, as they are
// deployed (the preview's virtual origin is https: too, so a page that picks a host by
// location.protocol — the classic Google Analytics snippet — asks the same one in both runs);
// Chromium trusts the test servers' certificate by its key (--ignore-certificate-errors-spki-
// list). The browser is offline, as the preview is by default: a name other than the loopback's
// resolves to nothing at once (--host-resolver-rules), where a lookup on a machine without DNS
// hung and a served run observed a request still pending that the preview had refused. An
// http: frame or script of a served page, which Chromium blocks as mixed content without a
// request, counts as a failed request, as the preview reports the same URL refused. Both runs
// observe at the same times after the document's load event by the page's own clock.
//
// The browser is Debian's Chromium (chromium.Full), not the headless shell the other browser
// tests use: the shell never requests a page's icons, so a served run there lacked the
// favicon requests Chromium makes and the preview reports (owl's docs, Vite's Lit template,
// Pico's docs diverged in the shell and are identical in Chromium).
package realsites
