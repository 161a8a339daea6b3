package views

import (
	"strconv"
	"strings"
	"time"

	"github.com/webcoding/studio/wasm/filediff"
	"github.com/webcoding/studio/wasm/trace"
	. "github.com/webcoding/studio/wasm/ui/markup"
)

// CatalogToolID is a stable element id for a tool name ("catalog-tool-" + markup.IDPart).
func CatalogToolID(name string) string { return "catalog-tool-" + IDPart(name) }

// CatalogScope is one scope filter button.
type CatalogScope struct {
	ID, Label string
	Count     int
	On        bool
}

// CatalogScopesHTML is #catalog-scopes.
func CatalogScopesHTML(list []CatalogScope) HTML {
	var b Builder
	for _, s := range list {
		b.Open("button", A("type", "button"), A("class", "catalog-scope"), A("id", "catalog-scope-"+s.ID),
			A("data-action", "catalog-scope"), A("data-scope", s.ID), Bool("aria-pressed", s.On))
		b.Text(s.Label + " ")
		b.Elem("span", strconv.Itoa(s.Count), A("class", "catalog-count"), A("data-count", strconv.Itoa(s.Count)))
		b.Close("button")
	}
	return b.HTML()
}

// CatalogTool is one row of the tool list.
type CatalogTool struct {
	Name  string
	Hints []string
}

// CatalogListHTML is #catalog-list: an error, "No tool matches.", or one button per tool
// (aria-pressed on the selected one).
func CatalogListHTML(tools []CatalogTool, selected, errText string) HTML {
	var b Builder
	if errText != "" {
		b.Elem("li", errText, A("class", "catalog-error"), A("role", "alert"))
	} else if len(tools) == 0 {
		b.Elem("li", "No tool matches.", A("class", "catalog-empty"))
	}
	for _, t := range tools {
		b.Open("li")
		b.Open("button", A("type", "button"), A("class", "catalog-tool"), A("id", CatalogToolID(t.Name)),
			A("data-action", "catalog-select"), A("data-tool", t.Name), Bool("aria-pressed", t.Name == selected))
		b.Elem("span", t.Name, A("class", "catalog-tool-name"))
		for _, h := range t.Hints {
			b.Text(" ")
			b.Elem("span", h, A("class", "catalog-hint hint-"+h))
		}
		b.Close("button")
		b.Close("li")
	}
	return b.HTML()
}

// CatalogDefinition is the selected tool's definition view.
type CatalogDefinition struct {
	Name, Description, Policy string
	Hints                     []string
	Input, Output             string // formatted JSON schemas
}

// CatalogDefinitionHTML is #catalog-definition (a hint when nothing is selected).
func CatalogDefinitionHTML(d *CatalogDefinition) HTML {
	var b Builder
	if d == nil {
		b.Elem("p", "Select a tool to see its definition. Selecting never runs it.", A("class", "catalog-hint-text"))
		return b.HTML()
	}
	b.Elem("h3", d.Name, A("class", "catalog-def-name"))
	b.Elem("p", d.Description, A("class", "catalog-def-description"))
	b.Elem("p", d.Policy, A("class", "catalog-policy"))
	if len(d.Hints) > 0 {
		b.Elem("p", "Annotations: "+strings.Join(d.Hints, ", "), A("class", "catalog-hints"))
	}
	b.Open("details", Flag("open", true))
	b.Elem("summary", "Input schema")
	b.Elem("pre", d.Input, A("class", "catalog-schema"), A("id", "catalog-input-schema"))
	b.Close("details")
	b.Open("details")
	b.Elem("summary", "Output schema")
	b.Elem("pre", d.Output, A("class", "catalog-schema"), A("id", "catalog-output-schema"))
	b.Close("details")
	b.Open("div", A("class", "catalog-def-actions"))
	b.Elem("button", "Copy definition", A("type", "button"), A("data-action", "catalog-copy-definition"), A("id", "catalog-copy-definition"))
	b.Text(" ")
	b.Elem("button", "Download definition", A("type", "button"), A("data-action", "catalog-download-definition"), A("id", "catalog-download-definition"))
	b.Close("div")
	return b.HTML()
}

