package chats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/openrouter"
	"github.com/webcoding/studio/wasm/trace"
)

// Limits of what is kept (one place; README's "Chats" line and docs/studio-storage.md state
// them). Bound enforces them on every Save; Decode refuses a record beyond them.
const (
	// MaxConversations is how many conversations one workspace keeps; saving a new one
	// deletes the oldest beyond it.
	MaxConversations = 20
	// MaxEntries is how many transcript entries one conversation keeps (the oldest go first;
	// the same number the open page shows).
	MaxEntries = 200
	// MaxEntryBytes bounds the text (and, separately, the details) of one entry; longer text
	// is cut at a rune boundary and ends with "…".
	MaxEntryBytes = 8 << 10
	// MaxActions is how many actions one entry keeps.
	MaxActions = 4
	// MaxMessages is how many provider messages one conversation keeps (whole runs are
	// dropped from the oldest, the system message stays).
	MaxMessages = 240
	// MaxTraceRows is how many trace rows (metadata only) one conversation keeps.
	MaxTraceRows = 200
	// MaxRecordBytes bounds one encoded record. Beyond it the oldest tool results of the
	// history are elided, then the oldest runs, entries and trace rows are dropped.
	MaxRecordBytes = 512 << 10
	// MaxWorkspaceChars bounds a workspace name used in keys.
	MaxWorkspaceChars = 256
)

// FormatVersion is the "v" of every record this package writes.
const FormatVersion = 1

// Entry kinds (the transcript's, wasm/ui/views.Entry.Kind) that a record may hold.
var entryKinds = map[string]bool{"user": true, "agent": true, "error": true, "info": true,
	"result": true, "unclear": true, "reasoning": true, "usage": true, "partial": true}

// Run outcome states of an Entry.
const (
	StateDone        = "done"
	StateFailed      = "failed"
	StateCancelled   = "cancelled"
	StateInterrupted = "interrupted" // the page went away while the run was going (Restore)
)

// Record is one stored conversation:
//
//	{"v": 1, "id", "workspace", "created", "updated" (Unix ms), "entries": [Entry…],
//	 "history": [openrouter.Message…], "trace"?: [trace.ExportRow…], "running"?: prompt}
//
// Running is the prompt of a run that had started but not ended when the record was saved
// ("" none).
type Record struct {
	V         int                  `json:"v"`
	ID        string               `json:"id"`
	Workspace string               `json:"workspace"`
	Created   int64                `json:"created"`
	Updated   int64                `json:"updated"`
	Entries   []Entry              `json:"entries"`
	History   []openrouter.Message `json:"history"`
	Trace     []trace.ExportRow    `json:"trace,omitempty"`
	Running   string               `json:"running,omitempty"`
}

// Entry is one transcript line as kept: its kind and text (views.Entry), and for the entry
// that closes a run its State (done, failed, cancelled), the run's Prompt (for Retry), whether
// the failure was Retryable and its error Code, and Applied: how many of the run's calls had
// changed something before it ended.
type Entry struct {
	Kind      string   `json:"kind"`
	Text      string   `json:"text"`
	Details   string   `json:"details,omitempty"`
	Actions   []Action `json:"actions,omitempty"`
	State     string   `json:"state,omitempty"`
	Prompt    string   `json:"prompt,omitempty"`
	Code      string   `json:"code,omitempty"`
	Retryable bool     `json:"retryable,omitempty"`
	Applied   int      `json:"applied,omitempty"`
}

// Action is a button under an entry (views.EntryAction).
type Action struct {
	Label  string `json:"label"`
	Action string `json:"action"`
	Arg    string `json:"arg,omitempty"`
}

// DecodeError is Decode's refusal: Field names what was wrong ("" the whole record).
type DecodeError struct {
	Field  string
	Reason string
}

func (e *DecodeError) Error() string {
	if e.Field == "" {
		return "chats: stored record refused: " + e.Reason
	}
	return "chats: stored record refused: " + e.Field + ": " + e.Reason
}

func refuse(field, format string, a ...any) error {
	return &DecodeError{Field: field, Reason: fmt.Sprintf(format, a...)}
}

// Encode returns the JSON of r after Bound, with "v" FormatVersion (r itself is not changed).
func Encode(r Record) ([]byte, error) {
	b := Bound(r)
	b.V = FormatVersion
	return json.Marshal(b)
}

