// Package browser holds the studio's browser tests: the built site (host/sitebuild, built once
// per test binary into a temp dir) served by host/devserver on 127.0.0.1:0 and driven in
// headless Chromium through the shared harness e2e/chromium (one browser per binary, one tab
// per test).
//
// Covered: first load ("Ready", "tools/list · 26", first preview ack); "Make it emerald" →
// approval card (focused) → Approve → the sandboxed iframe's computed --accent is #10b981 and
// the preview status shows the new revision acknowledged; Escape during a pending approval
// cancels with nothing executed; a reload restores files, active path and revision from
// IndexedDB; forged acks (wrong nonce, wrong revision) posted by the preview are ignored; a
// reload with the server stopped opens the studio from the service worker; a page without
// IndexedDB runs in memory mode with the storage error shown and returned; the hero/feature
// prompts change the iframe DOM and the error prompts show their codes; a throwing preview
// shows the runtime error alert and recovers; typing → workspace.writeFile → preview; the
// CodeMirror editor (editor_test.go: HTML/CSS/JS/Markdown highlighting, the live code-point
// budget with Ln/Col and the over-budget state that keeps the text, Ctrl+F search panel,
// workspace undo/redo replacing the document and clearing CodeMirror's history, locked while
// the agent runs); Ctrl/Cmd+Z
// and Shift+Z undo/redo; recipes, Export and the persistent-storage request; a second tab is
// read-only; a new deployment is announced with "Reload studio"; no horizontal overflow at
// 390 px; the conformance vectors pass inside the page (TestConformanceVectorsInPage, host
// "browser"); no console errors.
// The preview as context (preview_audit_test.go, issue 17): preview.audit runs axe-core in
// the frame and finds a planted missing-alt image and low-contrast text, through tools/call
// and the audit panel (Ask to fix fills the prompt), a racing edit is superseded, a page whose
// script failed is still audited; device sizes give the frame innerWidth 390 (Phone), 844
// (Rotate), a clamped custom width, fit the pane and survive a reload.
// The js-only adapters' own Go tests (jsbridge, iframe, idb — the workspace Repository
// contract) are compiled for GOOS=js and run in a page (TestAdapterTestsInChromium,
// TestIndexedDBRepository); TestBlobURLInOpaqueFrame measures SPEC §2.15.
// Transfer (transfer_test.go, real downloads saved by Chromium): Download of a text file and
// an asset (bytes, MIME type, last path segment), Upload files through the file input (PNG,
// font, text → tree, preview image, one Undo removes them; refused files each with their
// reason; files dropped on the explorer; a 4 MiB asset intact), Download as ZIP equal to the
// workspace, Export opened offline with no request; (new)/(replaced) per uploaded file and
// more than 200 files refused typed before any read (TestUploadSaysReplacedAndRefusesOverLimit);
// an inline favicon, no /favicon.ico request (TestFaviconIsInline).
// Folders (folder_test.go, OPFS handles injected for the picker): open with nested paths,
// spaces and % → tree/preview/diagnostics, edit + Ctrl+S → folder bytes equal the editor,
// rename/revert/reload, dirty + open another → dialog; stale root → Reconnect; permission
// prompt/denied → Grant; reload reconnects; crash mid-save (fail after k writes, reload while a
// write hangs) → nothing lost or rewritten, reconciled by hash; the directory-upload fallback
// (its skipped folders listed); a lost folder keeps its edits, name and Reconnect across a
// reload and Ctrl+S never falls back to the browser-only save (TestFolderLostKeepsEdits);
// "Saving… (n of m)" while a save runs (TestFolderSaveShowsProgress); typed text whose file
// vanished is rescued in the chat (TestDraftOfVanishedFileIsRescued).
// provider_test.go: OpenRouter in the page against host/fakeprovider on another loopback origin
// (real CORS) — 503 twice then success with the retry notices visible while waiting, 401 (no
// retry, settings actions), "Use local agent & retry" (no second provider request, key kept),
// an unreachable endpoint (network error, local retry), a two-turn tool loop with two
// approvals changing the preview plus an audit (CDP Network events, resource timing) that
// every request went to the served origin or the endpoint and the key is in no markup,
// preview, webcodingSubscribe event or console line; cancel during backoff and in flight
// (fetch aborted); the tools-only catalog with "Free only" and the zdr variant; the key in
// localStorage and another tab's storage events. TestFetchAdapterInChromium runs
// wasm/adapters/fetch's Go tests against a CORS server.
// Issue 9 conveniences (recovery_test.go, palette_test.go, approval_test.go, history_test.go):
// recovery actions per code (a prompt's stale approved write → WORKSPACE_REVISION_CONFLICT →
// Re-read & retry asks for approval again and succeeds; WORKSPACE_FILE_NOT_FOUND shows no Retry;
// a throwing preview → Refresh preview only, the applied write never re-run); quick open and
// workspace search by keyboard alone (combobox/listbox, Escape returns focus, an unsaved draft
// hit, the 80-row bound, the caret on the chosen line); ?prompt= fills the composer, leaves the
// address and never runs (over 4,000 characters: refused with a notice); the "Make it emerald"
// card's diff; Approve all for this run approves only that run; version history: three edits →
// four checkpoints with tools, a stale restore → Re-read & retry, files back, Undo returns.
//
// Trace and catalog (trace_test.go, catalog_test.go; issue 9): a prompt run is one
// agent.request row bracketing its calls (unique trace ids), a cancelled run and a provider
// failure are agent rows without completed calls, the expanded rows and the copied/downloaded
// export carry no seed source, search/replace text or planted key, 300 quick calls keep the
// trace at 256 rows, inspector tabs by arrow keys and Enter on a row; catalog counts and search
// match tools/list, selecting (even a destructive tool) runs nothing, the sample follows the
// revision but keeps edits, a stale Run sample shows WORKSPACE_REVISION_CONFLICT.