// HistoryRow is one checkpoint of the version history.
type HistoryRow struct {
	Revision int64
	Tool     string
	At       time.Time
	Current  bool
	Selected bool
}

// History is the version history panel.
type History struct {
	Revision int64        // the workspace's revision
	Rows     []HistoryRow // newest first
	Err      string
	Selected int64 // the revision whose diff is shown (0 none)
	DiffAt   int64 // the revision the diff was computed against
	Busy     bool  // a restore runs
	Diff     HistoryDiff
}

// HistoryDiff is the selected checkpoint against the current files.
type HistoryDiff struct {
	Files     []filediff.File
	Truncated bool
	Err       string
}

// Clock is the history's time of day ("15:04:05", local time).
func Clock(t time.Time) string { return t.Local().Format("15:04:05") }

// HistoryHTML is #history-panel.
func HistoryHTML(h History) HTML {
	var b Builder
	b.Open("div", A("class", "history-head"))
	b.Elem("h2", "Version history", A("id", "history-title"))
	b.Text(" ")
	n := len(h.Rows)
	count := "revision " + strconv.FormatInt(h.Revision, 10) + " · " + strconv.Itoa(n) + " checkpoint"
	if n != 1 {
		count += "s"
	}
	b.Elem("span", count, A("class", "muted"))
	b.Close("div")
	if h.Err != "" {
		b.Elem("p", h.Err, A("role", "alert"))
	}
	b.Open("ol", A("class", "history-list"), A("aria-labelledby", "history-title"))
	for _, r := range h.Rows {
		cls := "history-row"
		if r.Current {
			cls += " current"
		}
		if r.Selected {
			cls += " selected"
		}
		rev := strconv.FormatInt(r.Revision, 10)
		label := "Revision " + rev + ", " + r.Tool + ", " + Clock(r.At)
		if r.Current {
			label += ", current"
		}
		b.Open("li", A("class", cls))
		b.Open("button", A("type", "button"), A("id", "history-"+rev), A("data-action", "history-select"), A("data-revision", rev),
			Bool("aria-pressed", r.Selected), A("aria-label", label))
		b.Elem("span", "r"+rev, A("class", "history-rev"))
		b.Text(" ")
		b.Elem("span", r.Tool, A("class", "history-tool"))
		b.Text(" ")
		b.Elem("time", Clock(r.At), A("datetime", r.At.Format("2006-01-02T15:04:05Z07:00")))
		if r.Current {
			b.Text(" ")
			b.Elem("span", "current", A("class", "history-current"))
		}
		b.Close("button")
		b.Close("li")
	}
	b.Close("ol")
	if h.Selected != 0 {
		sel := strconv.FormatInt(h.Selected, 10)
		b.Open("section", A("class", "history-diff"), A("aria-label", "What restoring revision "+sel+" would change in the current files"))
		b.Elem("h3", "Current files (revision "+strconv.FormatInt(h.DiffAt, 10)+") → revision "+sel)
		if h.DiffAt != h.Revision {
			b.Elem("p", "The workspace changed since this diff (now revision "+strconv.FormatInt(h.Revision, 10)+").", A("class", "muted"))
		}
		if h.Diff.Err != "" {
			b.Elem("p", h.Diff.Err, A("role", "alert"))
		} else if len(h.Diff.Files) == 0 {
			b.Elem("p", "Same files as now.", A("class", "muted"))
		}
		diffFiles(&b, h.Diff.Files, h.Diff.Truncated)
		b.Open("div", A("class", "history-actions"))
		b.Elem("button", "Restore revision "+sel, A("type", "button"), A("id", "history-restore"), A("data-action", "history-restore"),
			A("data-revision", sel), A("aria-label", "Restore revision "+sel), Flag("disabled", h.Busy))
		b.Text(" ")
		b.Elem("button", "Close diff", A("type", "button"), A("id", "history-close"), A("data-action", "history-select"), A("data-revision", "0"))
		b.Close("div")
		b.Close("section")
	}
	return b.HTML()
}

