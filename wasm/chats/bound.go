package chats

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/openrouter"
)

// Bound returns r within the limits (r is not changed):
//   - every entry's text, details and prompt cut to MaxEntryBytes at a rune boundary, its
//     actions to MaxActions; only the newest MaxEntries entries; only the newest
//     MaxTraceRows trace rows;
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
		if len(e.Actions) > MaxActions {
			e.Actions = e.Actions[:MaxActions]
		}
		e.Actions = append([]Action(nil), e.Actions...)
		out.Entries = append(out.Entries, e)
	}
	out.Running = cut(r.Running)
	if n := len(r.Trace); n > MaxTraceRows {
		out.Trace = append(out.Trace[:0:0], r.Trace[n-MaxTraceRows:]...)
	} else {
		out.Trace = append(out.Trace[:0:0], r.Trace...)
	}
	out.History = copyHistory(r.History)
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
