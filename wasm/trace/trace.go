package trace

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/mcp"
)

// Bounds (issue 9, REFERENCE §8).
const (
	MaxRows        = 256       // rows a Trace keeps (oldest finished rows dropped first)
	MaxBytes       = 512 << 10 // bytes a Trace keeps (see Row.size)
	RecentRows     = 8         // newest rows shown by "Recent" (plus the latest prompt run, see Filter)
	MaxDetailBytes = 2048      // UTF-8 bytes of ArgumentsText and of ResultText, each
	MaxExportBytes = 8 << 10   // UTF-8 bytes of an Export
	RowOverhead    = 160       // bytes counted per row besides its strings
	maxFieldChars  = 240       // code points kept of names, ids and summaries
)

// Method names of rows (REFERENCE §8: method tools/list|tools/call|agent.request; core
// operations keep their JSON-RPC method name).
const (
	MethodToolsList    = "tools/list"
	MethodToolsCall    = "tools/call"
	MethodAgentRequest = "agent.request"
)

// AgentRequestName is the Name of the bracket events wasm/studio emits around a prompt run
// (studio.AgentRequestName is the same constant).
const AgentRequestName = MethodAgentRequest

// Kind is what a row stands for.
type Kind string

// Row kinds.
const (
	KindDiscovery Kind = "discovery" // a tools/list
	KindCall      Kind = "call"      // a tools/call
	KindAgent     Kind = "agent"     // an agent.request bracket (one prompt run)
	KindOperation Kind = "operation" // a non-tool core operation (SPEC §2.11)
)

// Status is a row's lifecycle state.
type Status string

// Row statuses.
const (
	StatusRunning   Status = "running"
	StatusCompleted Status = "completed"
	StatusFailed    Status = "failed"
	StatusCancelled Status = "cancelled"
)

// ExportRow is the metadata of a row — identifiers, status, timing, counts, error code and
// summary — and all that an export holds of it (REFERENCE §8: the export drops the
// argument and result text). Row embeds it.
type ExportRow struct {
	TraceID    string    `json:"traceId"`
	ParentID   string    `json:"parentId,omitempty"`
	ToolCallID string    `json:"toolCallId,omitempty"`
	SessionID  string    `json:"sessionId,omitempty"`
	Kind       Kind      `json:"kind"`
	Method     string    `json:"method"`
	Name       string    `json:"name"`
	Source     string    `json:"source,omitempty"`
	Mode       string    `json:"mode,omitempty"`
	Status     Status    `json:"status"`
	StartedAt  time.Time `json:"startedAt"`
	DurationMs *int64    `json:"durationMs,omitempty"`
	ToolCount  int       `json:"toolCount,omitempty"` // discovery: tools listed; agent: calls bracketed
	ErrorCode  string    `json:"errorCode,omitempty"`
	Retryable  *bool     `json:"retryable,omitempty"` // set on failed rows only
	Summary    string    `json:"summary,omitempty"`
}

// Row is one trace entry: its ExportRow metadata plus the details. Every string is bounded;
// ArgumentsText and ResultText are redacted JSON (at most MaxDetailBytes each) and never
// exported.
type Row struct {
	ExportRow
	ArgumentsText string `json:"argumentsText,omitempty"`
	ResultText    string `json:"resultText,omitempty"`

	meta *mcp.CallMeta // the request identity of a running lifecycle
	qkey queueKey
}

// Terminal reports whether a failed row's error is not retryable.
func (r Row) Terminal() bool {
	return r.Status == StatusFailed && (r.Retryable == nil || !*r.Retryable)
}

// size is what the row counts against MaxBytes.
func (r *Row) size() int {
	return RowOverhead + len(r.TraceID) + len(r.ParentID) + len(r.ToolCallID) + len(r.SessionID) + len(r.Method) +
		len(r.Name) + len(r.Source) + len(r.Mode) + len(r.ErrorCode) + len(r.Summary) + len(r.ArgumentsText) + len(r.ResultText)
}

type queueKey struct{ session, name, id string }

