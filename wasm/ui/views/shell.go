package views

import (
	"strconv"

	"github.com/webcoding/studio/wasm/filediff"
	. "github.com/webcoding/studio/wasm/ui/markup"
)

// Status is the header's status line.
type Status struct {
	Text     string
	Ready    bool
	Tools    int
	Revision int64
}

// StatusHTML is #studio-status: the status in plain words ("Ready"); once ready the protocol
// detail (tool count, revision) is its tooltip, also kept in hidden #tools-count and
// #status-revision for scripts (issue 15: status in plain words, detail in a tooltip).
func StatusHTML(s Status) HTML {
	var b Builder
	if !s.Ready {
		b.Elem("span", s.Text, A("id", "status-text"))
		return b.HTML()
	}
	tools, rev := "tools/list · "+strconv.Itoa(s.Tools), "revision "+strconv.FormatInt(s.Revision, 10)
	b.Elem("span", s.Text, A("id", "status-text"), A("title", tools+" · "+rev))
	b.Elem("span", tools, A("id", "tools-count"), Flag("hidden", true))
	b.Elem("span", rev, A("id", "status-revision"), Flag("hidden", true))
	return b.HTML()
}

// StorageHTML is #storage-mode for workspace.listFiles' storageMode ("indexed-db", "memory"
// or anything else while loading) and storageError. saving: a change is still on its way to
// the store (a mutating tools/call that has not returned: it returns only after the write,
// docs/design.md §5.38), so "Saved in this browser" is not shown until it has.
func StorageHTML(mode, storageErr string, saving bool) HTML {
	var b Builder
	switch mode {
	case "indexed-db":
		if saving {
			b.Elem("span", "Saving…", A("title", "A change is being written to this browser's IndexedDB"))
			break
		}
		b.Elem("span", "Saved in this browser", A("title", "Stored in this browser's IndexedDB"))
	case "memory":
		b.Text("Memory only — not saved")
		if storageErr != "" {
			b.Text(": " + storageErr)
		}
	default:
		b.Text("Loading storage…")
	}
	return b.HTML()
}

// NoticeHTML is #studio-notice: "Reload studio" when a new deployment took over, then the
// page-level notice.
func NoticeHTML(notice string, updateReady bool) HTML {
	var b Builder
	if updateReady {
		b.Elem("span", "A new version of the studio is available.")
		b.Text(" ")
		b.Elem("button", "Reload studio", A("type", "button"), A("data-action", "reload-studio"), A("aria-label", "Reload studio"))
		b.Text(" ")
	}
	if notice != "" {
		b.Elem("span", notice)
	}
	return b.HTML()
}

// Recipe is one recipe chip.
type Recipe struct{ Label, Prompt string }

// RecipesHTML is #recipes: one button per recipe (data-action recipe, data-prompt).
func RecipesHTML(list []Recipe) HTML {
	var b Builder
	for _, r := range list {
		b.Elem("button", r.Label, A("type", "button"), A("class", "recipe"), A("data-action", "recipe"),
			A("data-prompt", r.Prompt), A("aria-label", "Recipe: "+r.Label))
	}
	return b.HTML()
}

// Entry is one transcript line. Kind: "user", "call", "result", "agent", "error", "info".
// Details is an optional second line (error details); Actions are recovery buttons.
type Entry struct {
	Kind    string
	Text    string
	Details string
	Actions []EntryAction
	// Key identifies the entry for the morph (and for AppendText streaming into it); entries
	// are keyed by position when it is empty.
	Key string
}

// EntryAction is a recovery or follow-up button under a transcript entry (REFERENCE §3.2
// recovery mapping): Label is the visible text, Action the data-action it triggers, Arg its
// data-arg (for example the prompt to retry).
type EntryAction struct {
	Label  string
	Action string
	Arg    string
}

// EntryID is the element id of transcript entry i (its Key when set).
func EntryID(i int, e Entry) string {
	if e.Key != "" {
		return "entry-" + e.Key
	}
	return "entry-n" + strconv.Itoa(i)
}

