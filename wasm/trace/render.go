package trace

import (
	"html/template"
	"io"
	"strconv"
	"strings"
)

// View is what the trace panel shows. Rows are already filtered (session, Recent/all).
type View struct {
	Rows     []Row
	Expanded map[string]bool // trace id → details shown
	ShowAll  bool            // "Show all" is on (else Recent)
	Total    int             // rows of the selected session(s), before Recent
	Sessions []string        // distinct session ids; the selector shows when there are two or more
	Session  string          // selected session ("" = all)
	Running  bool            // a lifecycle runs: Clear is disabled
}

// SessionLabel is the selector's text for a session id ("" = direct calls from the UI).
func SessionLabel(s string) string {
	if s == "" {
		return "UI (direct)"
	}
	return s
}

var funcs = template.FuncMap{
	"duration": func(d *int64) string {
		if d == nil {
			return "…"
		}
		return strconv.FormatInt(*d, 10) + " ms"
	},
	"label": SessionLabel,
	"sessionValue": func(s string) string {
		if s == "" {
			return "-"
		}
		return "s:" + s
	},
	"domID": domID,
	"sourceMode": func(r Row) string {
		parts := make([]string, 0, 2)
		if r.Source != "" {
			parts = append(parts, r.Source)
		}
		if r.Mode != "" {
			parts = append(parts, r.Mode)
		}
		return strings.Join(parts, " · ")
	},
	"recent": func() int { return RecentRows },
}

// domID makes an element id from a trace id (trace ids are "tr-<n>", already safe).
func domID(traceID string) string { return "trace-row-" + traceID }

var tpl = template.Must(template.New("").Funcs(funcs).Parse(`
{{define "toolbar"}}<div class="trace-toolbar" role="toolbar" aria-label="Execution trace actions">{{if ge (len .Sessions) 2}}<label class="trace-session-label">Session <select id="trace-session" aria-label="Trace session"><option value=""{{if eq .Session ""}} selected{{end}}>All sessions</option>{{range .Sessions}}<option value="{{sessionValue .}}"{{if eq (sessionValue .) $.Session}} selected{{end}}>{{label .}}</option>{{end}}</select></label> {{end}}{{if .ShowAll}}<button type="button" id="trace-show" data-action="trace-recent" aria-label="Show recent execution trace" title="The newest {{recent}} rows and the latest prompt run">Recent</button>{{else}}<button type="button" id="trace-show" data-action="trace-all" aria-label="Show all execution trace">Show all ({{.Total}})</button>{{end}} <button type="button" id="trace-clear" data-action="trace-clear" aria-label="Clear execution trace"{{if .Running}} disabled title="A call is running"{{end}}>Clear</button> <button type="button" id="trace-copy" data-action="trace-copy" aria-label="Copy execution trace export">Copy</button> <button type="button" id="trace-download" data-action="trace-download" aria-label="Download execution trace export">Download</button></div>{{end}}
{{define "list"}}{{if not .Rows}}<li class="trace-empty">No tool calls yet.</li>{{end}}{{range .Rows}}{{$open := index $.Expanded .TraceID}}<li class="trace-row trace-{{.Kind}} trace-status-{{.Status}}{{if .ParentID}} trace-child{{end}}" data-trace-id="{{.TraceID}}" data-status="{{.Status}}" data-kind="{{.Kind}}" data-session="{{.SessionID}}"{{if .ParentID}} data-parent-id="{{.ParentID}}"{{end}}><button type="button" class="trace-toggle" id="{{domID .TraceID}}" data-action="trace-toggle" data-trace-id="{{.TraceID}}" aria-expanded="{{if $open}}true{{else}}false{{end}}" aria-controls="{{domID .TraceID}}-details"><span class="trace-name">{{.Name}}</span> <span class="trace-method">{{.Method}}</span> <span class="trace-source">{{sourceMode .}}</span> <span class="trace-status">{{.Status}}</span> <span class="trace-duration">{{duration .DurationMs}}</span>{{if .Summary}} <span class="trace-summary">{{.Summary}}</span>{{end}}{{if eq .Status "failed"}} <span class="trace-retry">{{if .Terminal}}terminal{{else}}retryable{{end}}</span>{{end}}</button>{{if $open}}<div class="trace-details" id="{{domID .TraceID}}-details"><dl><dt>Trace id</dt><dd class="trace-id">{{.TraceID}}</dd>{{if .ToolCallID}}<dt>Call id</dt><dd class="trace-call-id">{{.ToolCallID}}</dd>{{end}}{{if .SessionID}}<dt>Session</dt><dd>{{.SessionID}}</dd>{{end}}{{if .ParentID}}<dt>Prompt run</dt><dd>{{.ParentID}}</dd>{{end}}{{if .ErrorCode}}<dt>Error</dt><dd>{{.ErrorCode}}</dd>{{end}}{{if .ToolCount}}<dt>{{if eq .Kind "discovery"}}Tools{{else}}Tool calls{{end}}</dt><dd>{{.ToolCount}}</dd>{{end}}</dl>{{if .ArgumentsText}}<h4>Arguments</h4><pre class="trace-arguments">{{.ArgumentsText}}</pre>{{end}}{{if .ResultText}}<h4>Result</h4><pre class="trace-result">{{.ResultText}}</pre>{{end}}</div>{{end}}</li>{{end}}{{end}}
`))

// RenderToolbar writes the panel's toolbar (session selector, Recent/Show all, Clear, Copy,
// Download) as HTML.
func RenderToolbar(w io.Writer, v View) error { return tpl.ExecuteTemplate(w, "toolbar", v) }

// RenderList writes the rows as <li> elements (for a <ol> container). Each row is a button
// with aria-expanded that toggles its details (data-action "trace-toggle", data-trace-id).
func RenderList(w io.Writer, v View) error { return tpl.ExecuteTemplate(w, "list", v) }