// Options configure New. Zero values take the defaults.
type Options struct {
	MaxRows  int          // default MaxRows
	MaxBytes int          // default MaxBytes
	Policy   audit.Policy // redaction of the details (defaults: see detailPolicy)
	Now      func() time.Time
}

// Trace is the bounded list of rows. The zero value is not usable; call New.
type Trace struct {
	mu       sync.Mutex
	o        Options
	rows     []*Row // oldest first
	bytes    int
	seq      uint64
	version  uint64
	byMeta   map[*mcp.CallMeta]*Row
	ambig    map[*mcp.CallMeta]bool
	queues   map[queueKey][]*Row
	running  int
	dropped  int
	policy   audit.Policy
	sessions map[string]int // rows per session id
}

// Validate refuses options set to unusable values (issue 14 item 11): a negative MaxRows or
// MaxBytes, and a Policy that audit.Policy.Validate refuses. Zero means the default.
func (o Options) Validate() error {
	if o.MaxRows < 0 {
		return fmt.Errorf("trace: MaxRows is %d; it must be at least 1 (or 0 for the default %d)", o.MaxRows, MaxRows)
	}
	if o.MaxBytes < 0 {
		return fmt.Errorf("trace: MaxBytes is %d; it must be at least 1 (or 0 for the default %d)", o.MaxBytes, MaxBytes)
	}
	return o.Policy.Validate()
}