// TranscriptHTML is #transcript: one <li> per entry; its text lives in
// <span class="entry-text" id="<entry id>-text">, the element streamed text appends to.
func TranscriptHTML(list []Entry) HTML {
	var b Builder
	for i, e := range list {
		id := EntryID(i, e)
		b.Open("li", A("class", "entry entry-"+e.Kind), A("id", id))
		b.Elem("span", e.Text, A("class", "entry-text"), A("id", id+"-text"))
		if e.Kind == "reasoning" && e.Details != "" { // the model's reasoning, collapsed (issue 16)
			b.Open("details", A("class", "entry-reasoning"))
			b.Elem("summary", "Show reasoning")
			b.Elem("div", e.Details, A("class", "entry-details"))
			b.Close("details")
		} else if e.Details != "" {
			b.Elem("div", e.Details, A("class", "entry-details"))
		}
		if len(e.Actions) > 0 {
			b.Open("div", A("class", "entry-actions"))
			for j, x := range e.Actions {
				b.Elem("button", x.Label, A("type", "button"), A("id", id+"-action-"+strconv.Itoa(j)),
					A("data-action", x.Action), A("data-arg", x.Arg))
			}
			b.Close("div")
		}
		b.Close("li")
	}
	return b.HTML()
}

// ConsoleLine is one line of the preview's console.
type ConsoleLine struct{ Level, Text string }

// ConsoleHTML is #preview-console.
func ConsoleHTML(lines []ConsoleLine) HTML {
	var b Builder
	for _, l := range lines {
		b.Open("li", A("class", "console-"+l.Level))
		b.Elem("span", l.Level, A("class", "console-level"))
		b.Text(" " + l.Text)
		b.Close("li")
	}
	return b.HTML()
}

// Diagnostic is one preview compiler diagnostic.
type Diagnostic struct{ Message, SourcePath string }

// DiagnosticsHTML is #preview-diagnostics (empty without diagnostics).
func DiagnosticsHTML(list []Diagnostic) HTML {
	var b Builder
	if len(list) == 0 {
		return ""
	}
	b.Elem("h3", "Diagnostics")
	b.Open("ul")
	for _, d := range list {
		b.Open("li")
		b.Text(d.Message + " ")
		b.Elem("span", "("+d.SourcePath+")", A("class", "muted"))
		b.Close("li")
	}
	b.Close("ul")
	return b.HTML()
}

// RuntimeReport is one run-time report of the running preview page (a blocked or missing
// reference, a limit): preview.RuntimeReport without the revision.
type RuntimeReport struct{ Kind, URL, Detail string }

// RuntimeReportsHTML is the "While running" part of #preview-diagnostics (empty without
// reports).
func RuntimeReportsHTML(list []RuntimeReport) HTML {
	if len(list) == 0 {
		return ""
	}
	var b Builder
	b.Elem("h3", "While running")
	b.Open("ul")
	for _, r := range list {
		b.Open("li")
		b.Text(r.Kind + ": " + r.URL)
		if r.Detail != "" {
			b.Text(" ")
			b.Elem("span", "("+r.Detail+")", A("class", "muted"))
		}
		b.Close("li")
	}
	b.Close("ul")
	return b.HTML()
}

// PreviewErrorHTML is #preview-error: the runtime error alert with its Refresh and "Ask to
// fix" buttons (empty for ""). Ask to fix (data-action "ask-to-fix") attaches the error as a
// context chip and focuses the prompt (issue 17).
func PreviewErrorHTML(msg string) HTML {
	if msg == "" {
		return ""
	}
	var b Builder
	b.Open("div", A("role", "alert"), A("aria-label", "Preview runtime error"), A("class", "preview-alert"))
	b.Elem("p", msg)
	b.Elem("button", "Refresh preview", A("type", "button"), A("data-action", "refresh-preview"),
		A("aria-label", "Refresh preview after runtime error"))
	b.Text(" ")
	b.Elem("button", "Ask to fix", A("type", "button"), A("data-action", "ask-to-fix"),
		A("aria-label", "Ask the agent to fix this runtime error"))
	b.Close("div")
	return b.HTML()
}