// Explorer, tabs, typing and accessibility (tree_test.go, tabs_test.go, editor_test.go,
// a11y_test.go): nested paths as an ARIA tree (levels, groups, one roving tabindex,
// Up/Down/Home/End/Left/Right/Enter, collapse kept across a re-render, dirty marker, the
// focused row's actions in the Tab order); tabs of opened files (tablist, roving focus, manual
// activation through workspace.openFile, Close/Delete never change files, sessionStorage across
// a reload); four idle flushes of one typing burst = one checkpoint, another write ends the
// burst; at 390×844 the prompt comes before the editor with no horizontal overflow; text
// contrast ≥ 4.5:1 (editor line numbers included) and buttons ≥ 24×24 CSS px.
//
// Benchmarks (go test -run '^$' -bench . ./e2e/browser): tools/call round trip inside the page,
// edit → ack latency (p50/p95), cold start (navigation → core ready / first preview ack in a
// fresh browser context), Save to folder of 20 edited files through the durable runner into
// OPFS (BenchmarkFolderSave: ms/op and ms/file), keystroke → paint p50/p95 idle and while
// edits land and the preview recompiles (BenchmarkKeystrokeToPaint).
//
// New-user fixes (newuser_test.go): navigating the same tab to the studio again stays
// writable (the old page's workspace lock is waited for); a read-only second tab takes over,
// re-hydrated from IndexedDB, when the first tab closes; an upper-case endpoint scheme works
// while user:password endpoints and non-ASCII keys are refused at Save; the catalog names the
// typed endpoint; Send is disabled during a run and a prompt typed meanwhile is kept,
// Ctrl+Enter sends; focus returns to the prompt after Cancel, Escape and a restore; a user's
// Deny reads "Denied by you."; an invalid New file / Rename name keeps the dialog open with
// the error inside; a model call with truncated arguments shows in the chat and the trace.
//
// Issue-9 tester fixes: choosing a quick-open/search result with Enter never reopens the
// opener and puts focus in the editor (palette_enter_test.go); Run sample refuses repeated
// keys and asks before a non-read-only tool (catalog_guard_test.go); the approval diff adds no
// trace rows (trace_noise_test.go); history Re-read & retry asks again (history_test.go).
// Focus (focus_test.go): Approve moves focus to the next card or the prompt, Rename/Delete
// focus the renamed or neighbouring tree item, Full screen preview makes the rest inert.
// Layout (a11y_test.go): source order = visual order at 1440 px; one header row, spaced
// transfer buttons, deep tree names visible, collapsible remembered inspector.
//
// Preview bridge (preview_test.go): a `while(true){}` preview times out, the status line says
// so and the next revision is acknowledged in a fresh frame without a reload; Refresh replaces
// the iframe element; without index.html the panel names the fallback entry it renders; a long runtime error wraps
// inside the panel; preview code cannot find the mount nonce (DOM, scripts, globals) and its
// forged ready is ignored.
//
// The surface pages of issue 18 (surfaces_test.go; live/ and realtime/ of the same built
// site, body[data-state="ready"] and webcodingHandle as in the studio): the Live Code
// Editor's canonical order over a linked OPFS folder (tools/list's eleven tools →
// editor.getStatus → listFiles → openFile → setDocument → the iframe shows the text,
// "rendered" → saveFile: the folder's bytes equal the document, one write, a keyed replay
// writes nothing) with both clocks at every step and on the page; a stale expectedRevision
// refused WORKSPACE_REVISION_CONFLICT with nothing changed on each guarded tool of both
// surfaces; scenario switches (tools and buttons) → clocks, the projection preview,
// editor/runScenario's safe-runner events, a projected script never runs; saveAll failing
// after 2 of 5 writes → TOOL_EXECUTION_UNKNOWN, the keyed retry refused, editor/recoverSave's
// read-back, each file written exactly once, a landed last write completed by recovery, the
// records in web-coding-live-editor-operations, the page's Save all cut short → "Check the
// folder" completes it without a write; every palette card of both pages runs (the Live saves
// without a folder give WORKSPACE_FOLDER_NOT_CONNECTED) and the iframe shows the theme, hero,
// feature and patch; the local agent through the chat (approval cards, transcript, preview);
// a model's editor.saveFile waits for its card (Deny → nothing written, Approve → written
// once); ready means the preview acknowledged, in the studio's sandbox; both pages reload
// offline from the service worker; a second tab of each surface is read-only
// (WORKSPACE_READ_ONLY) under its own Web Lock and IndexedDB names, never the studio's, and
// takes over when the first closes with no write lost meanwhile; no console errors.
//
// Editor drafts (draft_test.go): text typed just before a reload is stored on pagehide and
// written after it; a stored draft whose file changed is kept in the chat, not written.
//
// The tabs of these tests have no service worker (chromium.ServiceWorkers, set in TestMain:
// the studio then runs as in a browser that offers none, and no fresh context pays for the
// worker's precache of every page's assets); the tests of the worker itself — offline
// reloads of the studio and the surfaces, a new version taking over, the framed studio that
// registers none — open theirs with one (openServiceWorkerStudio, chromium.NewServiceWorkerTab).
// Benchmarks keep the worker: they measure what users run.
//
// Most tests open the studio in a recycled tab (chromium.NewRecycledTab: a browser context of
// its own that an earlier test used, its site data, sessionStorage, history and injected
// scripts reset; only its HTTP cache and renderer carry over, as for a returning visitor):
// a studio start there costs about 40 % less CPU than in a new context. Tests that add their own
// DevTools listeners (the network audits, downloads) and benchmarks open new contexts.
// TestFirstLoad opens a new context: it is about a first visit.
//
// Requirements: the go command and Chromium (see e2e/chromium: CHROME_PATH, PATH, or
// apt-get install -y chromium as root). `go test ./e2e/...` runs everything here.
package browser
