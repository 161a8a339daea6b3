package chats

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/openrouter"
	"github.com/webcoding/studio/wasm/trace"
)

// Bound returns r within the limits and in the shape Decode accepts (r is not changed):
//   - every entry's text, details and prompt cut to MaxEntryBytes at a rune boundary, its
//     actions to MaxActions (actions without a label or an action dropped), an unknown kind
//     shown as "info", an unknown state cleared, Applied clamped to 0..MaxToolCalls; only the
//     newest MaxEntries entries; only the newest MaxTraceRows trace rows that have a trace id,
//     a kind, a name and a status;
//   - a history openrouter.ValidateHistory refuses is dropped whole (the transcript is still
//     kept; the next prompt after a reload starts a new provider conversation);
//   - the history cut to MaxMessages by dropping whole runs from the oldest (a run starts at
//     a user message; the system message stays), so it stays a valid history;
//   - then, while the encoded record exceeds MaxRecordBytes: the tool results and reasoning
//     blocks of all but the newest run are elided, then the oldest runs, the oldest half of
//     the trace rows and the oldest half of the entries are dropped, in that order.
func Bound(r Record) Record {
	out := r
	out.Entries = make([]Entry, 0, min(len(r.Entries), MaxEntries))
	start := max(0, len(r.Entries)-MaxEntries)
	for _, e := range r.Entries[start:] {
		e.Text, e.Details, e.Prompt = cut(e.Text), cut(e.Details), cut(e.Prompt)
		if !entryKinds[e.Kind] {
			e.Kind = "info"
		}
		switch e.State {
		case "", StateDone, StateFailed, StateCancelled, StateInterrupted:
		default:
			e.State = ""
		}
		e.Applied = min(max(e.Applied, 0), openrouter.MaxToolCalls)
		var acts []Action
		for _, a := range e.Actions {
			if len(acts) < MaxActions && strings.TrimSpace(a.Label) != "" && strings.TrimSpace(a.Action) != "" &&
				len(a.Label)+len(a.Action)+len(a.Arg) <= MaxEntryBytes {
				acts = append(acts, a)
			}
		}
		e.Actions = acts
		out.Entries = append(out.Entries, e)
	}
	out.Running = cut(r.Running)
	var rows []trace.ExportRow
	for _, row := range r.Trace {
		if row.TraceID != "" && row.Name != "" && row.Kind != "" && row.Status != "" {
			rows = append(rows, row)
		}
	}
	if n := len(rows); n > MaxTraceRows {
		rows = rows[n-MaxTraceRows:]
	}
	out.Trace = rows
	out.History = copyHistory(r.History)
	if openrouter.ValidateHistory(out.History) != nil && !validAfterCut(out.History) {
		out.History = nil
	}
	for len(out.History) > MaxMessages && dropOldestRun(&out) {
	}
	for step := 0; encodedSize(out) > MaxRecordBytes; step++ {
		switch {
		case step == 0:
			elideOld(out.History)
		case dropOldestRun(&out):
		case len(out.History) > 1 && len(runStarts(out.History)) <= 1:
			out.History = out.History[:1] // one run alone too large: the conversation restarts
		case len(out.Trace) > 0:
			out.Trace = out.Trace[len(out.Trace)/2:]
			if len(out.Trace) == 1 {
				out.Trace = nil
			}
		case len(out.Entries) > 1:
			out.Entries = out.Entries[len(out.Entries)/2:]
		default:
			return out // entries are bounded per entry; one entry always fits
		}
	}
	return out
}

// cut bounds s to MaxEntryBytes at a rune boundary, ending with "…" when it was cut.
func cut(s string) string {
	if len(s) <= MaxEntryBytes {
		return s
	}
	n := MaxEntryBytes - len("…")
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func copyHistory(h []openrouter.Message) []openrouter.Message {
	if h == nil {
		return nil
	}
	raw, err := json.Marshal(h)
	if err != nil {
		return nil
	}
	var cp []openrouter.Message
	if json.Unmarshal(raw, &cp) != nil {
		return nil
	}
	return cp
}

// runStarts are the indices of the user messages (each starts a run).
func runStarts(h []openrouter.Message) []int {
	var out []int
	for i, m := range h {
		if m.Role == openrouter.RoleUser {
			out = append(out, i)
		}
	}
	return out
}

// dropOldestRun removes the oldest run (from after the system message to the next user
// message) when at least two runs remain; it reports whether it did.
func dropOldestRun(r *Record) bool {
	starts := runStarts(r.History)
	if len(starts) < 2 {
		return false
	}
	r.History = append(r.History[:1:1], r.History[starts[1]:]...)
	return true
}

// elideOld replaces the tool results and drops the reasoning blocks of every run but the
// newest.
func elideOld(h []openrouter.Message) {
	starts := runStarts(h)
	if len(starts) < 2 {
		return
	}
	last := starts[len(starts)-1]
	for i := range h[:last] {
		if h[i].Role == openrouter.RoleTool {
			s := openrouter.ElidedResult
			h[i].Content = &s
		}
		h[i].ReasoningDetails = nil
	}
}

func encodedSize(r Record) int {
	b, err := json.Marshal(r)
	if err != nil {
		return MaxRecordBytes + 1
	}
	return len(b)
}

// validAfterCut reports whether h becomes valid once cut to MaxMessages by whole runs (a
// history longer than openrouter.MaxHistoryMessages is refused only for its length).
func validAfterCut(h []openrouter.Message) bool {
	if len(h) <= openrouter.MaxHistoryMessages {
		return false
	}
	r := Record{History: copyHistory(h)}
	for len(r.History) > MaxMessages && dropOldestRun(&r) {
	}
	return openrouter.ValidateHistory(r.History) == nil
}