// Approval is one pending approval card.
type Approval struct {
	ID, Name, Description, Source, SafeArgumentPreview string
	// ApproveAll offers "Approve all for this run" (the call belongs to a prompt run).
	ApproveAll bool
	Diff       ApprovalDiff
}

// ApprovalDiff is the computed preview of one pending call (Done false: still computing).
type ApprovalDiff struct {
	Done      bool
	Note      string // "would fail: …", "no file changes", …
	Files     []filediff.File
	Truncated bool
}

// ApprovalsHTML is #approvals: one card per pending call, keyed by the approval id (so a
// card keeps its identity while others come and go). Button ids stay positional
// (approve-0 is the first card's Approve, which gets focus when a card arrives).
func ApprovalsHTML(list []Approval) HTML {
	var b Builder
	for i, a := range list {
		n := strconv.Itoa(i)
		b.Open("article", A("class", "approval-card"), A("id", "approval-"+a.ID), A("aria-label", "Approval for "+a.Name))
		b.Elem("h3", a.Name)
		b.Elem("p", a.Description, A("class", "approval-description"))
		meta := "source " + a.Source
		if a.SafeArgumentPreview != "" {
			meta += " · " + a.SafeArgumentPreview
		}
		b.Elem("p", meta, A("class", "approval-meta"))
		approvalDiff(&b, a.Diff)
		b.Open("div", A("class", "approval-actions"))
		b.Elem("button", "Approve "+a.Name, A("type", "button"), A("class", "approve"), A("id", "approve-"+n),
			A("data-action", "approve"), A("data-id", a.ID))
		b.Text(" ")
		b.Elem("button", "Deny", A("type", "button"), A("class", "deny"), A("id", "deny-"+n), A("data-action", "deny"),
			A("data-id", a.ID), A("aria-label", "Deny "+a.Name))
		if a.ApproveAll {
			b.Text(" ")
			b.Elem("button", "Approve all for this run", A("type", "button"), A("class", "approve-run"), A("id", "approve-run-"+n),
				A("data-action", "approve-run"), A("data-id", a.ID))
		}
		b.Close("div")
		b.Close("article")
	}
	return b.HTML()
}

func approvalDiff(b *Builder, d ApprovalDiff) {
	b.Open("section", A("class", "approval-diff"), A("aria-label", "Changes this call would make"))
	if !d.Done {
		b.Elem("p", "Computing the change…", A("class", "muted"))
	} else {
		if d.Note != "" {
			b.Elem("p", d.Note, A("class", "approval-diff-note"))
		}
		diffFiles(b, d.Files, d.Truncated)
	}
	b.Close("section")
}

// diffFiles writes one open <details> per changed file with its rows in a <pre>.
func diffFiles(b *Builder, files []filediff.File, truncated bool) {
	for _, f := range files {
		b.Open("details", Flag("open", true), A("class", "diff-file"))
		b.Open("summary")
		b.Elem("span", f.Path, A("class", "diff-path"))
		b.Text(" ")
		b.Elem("span", f.Status, A("class", "diff-status"))
		if f.Added != 0 || f.Removed != 0 {
			b.Text(" ")
			b.Elem("span", "+"+strconv.Itoa(f.Added)+" −"+strconv.Itoa(f.Removed), A("class", "diff-count"))
		}
		b.Close("summary")
		if f.Note != "" {
			b.Elem("p", f.Note, A("class", "muted"))
		}
		if len(f.Rows) > 0 {
			b.Open("pre", A("class", "diff"))
			for _, r := range f.Rows {
				mark := "  "
				switch r.Kind {
				case "add":
					mark = "+ "
				case "del":
					mark = "- "
				}
				b.Elem("span", mark+r.Text, A("class", "diff-"+r.Kind))
				b.Text("\n")
			}
			b.Close("pre")
		}
		b.Close("details")
	}
	if truncated {
		b.Elem("p", "More changes are not shown.", A("class", "muted"))
	}
}