// PaletteDialog names the elements of one palette dialog (quick open or search).
type PaletteDialog struct {
	Kind                        string // "quick-open" or "search"
	Dialog, Input, List, Status string // element ids
	Label, Heading              string
}

// PaletteDialogHTML is the content of a palette <dialog>: a combobox and its listbox.
func PaletteDialogHTML(d PaletteDialog) HTML {
	var b Builder
	listLabel := "Matching files"
	if d.Kind == "search" {
		listLabel = "Search results"
	}
	b.Open("form", A("method", "dialog"), A("class", "palette-form"))
	b.Elem("h2", d.Heading, A("id", d.Dialog+"-title"))
	b.Elem("label", d.Label, A("for", d.Input), A("id", d.Input+"-label"))
	b.Void("input", A("id", d.Input), A("type", "text"), A("role", "combobox"), A("aria-autocomplete", "list"), A("aria-expanded", "true"),
		A("aria-controls", d.List), A("aria-activedescendant", ""), A("autocomplete", "off"), A("spellcheck", "false"))
	b.Elem("ul", "", A("id", d.List), A("class", "palette-list"), A("role", "listbox"), A("aria-label", listLabel))
	b.Elem("p", "", A("id", d.Status), A("class", "palette-status"), A("role", "status"), A("aria-live", "polite"))
	b.Open("div", A("class", "dialog-actions"))
	b.Elem("button", "Close", A("type", "submit"), A("value", "cancel"), A("id", d.Dialog+"-close"), Flag("formnovalidate", true))
	b.Close("div")
	b.Close("form")
	return b.HTML()
}

// PaletteItem is one option of a palette list.
type PaletteItem struct {
	ID      string
	Path    string
	Line    int    // 1-based (search), 0 for quick open
	Preview string // the matching line (search)
	Draft   bool   // the hit is in the editor's unsaved draft
}

// PaletteItemsHTML is a palette's listbox content; active is the highlighted option.
func PaletteItemsHTML(items []PaletteItem, active int) HTML {
	var b Builder
	for i, it := range items {
		cls := "palette-option"
		if i == active {
			cls += " active"
		}
		b.Open("li", A("role", "option"), A("id", it.ID), A("class", cls), Bool("aria-selected", i == active),
			A("data-action", "palette-choose"), Int("data-index", int64(i)))
		if it.Line != 0 {
			b.Elem("span", it.Path+":"+strconv.Itoa(it.Line), A("class", "palette-path"))
			if it.Draft {
				b.Text(" ")
				b.Elem("span", "(unsaved)", A("class", "palette-draft"))
			}
			b.Text(" ")
			b.Elem("span", it.Preview, A("class", "palette-preview"))
		} else {
			b.Elem("span", it.Path, A("class", "palette-path"))
		}
		b.Close("li")
	}
	return b.HTML()
}

// PaletteButtonsHTML is the header's Quick open and Search buttons.
func PaletteButtonsHTML() HTML {
	var b Builder
	b.Elem("button", "Quick open", A("type", "button"), A("id", "quick-open-button"), A("data-action", "palette-open"), A("data-kind", "quick-open"),
		A("aria-label", "Quick open workspace file"), A("title", "Quick open (Ctrl/Cmd+P)"))
	b.Text(" ")
	b.Elem("button", "Search", A("type", "button"), A("id", "search-button"), A("data-action", "palette-open"), A("data-kind", "search"),
		A("aria-label", "Search workspace"), A("title", "Search (Ctrl/Cmd+Shift+F)"))
	return b.HTML()
}

