//go:build js && wasm

package main

import (
	"bytes"
	"encoding/hex"
	"hash/fnv"
	"html/template"
	"slices"
	"strconv"
	"sync"
	"syscall/js"

	"github.com/webcoding/studio/wasm/adapters/iframe"
	"github.com/webcoding/studio/wasm/planner"
	"github.com/webcoding/studio/wasm/registry"
)

// Region templates. Everything interpolated is escaped by html/template.
var tpl = template.Must(template.New("").Funcs(template.FuncMap{"fileID": fileID}).Parse(`
{{define "status"}}<span id="status-text">{{.StatusText}}</span>{{if .Ready}} · <span id="tools-count">tools/list · {{.Tools}}</span> · <span id="status-revision">revision {{.Revision}}</span>{{end}}{{end}}
{{define "storage"}}{{if eq .Mode "indexed-db"}}Saved in this browser (IndexedDB){{else if eq .Mode "memory"}}Memory only — not saved{{if .Error}}: {{.Error}}{{end}}{{else}}Loading storage…{{end}}{{end}}
{{define "approvals"}}{{range $i, $a := .}}<article class="approval-card" aria-label="Approval for {{$a.Name}}"><h3>{{$a.Name}}</h3><p class="approval-description">{{$a.Description}}</p><p class="approval-meta">source {{$a.Source}}{{if $a.SafeArgumentPreview}} · {{$a.SafeArgumentPreview}}{{end}}</p>{{$a.Diff}}<div class="approval-actions"><button type="button" class="approve" id="approve-{{$i}}" data-action="approve" data-id="{{$a.ID}}">Approve {{$a.Name}}</button> <button type="button" class="deny" id="deny-{{$i}}" data-action="deny" data-id="{{$a.ID}}" aria-label="Deny {{$a.Name}}">Deny</button>{{if $a.ApproveAll}} <button type="button" class="approve-run" id="approve-run-{{$i}}" data-action="approve-run" data-id="{{$a.ID}}">Approve all for this run</button>{{end}}</div></article>{{end}}{{end}}
{{define "notice"}}{{if .UpdateReady}}<span>A new version of the studio is available.</span> <button type="button" data-action="reload-studio" aria-label="Reload studio">Reload studio</button> {{end}}{{if .Notice}}<span>{{.Notice}}</span>{{end}}{{end}}
{{define "recipes"}}{{range .}}<button type="button" class="recipe" data-action="recipe" data-prompt="{{.Prompt}}" aria-label="Recipe: {{.Label}}">{{.Label}}</button>{{end}}{{end}}
{{define "transcript"}}{{range $i, $e := .}}<li class="entry entry-{{$e.Kind}}">{{$e.Text}}{{if $e.Details}}<div class="entry-details">{{$e.Details}}</div>{{end}}{{if $e.Actions}}<div class="entry-actions">{{range $j, $x := $e.Actions}}<button type="button" id="entry-{{$i}}-{{$j}}" data-action="{{$x.Action}}" data-arg="{{$x.Arg}}">{{$x.Label}}</button>{{end}}</div>{{end}}</li>{{end}}{{end}}
{{define "console"}}{{range .}}<li class="console-{{.Level}}"><span class="console-level">{{.Level}}</span> {{.Text}}</li>{{end}}{{end}}
{{define "diagnostics"}}{{if .}}<h3>Diagnostics</h3><ul>{{range .}}<li>{{.Message}} <span class="muted">({{.SourcePath}})</span></li>{{end}}</ul>{{end}}{{end}}
{{define "previewError"}}{{if .}}<div role="alert" aria-label="Preview runtime error" class="preview-alert"><p>{{.}}</p><button type="button" data-action="refresh-preview" aria-label="Refresh preview after runtime error">Refresh preview</button></div>{{end}}{{end}}
`))

// fileID is a stable element id for a path (focus survives re-renders).
func fileID(p string) string {
	h := fnv.New64a()
	h.Write([]byte(p))
	return "file-" + hex.EncodeToString(h.Sum(nil))
}

// lastHTML remembers what each region holds, so unchanged regions are not rewritten (which
// would drop focus and selection).
var lastHTML = map[string]string{}

func execTpl(name string, data any) string {
	var b bytes.Buffer
	if err := tpl.ExecuteTemplate(&b, name, data); err != nil {
		return template.HTMLEscapeString(err.Error())
	}
	return b.String()
}

// setRegion writes html into the element with id when it changed, restoring focus by id.
func setRegion(id, html string) bool {
	if lastHTML[id] == html {
		return false
	}
	el := js.Global().Get("document").Call("getElementById", id)
	if el.IsNull() {
		return false
	}
	focused := ""
	if ae := js.Global().Get("document").Get("activeElement"); !ae.IsNull() && ae.Truthy() {
		if el.Call("contains", ae).Bool() {
			focused = ae.Get("id").String()
		}
	}
	el.Set("innerHTML", html)
	lastHTML[id] = html
	if focused != "" {
		if f := js.Global().Get("document").Call("getElementById", focused); !f.IsNull() {
			f.Call("focus")
		}
	}
	return true
}

