// Package screenshots drives the built studio in Chromium at the two documented viewports —
// desktop 1440×1000 and mobile 390×844 (issue 4, "Done when") — and checks that neither
// scrolls horizontally after first load or after "Make it emerald" is approved.
//
// It captures docs/studio-desktop.png, docs/studio-mobile.png and
// docs/studio-emerald-desktop.png (PNG, device scale 1). By default the images go to a temp
// directory and are only checked (decodable, right size, not blank); to refresh the committed
// ones run
//
//	WEBCODING_SCREENSHOTS=docs go test -count=1 -run TestScreenshots ./e2e/screenshots
//
// (any other value of WEBCODING_SCREENSHOTS is taken as the output directory). The site is
// built once with host/sitebuild and served by host/devserver on 127.0.0.1:0, as `make run`
// serves it; every viewport uses a fresh browser context so first load is the seeded
// canvas-landing workspace.
package screenshots