// New returns an empty Trace.
func New(o Options) *Trace {
	if o.MaxRows <= 0 {
		o.MaxRows = MaxRows
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = MaxBytes
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	p := o.Policy
	if p.MaxBytes <= 0 || p.MaxBytes > MaxDetailBytes {
		p.MaxBytes = MaxDetailBytes
	}
	if p.MaxStringLength <= 0 {
		p.MaxStringLength = 160
	}
	if p.MaxArrayEntries <= 0 {
		p.MaxArrayEntries = 16
	}
	if p.MaxObjectEntries <= 0 {
		p.MaxObjectEntries = 32
	}
	if p.MaxDepth <= 0 {
		p.MaxDepth = 5
	}
	return &Trace{o: o, policy: p, byMeta: map[*mcp.CallMeta]*Row{}, ambig: map[*mcp.CallMeta]bool{},
		queues: map[queueKey][]*Row{}, sessions: map[string]int{}}
}

func (t *Trace) nextID() string {
	t.seq++
	return "tr-" + strconv.FormatUint(t.seq, 10)
}

// kindOf classifies an event name.
func kindOf(name string) (Kind, string) {
	switch {
	case name == AgentRequestName:
		return KindAgent, MethodAgentRequest
	case strings.Contains(name, "/"):
		return KindOperation, bound(name)
	}
	return KindCall, MethodToolsCall
}

// Observe records one lifecycle event. It never blocks beyond the Trace's mutex and never
// keeps e's request or result: only the bounded, redacted projection.
func (t *Trace) Observe(e audit.ToolCallEvent) {
	t.mu.Lock()
	defer t.mu.Unlock()
	key := queueKey{session: e.SessionID, name: e.Name, id: e.ToolCallID}
	if e.Type == audit.EventStarted {
		kind, method := kindOf(e.Name)
		r := &Row{ExportRow: ExportRow{TraceID: t.nextID(), ToolCallID: bound(e.ToolCallID), SessionID: bound(e.SessionID), Kind: kind,
			Method: method, Name: bound(e.Name), Source: bound(e.Source), Mode: bound(e.Mode), Status: StatusRunning,
			StartedAt: e.At}, qkey: key}
		r.ArgumentsText = t.detail(e.Request.Arguments)
		if kind == KindAgent {
			r.Summary = "prompt run"
		}
		if kind == KindCall && e.Mode == mcp.ModeAgent {
			if p := t.parentFor(r.SessionID); p != nil {
				r.ParentID = p.TraceID
				p.ToolCount++
				if p.SessionID == "" && r.SessionID != "" {
					t.setSession(p, r.SessionID)
				}
			}
		}
		if m := e.Request.Meta; m != nil {
			if _, dup := t.byMeta[m]; dup || t.ambig[m] {
				delete(t.byMeta, m)
				t.ambig[m] = true
			} else {
				t.byMeta[m] = r
				r.meta = m
			}
		}
		t.queues[key] = append(t.queues[key], r)
		t.running++
		t.add(r)
		return
	}
	r := t.match(e, key)
	if r == nil { // no started event: a row of its own
		kind, method := kindOf(e.Name)
		r = &Row{ExportRow: ExportRow{TraceID: t.nextID(), ToolCallID: bound(e.ToolCallID), SessionID: bound(e.SessionID), Kind: kind,
			Method: method, Name: bound(e.Name), Source: bound(e.Source), Mode: bound(e.Mode),
			StartedAt: e.At.Add(-time.Duration(e.Provenance.ElapsedMs) * time.Millisecond)}}
		r.ArgumentsText = t.detail(e.Request.Arguments)
		t.add(r)
	}
	t.bytes -= r.size()
	t.finish(r, e)
	t.bytes += r.size()
	t.version++
	t.trim()
}

// match finds and unlinks the running row e finishes.
func (t *Trace) match(e audit.ToolCallEvent, key queueKey) *Row {
	var r *Row
	if m := e.Request.Meta; m != nil {
		if found, ok := t.byMeta[m]; ok && found.Status == StatusRunning {
			r = found
		}
	}
	q := t.queues[key]
	if r == nil && len(q) > 0 {
		r = q[0]
	}
	if r == nil {
		return nil
	}
	t.unlink(r)
	t.running--
	return r
}

// unlink removes a running row from the correlation indexes.
func (t *Trace) unlink(r *Row) {
	if r.meta != nil {
		delete(t.byMeta, r.meta)
		r.meta = nil
	}
	q := t.queues[r.qkey]
	for i, x := range q {
		if x == r {
			q = append(q[:i:i], q[i+1:]...)
			break
		}
	}
	if len(q) == 0 {
		delete(t.queues, r.qkey)
	} else {
		t.queues[r.qkey] = q
	}
	if len(t.byMeta) == 0 && len(t.ambig) > 0 {
		clear(t.ambig)
	}
}

// parentFor returns the newest running agent row of session (or of an unknown session).
func (t *Trace) parentFor(session string) *Row {
	var fallback *Row
	for i := len(t.rows) - 1; i >= 0; i-- {
		r := t.rows[i]
		if r.Kind != KindAgent || r.Status != StatusRunning {
			continue
		}
		if r.SessionID == session {
			return r
		}
		if r.SessionID == "" && fallback == nil {
			fallback = r
		}
	}
	return fallback
}

func (t *Trace) setSession(r *Row, s string) {
	t.bytes -= r.size()
	t.sessionDelta(r.SessionID, -1)
	r.SessionID = s
	t.sessionDelta(s, 1)
	t.bytes += r.size()
}

func (t *Trace) sessionDelta(s string, d int) {
	t.sessions[s] += d
	if t.sessions[s] <= 0 {
		delete(t.sessions, s)
	}
}

// finish applies a completed or failed event to r.
func (t *Trace) finish(r *Row, e audit.ToolCallEvent) {
	d := e.Provenance.ElapsedMs
	if d <= 0 && !r.StartedAt.IsZero() && e.At.After(r.StartedAt) {
		d = e.At.Sub(r.StartedAt).Milliseconds()
	}
	if d < 0 {
		d = 0
	}
	r.DurationMs = &d
	res := e.Result
	switch {
	case e.Type == audit.EventCompleted && res != nil && !res.IsError:
		r.Status = StatusCompleted
	case e.Provenance.State == audit.StateCancelled, res != nil && res.Error != nil && res.Error.Code == mcp.CodeToolCancelled:
		r.Status = StatusCancelled
	default:
		r.Status = StatusFailed
	}
	if res != nil && res.Error != nil {
		r.ErrorCode = bound(string(res.Error.Code))
		if r.Status == StatusFailed {
			rt := res.Error.Retryable
			r.Retryable = &rt
		}
	} else if r.Status == StatusFailed {
		f := false
		r.Retryable = &f
	}
	if r.Kind == KindAgent {
		r.Summary = agentSummary(r, res)
	} else {
		r.Summary = bound(CallSummary(e.Name, res))
	}
	r.ResultText = t.resultDetail(res)
}

// add appends r and enforces the bounds.
func (t *Trace) add(r *Row) {
	t.rows = append(t.rows, r)
	t.bytes += r.size()
	t.sessionDelta(r.SessionID, 1)
	t.version++
	t.trim()
}

// trim drops rows beyond MaxRows or MaxBytes: the oldest finished UI read first (UIRead: the
// page's own refresh reads must not push prompt runs out), then the oldest finished row —
// a finished agent.request row together with its finished children, so no kept row points
// at a dropped parent —, then (only when every row runs) the oldest running row.
func (t *Trace) trim() {
	for len(t.rows) > 1 && (len(t.rows) > t.o.MaxRows || t.bytes > t.o.MaxBytes) {
		idx := -1
		for i, r := range t.rows {
			if r.Status != StatusRunning && UIRead(*r) {
				idx = i
				break
			}
		}
		for i, r := range t.rows {
			if idx >= 0 {
				break
			}
			if r.Status != StatusRunning {
				idx = i
			}
		}
		if idx >= 0 && t.rows[idx].Kind == KindAgent {
			parent := t.rows[idx].TraceID
			for i := len(t.rows) - 1; i > idx; i-- {
				if c := t.rows[i]; c.ParentID == parent && c.Status != StatusRunning {
					t.removeAt(i)
					t.dropped++
				}
			}
		}
		if idx < 0 {
			idx = 0
			t.unlink(t.rows[0])
			t.running--
		}
		t.removeAt(idx)
		t.dropped++
	}
}

// uiReadNames are the read-only tools the studio page itself calls to refresh its views.
var uiReadNames = map[string]bool{"workspace.listFiles": true, "workspace.getStatus": true,
	"workspace.readFile": true, "preview.getStatus": true}

// UIRead reports whether r is one of the page's own reads: a call of workspace.listFiles,
// workspace.getStatus, workspace.readFile or preview.getStatus from source local, mode direct,
// outside any prompt run. Retention drops these first and the export keeps them last.
func UIRead(r Row) bool {
	return r.Kind == KindCall && r.Source == mcp.SourceLocal && r.Mode == mcp.ModeDirect && r.ParentID == "" && uiReadNames[r.Name]
}

func (t *Trace) removeAt(i int) {
	r := t.rows[i]
	t.bytes -= r.size()
	t.sessionDelta(r.SessionID, -1)
	copy(t.rows[i:], t.rows[i+1:])
	t.rows[len(t.rows)-1] = nil
	t.rows = t.rows[:len(t.rows)-1]
}

// Discovery records a tools/list (all pages) that listed n tools in d: a completed row
// "<n> tools available". It returns the row's trace id.
func (t *Trace) Discovery(n int, at time.Time, d time.Duration) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	ms := d.Milliseconds()
	if ms < 0 {
		ms = 0
	}
	r := &Row{ExportRow: ExportRow{TraceID: t.nextID(), Kind: KindDiscovery, Method: MethodToolsList, Name: MethodToolsList, Source: mcp.SourceLocal,
		Status: StatusCompleted, StartedAt: at, DurationMs: &ms, ToolCount: n, Summary: strconv.Itoa(n) + " tools available"}}
	t.add(r)
	return r.TraceID
}