func setText(id, text string) {
	el := js.Global().Get("document").Call("getElementById", id)
	if !el.IsNull() && el.Get("textContent").String() != text {
		el.Set("textContent", text)
	}
}

// previewText is the preview status line (REFERENCE §5.5).
func previewText(s iframe.Status) string {
	switch s.State {
	case iframe.StateAcknowledged:
		return "revision " + strconv.FormatInt(s.Revision, 10) + " acknowledged"
	case iframe.StateError:
		return "revision " + strconv.FormatInt(s.Revision, 10) + " error: " + s.Message
	case iframe.StatePending:
		return "revision " + strconv.FormatInt(s.Revision, 10) + " pending acknowledgement"
	case iframe.StateTimedOut:
		return "revision " + strconv.FormatInt(s.Revision, 10) + " timed out — the preview did not answer (Refresh)"
	}
	return "pending acknowledgement"
}

// render draws every region from the current state (called only by renderLoop).
func (a *app) render() {
	a.mu.Lock()
	st := a.st
	st.files = append([]fileRow(nil), a.st.files...)
	st.approvals = append([]registry.Approval(nil), a.st.approvals...)
	st.transcript = append([]entry(nil), a.st.transcript...)
	focusApprove := a.st.focusApprove && len(st.approvals) > 0
	a.st.focusApprove = false
	a.mu.Unlock()

	doc := js.Global().Get("document")
	doc.Get("body").Get("dataset").Set("state", map[bool]string{true: "ready", false: "loading"}[st.ready])
	setRegion("studio-status", execTpl("status", map[string]any{"StatusText": st.statusText, "Ready": st.ready, "Tools": st.tools, "Revision": st.revision}))
	setRegion("storage-mode", execTpl("storage", map[string]any{"Mode": st.storageMode, "Error": st.storageError}))
	setText("workspace-name", st.rootName)
	setText("persistence", st.persistence)
	setRegion("studio-notice", execTpl("notice", map[string]any{"Notice": st.notice, "UpdateReady": st.updateReady}))
	if n := doc.Call("getElementById", "studio-notice"); !n.IsNull() {
		n.Set("hidden", st.notice == "" && !st.updateReady)
	}
	setRegion("recipes", recipesHTML())
	// #file-list is the explorer tree (tree.go), drawn by its feature render hook.

	a.renderEditor(st)

	if setRegion("approvals", execTpl("approvals", approvalViews(a, st.approvals))) || focusApprove {
		if focusApprove {
			if b := doc.Call("getElementById", "approve-0"); !b.IsNull() {
				b.Call("focus")
			}
		}
	}
	if setRegion("transcript", transcriptHTML(st.transcript)) {
		if t := doc.Call("getElementById", "transcript"); !t.IsNull() {
			t.Set("scrollTop", t.Get("scrollHeight"))
		}
	}
	setText("preview-status", previewText(st.preview))
	msg := ""
	if st.preview.State == iframe.StateError {
		msg = st.preview.Message
	}
	setRegion("preview-error", execTpl("previewError", msg))
	setRegion("preview-diagnostics", execTpl("diagnostics", st.preview.Diagnostics))
	setRegion("preview-console", consoleHTML(st.preview.Console))
	if b := doc.Call("getElementById", "cancel-run"); !b.IsNull() {
		b.Set("disabled", st.running == "" && len(st.approvals) == 0)
	}
	for _, f := range features {
		if f.render != nil {
			f.render(a)
		}
	}
}

// Template results of the larger regions are memoized on their input, so a render after an
// unrelated change (every keystroke, every preview ack) does not re-run them.
var (
	recipesHTML = sync.OnceValue(func() string { return execTpl("recipes", planner.Recipes()) })
	memoEntries []entry
	memoEntryHT string
	memoConsole []iframe.ConsoleLine
	memoConsHT  string
)

// transcriptHTML is the "transcript" template for list (memoized; render loop only).
func transcriptHTML(list []entry) string {
	if memoEntryHT == "" || !slices.EqualFunc(list, memoEntries, func(a, b entry) bool {
		return a.Kind == b.Kind && a.Text == b.Text && a.Details == b.Details && slices.Equal(a.Actions, b.Actions)
	}) {
		memoEntries, memoEntryHT = list, execTpl("transcript", list)
	}
	return memoEntryHT
}

// consoleHTML is the "console" template for lines (memoized; render loop only).
func consoleHTML(lines []iframe.ConsoleLine) string {
	if memoConsHT == "" || !slices.Equal(lines, memoConsole) {
		memoConsole, memoConsHT = lines, execTpl("console", lines)
	}
	return memoConsHT
}