// Folder is the linked-folder header's state.
type Folder struct {
	Linked  bool   // a folder is linked
	Name    string // its name (or the last linked one)
	Perm    string // "granted", "prompt", "denied"
	Sync    string // the sync line
	Unsaved bool   // changes not yet written
	Lost    string // the lost folder's name ("" when not lost)
	Picker  bool   // showDirectoryPicker exists (else the webkitdirectory upload)
}

// FolderInfoHTML is #folder-info: the folder's name, permission and sync state. It is a
// separate region from the buttons so a status change never touches them.
func FolderInfoHTML(f Folder) HTML {
	var b Builder
	switch {
	case f.Linked:
		b.Elem("span", "📁 "+f.Name, A("class", "folder-name"), A("id", "folder-name"), A("title", "Linked folder"))
		b.Text(" ")
		b.Elem("span", f.Perm, A("class", "folder-permission perm-"+f.Perm), A("id", "folder-permission"), A("aria-label", "Folder permission"))
		b.Text(" ")
		cls := "folder-sync"
		if f.Unsaved {
			cls += " unsaved"
		}
		b.Elem("span", f.Sync, A("class", cls), A("id", "folder-sync"), A("role", "status"))
	case f.Lost != "":
		b.Elem("span", "📁 "+f.Lost, A("class", "folder-name"), A("id", "folder-name"), A("title", "The linked folder was lost"))
		b.Text(" ")
		b.Elem("span", "disconnected", A("class", "folder-permission perm-disconnected"), A("id", "folder-permission"), A("aria-label", "Folder permission"))
		b.Text(" ")
		b.Elem("span", "Folder lost (moved, renamed or deleted): changes are not written to any folder", A("class", "folder-sync unsaved"),
			A("id", "folder-sync"), A("role", "status"))
	default:
		// A "disconnected" badge only for a folder that was linked before: nothing to say
		// when no folder was ever linked (issue 15: badges only for states that exist).
		if f.Name != "" {
			b.Elem("span", "📁 "+f.Name, A("class", "folder-name"), A("id", "folder-name"))
			b.Text(" ")
			b.Elem("span", "disconnected", A("class", "folder-permission perm-disconnected"), A("id", "folder-permission"), A("aria-label", "Folder permission"))
		}
	}
	return b.HTML()
}

// FolderActionsHTML is #folder-actions: the folder buttons (and Grant folder access when
// the permission must be granted again).
func FolderActionsHTML(f Folder, grant bool) HTML {
	var b Builder
	if f.Linked {
		b.Elem("button", "Save to folder", A("type", "button"), A("id", "folder-save"), A("data-action", "folder-save"),
			A("aria-label", "Save to folder"), A("title", "Save to folder (Ctrl/Cmd+S)"))
		b.Text(" ")
		b.Elem("button", "Reload folder", A("type", "button"), A("id", "folder-reload"), A("data-action", "folder-reload"),
			A("aria-label", "Reload connected workspace folder"), A("title", "Reload folder"))
		b.Text(" ")
		b.Elem("button", "Disconnect", A("type", "button"), A("id", "folder-disconnect"), A("data-action", "folder-disconnect"),
			A("aria-label", "Disconnect linked workspace folder"), A("title", "Disconnect"))
	}
	if f.Lost != "" && !f.Linked {
		b.Elem("button", "Reconnect folder", A("type", "button"), A("id", "folder-reconnect"), A("data-action", "folder-reconnect"),
			A("aria-label", "Reconnect folder"), A("title", "Pick the folder again; the workspace is kept"))
	}
	if f.Picker {
		b.Text(" ")
		b.Elem("button", "Open folder", A("type", "button"), A("id", "folder-open"), A("data-action", "folder-open"),
			A("aria-label", "Open folder"), A("title", "Open folder (Ctrl/Cmd+O)"))
	} else {
		b.Text(" ")
		b.Open("label", A("class", "folder-upload"), A("for", "folder-upload"))
		b.Text("Choose workspace folder ")
		b.Void("input", A("type", "file"), A("id", "folder-upload"), Flag("webkitdirectory", true), Flag("multiple", true),
			A("aria-label", "Choose workspace folder"))
		b.Close("label")
	}
	if grant {
		b.Text(" ")
		b.Elem("button", "Grant folder access", A("type", "button"), A("id", "folder-grant"), A("data-action", "folder-grant"),
			A("aria-label", "Grant folder access"))
	}
	return b.HTML()
}