// Decode reads a stored record strictly: well-formed JSON (mcp.CheckJSON: UTF-8, depth,
// repeated keys), no member Encode does not write, version FormatVersion, a valid id and
// workspace, known entry kinds and states, a history openrouter.ValidateHistory accepts,
// nothing over the limits. Any refusal is a *DecodeError; nothing is half read.
func Decode(raw []byte) (Record, error) {
	var r Record
	if len(raw) > MaxRecordBytes {
		return r, refuse("", "%d bytes, more than %d", len(raw), MaxRecordBytes)
	}
	if err := mcp.CheckJSON(raw); err != nil {
		return r, refuse("", "not JSON (%v)", err)
	}
	if mcp.JSONKind(raw) != "object" {
		return r, refuse("", "a JSON %s, not an object", mcp.JSONKind(raw))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Record{}, refuse("", "%v", err)
	}
	if err := r.validate(); err != nil {
		return Record{}, err
	}
	return r, nil
}

func (r Record) validate() error {
	if r.V != FormatVersion {
		return refuse("v", "version %d, not %d", r.V, FormatVersion)
	}
	if !validID(r.ID) {
		return refuse("id", "not a conversation id")
	}
	if err := ValidWorkspace(r.Workspace); err != nil {
		return refuse("workspace", "%v", err)
	}
	if r.Created <= 0 || r.Updated < r.Created {
		return refuse("updated", "times are not ordered Unix milliseconds")
	}
	if len(r.Entries) > MaxEntries {
		return refuse("entries", "%d entries, more than %d", len(r.Entries), MaxEntries)
	}
	for i, e := range r.Entries {
		f := fmt.Sprintf("entries[%d]", i)
		switch {
		case !entryKinds[e.Kind]:
			return refuse(f+".kind", "unknown kind %q", e.Kind)
		case len(e.Text) > MaxEntryBytes || len(e.Details) > MaxEntryBytes || len(e.Prompt) > MaxEntryBytes:
			return refuse(f, "text over %d bytes", MaxEntryBytes)
		case len(e.Actions) > MaxActions:
			return refuse(f+".actions", "more than %d", MaxActions)
		case e.Applied < 0 || e.Applied > openrouter.MaxToolCalls:
			return refuse(f+".applied", "outside 0..%d", openrouter.MaxToolCalls)
		}
		switch e.State {
		case "", StateDone, StateFailed, StateCancelled, StateInterrupted:
		default:
			return refuse(f+".state", "unknown state %q", e.State)
		}
		for j, a := range e.Actions {
			if strings.TrimSpace(a.Label) == "" || strings.TrimSpace(a.Action) == "" || len(a.Label)+len(a.Action)+len(a.Arg) > MaxEntryBytes {
				return refuse(fmt.Sprintf("%s.actions[%d]", f, j), "needs a label and an action within %d bytes", MaxEntryBytes)
			}
		}
	}
	if len(r.History) > MaxMessages {
		return refuse("history", "%d messages, more than %d", len(r.History), MaxMessages)
	}
	if err := openrouter.ValidateHistory(r.History); err != nil {
		return refuse("history", "%v", err)
	}
	if len(r.Trace) > MaxTraceRows {
		return refuse("trace", "%d rows, more than %d", len(r.Trace), MaxTraceRows)
	}
	for i, row := range r.Trace {
		if row.TraceID == "" || row.Name == "" || row.Kind == "" || row.Status == "" {
			return refuse(fmt.Sprintf("trace[%d]", i), "a row needs traceId, kind, name and status")
		}
	}
	if len(r.Running) > MaxEntryBytes {
		return refuse("running", "over %d bytes", MaxEntryBytes)
	}
	return nil
}

// validID: "c" followed by 1..40 of [0-9a-z-].
func validID(id string) bool {
	if len(id) < 2 || len(id) > 41 || id[0] != 'c' {
		return false
	}
	for _, c := range id[1:] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c == '-') {
			return false
		}
	}
	return true
}

// NewID returns the id of a conversation created at ms (Unix milliseconds) with a
// disambiguating seq: "c<ms in base 36, 9 digits>-<seq in base 36>". Ids of one workspace
// sort by creation time.
func NewID(ms int64, seq int) string {
	s := fmt.Sprintf("%09s", strconvBase36(ms))
	return "c" + s + "-" + strconvBase36(int64(seq))
}

func strconvBase36(n int64) string {
	if n < 0 {
		n = 0
	}
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{digits[n%36]}, b...)
		n /= 36
	}
	return string(b)
}

// ValidWorkspace checks a workspace name used in keys: 1..MaxWorkspaceChars characters of
// valid UTF-8 with no control character.
func ValidWorkspace(ws string) error {
	if ws == "" || utf8.RuneCountInString(ws) > MaxWorkspaceChars || !utf8.ValidString(ws) {
		return fmt.Errorf("workspace name must be 1..%d characters of UTF-8", MaxWorkspaceChars)
	}
	for _, c := range ws {
		if c < 0x20 || c == 0x7f {
			return fmt.Errorf("workspace name has a control character")
		}
	}
	return nil
}