// Filter selects rows for Rows and Export.
type Filter struct {
	BySession bool   // keep only the rows whose SessionID is Session ("" = direct calls)
	Session   string // see BySession
	// Recent > 0: only the newest Recent rows plus the whole latest prompt run — its
	// agent.request row and every row whose ParentID is that row — even when the run began
	// earlier (issue 15: the default view shows the agent's work, not only what came after
	// it). So the selection holds at most Recent rows plus one run's rows.
	Recent int
}

// SelectorFilter decodes a session selector value (View.Session): "" every session, "-"
// the rows without a session, "s:<id>" session id.
func SelectorFilter(v string) Filter {
	switch {
	case v == "-":
		return Filter{BySession: true}
	case strings.HasPrefix(v, "s:"):
		return Filter{BySession: true, Session: v[2:]}
	}
	return Filter{}
}

// Rows returns copies of the rows (oldest first) that pass f.
func (t *Trace) Rows(f Filter) []Row {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.rowsLocked(f)
}

func (t *Trace) rowsLocked(f Filter) []Row {
	out := make([]Row, 0, len(t.rows))
	for _, r := range t.rows {
		if f.BySession && r.SessionID != f.Session {
			continue
		}
		c := *r
		c.meta = nil
		out = append(out, c)
	}
	if f.Recent > 0 && len(out) > f.Recent {
		out = Recent(out, f.Recent)
	}
	return out
}