// ModelOption is one entry of the provider settings' model picker.
type ModelOption struct{ ID, Label string }

// ModelOptionsHTML is the <option> list of #settings-model-picker (selected marks the
// configured model).
func ModelOptionsHTML(list []ModelOption, selected string) HTML {
	var b Builder
	for _, m := range list {
		b.Elem("option", m.Label, A("value", m.ID), Flag("selected", m.ID == selected))
	}
	return b.HTML()
}

// TraceView is what the execution trace panel shows. Rows are already filtered (session,
// Recent/all).
type TraceView struct {
	Rows     []trace.Row
	Expanded map[string]bool // trace id → details shown
	ShowAll  bool            // "Show all" is on (else Recent)
	Total    int             // rows of the selected session(s), before Recent
	Sessions []string        // distinct session ids; the selector shows when there are two or more
	Session  string          // selected session ("" = all)
	Running  bool            // a lifecycle runs: Clear is disabled
}

// TraceRowID is the element id of a trace row's toggle (trace ids are "tr-<n>").
func TraceRowID(traceID string) string { return "trace-row-" + traceID }

func traceSessionValue(s string) string {
	if s == "" {
		return "-"
	}
	return "s:" + s
}

func traceDuration(d *int64) string {
	if d == nil {
		return "…"
	}
	return strconv.FormatInt(*d, 10) + " ms"
}

// TraceToolbarHTML is #trace-toolbar: Clear (disabled while a call runs), Copy, Download,
// Recent / Show all, and the session selector (two sessions or more).
func TraceToolbarHTML(v TraceView) HTML {
	var b Builder
	b.Open("div", A("class", "trace-toolbar"), A("role", "toolbar"), A("aria-label", "Execution trace actions"))
	// The buttons whose labels never change come first: the row count in "Show all (N)" and
	// the session selector change width with every call, and in front of the buttons they
	// would move them under a pointer between its press and release.
	b.Elem("button", "Clear", A("type", "button"), A("id", "trace-clear"), A("data-action", "trace-clear"),
		A("aria-label", "Clear execution trace"), Flag("disabled", v.Running), If(v.Running, A("title", "A call is running")))
	b.Text(" ")
	b.Elem("button", "Copy", A("type", "button"), A("id", "trace-copy"), A("data-action", "trace-copy"), A("aria-label", "Copy execution trace export"))
	b.Text(" ")
	b.Elem("button", "Download", A("type", "button"), A("id", "trace-download"), A("data-action", "trace-download"), A("aria-label", "Download execution trace export"))
	b.Text(" ")
	if v.ShowAll {
		b.Elem("button", "Recent", A("type", "button"), A("id", "trace-show"),
			A("data-action", "trace-recent"), A("aria-label", "Show recent execution trace"),
			A("title", "The newest "+strconv.Itoa(trace.RecentRows)+" rows and the latest prompt run"))
	} else {
		b.Elem("button", "Show all ("+strconv.Itoa(v.Total)+")", A("type", "button"), A("id", "trace-show"),
			A("data-action", "trace-all"), A("aria-label", "Show all execution trace"))
	}
	if len(v.Sessions) >= 2 {
		b.Text(" ")
		b.Open("label", A("class", "trace-session-label"))
		b.Text("Session ")
		b.Open("select", A("id", "trace-session"), A("aria-label", "Trace session"))
		b.Elem("option", "All sessions", A("value", ""), Flag("selected", v.Session == ""))
		for _, s := range v.Sessions {
			val := traceSessionValue(s)
			b.Elem("option", trace.SessionLabel(s), A("value", val), Flag("selected", val == v.Session))
		}
		b.Close("select")
		b.Close("label")
	}
	b.Close("div")
	return b.HTML()
}

