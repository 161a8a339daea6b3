// editor.js — the CodeMirror 6 widget glue (SPEC §2.7). It only bridges the widget to Go:
// set document, get document, change and cursor events, read-only. Drafts, flushes
// (workspace.writeFile), the budget and the header text are Go's (wasm/cmd/browser).
import { EditorState, Compartment } from "@codemirror/state";
import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab, undoDepth, redoDepth } from "@codemirror/commands";
import { syntaxHighlighting, HighlightStyle, bracketMatching, indentOnInput } from "@codemirror/language";
import { search, searchKeymap, highlightSelectionMatches } from "@codemirror/search";
import { tags as t } from "@lezer/highlight";
import { html } from "@codemirror/lang-html";
import { css } from "@codemirror/lang-css";
import { javascript } from "@codemirror/lang-javascript";
import { json } from "@codemirror/lang-json";
import { markdown } from "@codemirror/lang-markdown";

// Colours for the dark studio panel.
const style = HighlightStyle.define([
  { tag: [t.keyword, t.operatorKeyword, t.modifier], color: "#c084fc" },
  { tag: [t.tagName, t.heading], color: "#f472b6", fontWeight: "600" },
  { tag: [t.attributeName, t.propertyName], color: "#7dd3fc" },
  { tag: [t.string, t.special(t.string), t.attributeValue], color: "#86efac" },
  { tag: [t.number, t.bool, t.null, t.atom, t.unit], color: "#fdba74" },
  { tag: [t.comment, t.meta], color: "#8b9bb4", fontStyle: "italic" },
  { tag: [t.className, t.typeName, t.labelName], color: "#fcd34d" },
  { tag: [t.function(t.variableName), t.function(t.propertyName)], color: "#93c5fd" },
  { tag: [t.link, t.url], color: "#67e8f9", textDecoration: "underline" },
  { tag: [t.emphasis], fontStyle: "italic" },
  { tag: [t.strong], fontWeight: "700" },
  { tag: [t.invalid], color: "#f87171" },
]);

const theme = EditorView.theme({
  "&": { height: "100%", backgroundColor: "#0b1222", color: "#e2e8f0", fontSize: "13px" },
  ".cm-content": { fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, monospace', caretColor: "#e2e8f0" },
  // Line numbers #8291a8: 5.6:1 on the editor background, 5.4:1 on the active line (WCAG AA).
  ".cm-gutters": { backgroundColor: "#0b1222", color: "#8291a8", border: "none" },
  ".cm-activeLine, .cm-activeLineGutter": { backgroundColor: "#111a2e" },
  "&.cm-focused .cm-cursor": { borderLeftColor: "#e2e8f0" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": { backgroundColor: "#334155" },
  ".cm-panels": { backgroundColor: "#111827", color: "#e2e8f0" },
  ".cm-searchMatch": { backgroundColor: "#854d0e80" },
}, { dark: true });

const LANGS = { html, css, javascript, json, markdown };
const EXT = { htm: "html", html: "html", css: "css", js: "javascript", mjs: "javascript", json: "json", md: "markdown" };

function languageFor(language, path) {
  const name = LANGS[language] ? language : EXT[(path.split(".").pop() || "").toLowerCase()];
  return name ? [LANGS[name]()] : [];
}

// createEditor(host) mounts the editor in host and returns the bridge Go uses.
export function createEditor(host) {
  const lang = new Compartment();
  const ro = new Compartment();
  const label = new Compartment();
  let path = "";
  let readOnly = false;
  let onChange = null; // (path, text, line, col, lines)
  let onCursor = null; // (line, col, lines)
  let onBlur = null;
  const kept = new Map(); // path → the last EditorState of that file (its keystroke history)

  function cursor(state) {
    const head = state.selection.main.head;
    const line = state.doc.lineAt(head);
    return [line.number, head - line.from + 1, state.doc.lines];
  }

  const listener = EditorView.updateListener.of((u) => {
    // setDocument uses view.setState, which does not reach update listeners: every document
    // change seen here is the user's (typing, paste, replace, keystroke undo).
    if (u.docChanged) {
      if (onChange) onChange(path, u.state.doc.toString(), ...cursor(u.state));
    } else if ((u.selectionSet || u.docChanged) && onCursor) {
      onCursor(...cursor(u.state));
    }
    if (u.focusChanged && !u.view.hasFocus && onBlur) onBlur();
  });

  function makeState(text, language) {
    return EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), highlightActiveLine(), drawSelection(),
        history(), indentOnInput(), bracketMatching(), highlightSelectionMatches(),
        syntaxHighlighting(style), search({ top: true }),
        keymap.of([...searchKeymap, ...historyKeymap, ...defaultKeymap, indentWithTab]),
        lang.of(languageFor(language, path)),
        ro.of([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]),
        // CodeMirror's Tab indents (indentWithTab); Escape then Tab moves focus on, as
        // CodeMirror recommends saying: #editor-hint shows it while the editor has focus.
        label.of(EditorView.contentAttributes.of({ "aria-label": path ? "Edit " + path : "Editor", "aria-describedby": "editor-hint" })),
        theme, listener,
      ],
    });
  }

  const view = new EditorView({ state: makeState("", ""), parent: host });

  return {
    // setDocument(path, text, language): show a file. The same file with the same text is a
    // no-op (caret and history stay); a file switched back to unchanged gets its kept state
    // (keystroke history) back; anything else — another text, e.g. after a workspace
    // undo/redo or an agent write — is a fresh state with an empty CodeMirror history.
    setDocument(p, text, language) {
      if (p === path && view.state.doc.toString() === text) return;
      if (path) kept.set(path, view.state);
      const old = kept.get(p);
      path = p;
      if (old && old.doc.toString() === text) {
        view.setState(old);
        if (old.facet(EditorState.readOnly) !== readOnly) {
          view.dispatch({ effects: ro.reconfigure([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]) });
        }
      } else {
        view.setState(makeState(text, language));
      }
      if (onCursor) onCursor(...cursor(view.state));
    },
    // getDocument(): the editor's text.
    getDocument() { return view.state.doc.toString(); },
    // path(): the file shown.
    path() { return path; },
    // setReadOnly(bool): lock direct editing (an agent chain runs, a binary asset).
    setReadOnly(on) {
      on = !!on;
      if (on === readOnly) return;
      readOnly = on;
      view.dispatch({ effects: ro.reconfigure([EditorState.readOnly.of(on), EditorView.editable.of(!on)]) });
    },
    // listen(change, cursor, blur): change(path, text, line, col, lines) after a user edit,
    // cursor(line, col, lines) after a caret move, blur() when the editor loses focus.
    listen(change, cur, blur) { onChange = change; onCursor = cur; onBlur = blur; },
    // gotoLine(n): put the caret at the start of 1-based line n (clamped), scroll it into
    // view and focus the editor (workspace search results).
    gotoLine(n) {
      const doc = view.state.doc;
      const line = doc.line(Math.max(1, Math.min(Number(n) || 1, doc.lines)));
      view.dispatch({ selection: { anchor: line.from }, scrollIntoView: true });
      view.focus();
    },
    // cursor(): [line, column, line count] (1-based line and column).
    cursor() { return cursor(view.state); },
    // history(): [undo depth, redo depth] of CodeMirror's own (keystroke) history.
    history() { return [undoDepth(view.state), redoDepth(view.state)]; },
    // view(): the EditorView (tests).
    view() { return view; },
  };
}