// Recent is the "Recent" selection of rows (oldest first): the newest n rows plus the latest
// agent row (a prompt run) with its child rows, in their original order. rows itself is
// returned when it holds n rows or fewer.
func Recent(rows []Row, n int) []Row {
	if len(rows) <= n {
		return rows
	}
	cut := len(rows) - n
	run := ""
	for i := len(rows) - 1; i >= 0; i-- {
		if rows[i].Kind == KindAgent {
			run = rows[i].TraceID
			break
		}
	}
	out := make([]Row, 0, n+8)
	for i, r := range rows {
		if i >= cut || (run != "" && (r.TraceID == run || r.ParentID == run)) {
			out = append(out, r)
		}
	}
	return out
}

// Row returns a copy of the row with trace id id.
func (t *Trace) Row(id string) (Row, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, r := range t.rows {
		if r.TraceID == id {
			c := *r
			c.meta = nil
			return c, true
		}
	}
	return Row{}, false
}

// Sessions returns the distinct session ids of the kept rows in natural order (digit runs by
// value: openrouter-2 before openrouter-10), "" (no session: direct calls) included when
// present.
func (t *Trace) Sessions() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]string, 0, len(t.sessions))
	for s := range t.sessions {
		out = append(out, s)
	}
	sortStrings(out)
	return out
}

// Len is the number of kept rows; Bytes what they count against MaxBytes; Running how many
// lifecycles have started and not finished; Dropped how many rows retention removed since New.
func (t *Trace) Len() int     { t.mu.Lock(); defer t.mu.Unlock(); return len(t.rows) }
func (t *Trace) Bytes() int   { t.mu.Lock(); defer t.mu.Unlock(); return t.bytes }
func (t *Trace) Running() int { t.mu.Lock(); defer t.mu.Unlock(); return t.running }
func (t *Trace) Dropped() int { t.mu.Lock(); defer t.mu.Unlock(); return t.dropped }

// Version changes whenever the rows change (for render caching).
func (t *Trace) Version() uint64 { t.mu.Lock(); defer t.mu.Unlock(); return t.version }

// Clear drops every row and reports true, unless a lifecycle is running (REFERENCE §8: Clear
// is disabled while a call runs): then it changes nothing and reports false. It only forgets
// what the trace shows — never files, the registry or provider history.
func (t *Trace) Clear() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.running > 0 {
		return false
	}
	t.rows = nil
	t.bytes = 0
	clear(t.byMeta)
	clear(t.ambig)
	clear(t.queues)
	clear(t.sessions)
	t.version++
	return true
}

// bound keeps the first maxFieldChars code points of s.
func bound(s string) string {
	if len(s) <= maxFieldChars {
		return s
	}
	n := 0
	for i := range s {
		if n == maxFieldChars {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && naturalLess(s[j], s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// decodeObject decodes raw as a JSON object (nil when it is not one).
func decodeObject(raw json.RawMessage) map[string]any {
	if len(raw) == 0 {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}