// TraceListHTML is #trace-list: one <li> per row, keyed by trace id; each row is a button
// with aria-expanded that toggles its bounded, redacted details.
func TraceListHTML(v TraceView) HTML {
	var b Builder
	if len(v.Rows) == 0 {
		b.Elem("li", "No tool calls yet.", A("class", "trace-empty"))
	}
	for _, r := range v.Rows {
		open := v.Expanded[r.TraceID]
		cls := "trace-row trace-" + string(r.Kind) + " trace-status-" + string(r.Status)
		if r.ParentID != "" {
			cls += " trace-child"
		}
		id := TraceRowID(r.TraceID)
		b.Open("li", A("class", cls), A("id", id+"-item"), A("data-trace-id", r.TraceID), A("data-status", string(r.Status)), A("data-kind", string(r.Kind)),
			A("data-session", r.SessionID), If(r.ParentID != "", A("data-parent-id", r.ParentID)))
		b.Open("button", A("type", "button"), A("class", "trace-toggle"), A("id", id), A("data-action", "trace-toggle"),
			A("data-trace-id", r.TraceID), Bool("aria-expanded", open), A("aria-controls", id+"-details"))
		b.Elem("span", r.Name, A("class", "trace-name"))
		b.Text(" ")
		b.Elem("span", r.Method, A("class", "trace-method"))
		b.Text(" ")
		sm := make([]string, 0, 2)
		if r.Source != "" {
			sm = append(sm, r.Source)
		}
		if r.Mode != "" {
			sm = append(sm, r.Mode)
		}
		b.Elem("span", strings.Join(sm, " · "), A("class", "trace-source"))
		b.Text(" ")
		b.Elem("span", string(r.Status), A("class", "trace-status"))
		b.Text(" ")
		b.Elem("span", traceDuration(r.DurationMs), A("class", "trace-duration"))
		if r.Summary != "" {
			b.Text(" ")
			b.Elem("span", r.Summary, A("class", "trace-summary"))
		}
		if r.Status == "failed" {
			b.Text(" ")
			retry := "retryable"
			if r.Terminal() {
				retry = "terminal"
			}
			b.Elem("span", retry, A("class", "trace-retry"))
		}
		b.Close("button")
		if open {
			b.Open("div", A("class", "trace-details"), A("id", id+"-details"))
			b.Open("dl")
			dd := func(term, val, cls string) {
				b.Elem("dt", term)
				b.Elem("dd", val, If(cls != "", A("class", cls)))
			}
			dd("Trace id", r.TraceID, "trace-id")
			if r.ToolCallID != "" {
				dd("Call id", r.ToolCallID, "trace-call-id")
			}
			if r.SessionID != "" {
				dd("Session", r.SessionID, "")
			}
			if r.ParentID != "" {
				dd("Prompt run", r.ParentID, "")
			}
			if r.ErrorCode != "" {
				dd("Error", r.ErrorCode, "")
			}
			if r.ToolCount != 0 {
				term := "Tool calls"
				if r.Kind == "discovery" {
					term = "Tools"
				}
				dd(term, strconv.Itoa(r.ToolCount), "")
			}
			b.Close("dl")
			if r.ArgumentsText != "" {
				b.Elem("h4", "Arguments")
				b.Elem("pre", r.ArgumentsText, A("class", "trace-arguments"))
			}
			if r.ResultText != "" {
				b.Elem("h4", "Result")
				b.Elem("pre", r.ResultText, A("class", "trace-result"))
			}
			b.Close("div")
		}
		b.Close("li")
	}
	return b.HTML()
}
