// Package planner is the local deterministic agent's planner: it turns an English or Korean
// prompt into the tool calls the studio runs when no model key is configured
// (REFERENCE §7; issue 3, "Local agent").
//
// The package is pure functions over strings; it does not call the registry. The executor
// (which lives with the registry) runs a plan call by call through the model path, exactly
// like a model would: ids from CallID ("local-model-<session>-<index>-<tool>"), context
// source "local", mode "agent", so approvals apply to every non-read-only call. Between calls
// it threads the revision with ThreadRevision and NextPlannedRevision, stops at the first
// failure, and answers with SuccessSummary or FailureSummary.
//
//   - PromptToToolCalls: prompt parsing, REFERENCE §7.1.
//   - Build / BuildPlan: plan building (getStatus first for mutations, listFiles/readFile
//     preflight, saveAll → saveCheckpoint without a writable folder), REFERENCE §7.2.
//   - GuardedTools, ThreadRevision, NextPlannedRevision: revision threading, REFERENCE §7.3.
//   - SuccessSummary, FailureSummary, IsRevisionConflict: response texts, REFERENCE §7.3.
//   - Recipes: the 14-entry prompt-recipe catalog, REFERENCE §7.4.
//
// Tool names are the constants of tools.go, kept in one file so that they can be swapped
// for the studio package's constants.
//
// This package is core: it imports only the standard library and wasm/mcp, and must never
// import syscall/js, os or host code.
//
// # Rationale
//
// Quoted text is data, never a keyword. The original matched its keyword patterns against
// the whole prompt, quotes included. So in
//
//	Change index.html from "text that is not in this file" to "new text"
//
// the words "new" (inside the replacement) and "file" (inside the search text) also planned
// a workspace.createFile{index.html} after the patch (REFERENCE §7.4 lists this as a quirk).
// Here every quoted span ("…", “…”, '…', 「…」) is cut out before any keyword pattern runs,
// and that prompt plans getStatus, listFiles, readFile, applyPatch only. Quoted values are
// still read as values: the patch's search and replace, a feature card's title and
// description, the hero's title and subtitle. A quoted value that is exactly one path token
// (`Open "app.js"`) still counts as a path; a path inside longer quoted text (`"Edit
// notes.md fast"`) does not, so copy text cannot retarget a plan.
//
// Path tokens are not keywords either: they are masked like quotes before keyword matching,
// so "new-file.md" no longer reads as "new" + "file" and "green.css" does not pick a theme.
//
// English keywords must start a word. The original matched most English keywords as
// substrings, so "remove" contained "move" (a rename), "discard" contained "card" (a new
// feature card), "preview" contained "view" (open a file) and "prose" contained "rose" (a
// theme). Here `\bcard` matches "card" and "cards" but not "discard". The words the
// reference calls words (undo, redo, and the path fallbacks readme, index, style(s), app,
// note(s)) must also end one. Korean keywords still match anywhere, since particles attach
// to words ("파일을", "상태는").
//
// Smaller fixes: "저장 가능" (can it be saved?) asks for status and no longer also plans a
// save; "폴더 연결 해제" (disconnect the folder) no longer stops at the "폴더 연결" status
// exit; a single quote only opens a quoted value at a word start and closes it at a word end,
// so apostrophes ("it's", "don't") are not quotes; the path scanner requires the extension
// to end the token, so "data.json" is never read as "data.js" (the original's rename
// pattern did); "새 파일" (new file) counts as a create request, and the common spoken forms
// "되돌려" (undo) and "지우" (delete) are recognized. Tokens with a ".." segment are never
// proposed as paths.
//
// Keywords are matched by a small phrase matcher (keyword.go), not package regexp. It does
// the same job (a test checks it against the equivalent regular expressions) in a few
// strings.Index calls, and its work depends only on its input; regexp's pooled machines made
// fuzzing coverage vary between runs, which stalled the fuzzer's minimizer.
//
// Values are never truncated to fit a schema limit: an over-long quoted title is passed as
// written and the tool's input validation refuses it (TOOL_VALIDATION_FAILED), which the run
// reports as its failure.
//
// Owns: the local keyword planner: a prompt in, the plan of tool calls and its summaries out.
//
// Must never: import the registry (it runs plans only through the call function it is given) or any
// adapter (layer order: wasm/doc.go, enforced by wasm/layout_test.go).
package planner
