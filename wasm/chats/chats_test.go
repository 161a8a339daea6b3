package chats_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/chats"
	"github.com/webcoding/studio/wasm/openrouter"
	"github.com/webcoding/studio/wasm/trace"
	"github.com/webcoding/studio/wasm/ui/views"
)

const testKey = "sk-or-v1-0123456789abcdef0123456789abcdef"

func s(v string) *string { return &v }

// run is one provider run: the prompt, one tool call and its result, the answer.
func run(prompt, id string, resultBytes int) []openrouter.Message {
	return []openrouter.Message{
		{Role: openrouter.RoleUser, Content: s(prompt)},
		{Role: openrouter.RoleAssistant, ToolCalls: []openrouter.ToolCall{{ID: id, Type: "function",
			Function: openrouter.ToolCallFunction{Name: "preview_setTheme", Arguments: `{"theme":"emerald"}`}}},
			ReasoningDetails: []json.RawMessage{json.RawMessage(`{"type":"reasoning.text","text":"pick a theme"}`)}},
		{Role: openrouter.RoleTool, ToolCallID: id, Content: s(`{"status":"completed","pad":"` + strings.Repeat("x", resultBytes) + `"}`)},
		{Role: openrouter.RoleAssistant, Content: s("Done: " + prompt)},
	}
}

func record(runs int, resultBytes int) chats.Record {
	r := chats.Record{ID: chats.NewID(1764460800000, 1), Workspace: "canvas-landing", Created: 1764460800000, Updated: 1764460801000}
	r.History = []openrouter.Message{{Role: openrouter.RoleSystem, Content: s(openrouter.SystemPrompt)}}
	for i := 0; i < runs; i++ {
		p := "prompt " + string(rune('a'+i%26))
		r.History = append(r.History, run(p, "call_"+chats.NewID(int64(i), i)[1:], resultBytes)...)
		r.Entries = append(r.Entries, chats.Entry{Kind: "user", Text: p}, chats.Entry{Kind: "result", Text: "✓ preview.setTheme"},
			chats.Entry{Kind: "agent", Text: "Done: " + p, State: chats.StateDone})
	}
	return r
}

func TestRoundTripKeepsHistoryAndStates(t *testing.T) {
	r := record(2, 10)
	r.Entries = append(r.Entries, chats.Entry{Kind: "error", Text: "[OPENROUTER_TIMEOUT] slow", State: chats.StateFailed,
		Prompt: "again", Code: "OPENROUTER_TIMEOUT", Retryable: true, Actions: []chats.Action{{Label: "Use local agent & retry", Action: "provider-local-retry", Arg: "again"}}})
	r.Trace = []trace.ExportRow{{TraceID: "t1", Kind: trace.KindCall, Method: "tools/call", Name: "preview.setTheme", Status: trace.StatusCompleted, StartedAt: time.Unix(1764460800, 0).UTC()}}
	raw, err := chats.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := chats.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	r.V = chats.FormatVersion
	want, _ := json.Marshal(r)
	back, _ := json.Marshal(got)
	if !bytes.Equal(want, back) {
		t.Fatalf("round trip changed the record:\n%s\n%s", want, back)
	}
	if d := got.History[2].ReasoningDetails; len(d) != 1 || string(d[0]) != `{"type":"reasoning.text","text":"pick a theme"}` {
		t.Fatalf("reasoning_details not kept: %s", d)
	}
}

func TestDecodeRefuses(t *testing.T) {
	good, err := chats.Encode(record(1, 10))
	if err != nil {
		t.Fatal(err)
	}
	mutate := func(f func(m map[string]any)) []byte {
		var m map[string]any
		_ = json.Unmarshal(good, &m)
		f(m)
		b, _ := json.Marshal(m)
		return b
	}
	cases := map[string][]byte{
		"not json":       []byte(`{"v":1,`),
		"array":          []byte(`[]`),
		"repeated key":   bytes.Replace(good, []byte(`"v":1`), []byte(`"v":1,"v":1`), 1),
		"unknown member": mutate(func(m map[string]any) { m["apiKey"] = "x" }),
		"version":        mutate(func(m map[string]any) { m["v"] = 2 }),
		"bad id":         mutate(func(m map[string]any) { m["id"] = "../x" }),
		"workspace ctrl": mutate(func(m map[string]any) { m["workspace"] = "a\x00b" }),
		"times":          mutate(func(m map[string]any) { m["updated"] = 1 }),
		"kind":           mutate(func(m map[string]any) { m["entries"].([]any)[0].(map[string]any)["kind"] = "html" }),
		"state":          mutate(func(m map[string]any) { m["entries"].([]any)[0].(map[string]any)["state"] = "maybe" }),
		"entry text": mutate(func(m map[string]any) {
			m["entries"].([]any)[0].(map[string]any)["text"] = strings.Repeat("x", chats.MaxEntryBytes+1)
		}),
		"history order":   mutate(func(m map[string]any) { h := m["history"].([]any); h[0], h[1] = h[1], h[0] }),
		"unanswered call": mutate(func(m map[string]any) { h := m["history"].([]any); m["history"] = h[:3] }),
		"bad args": mutate(func(m map[string]any) {
			m["history"].([]any)[2].(map[string]any)["tool_calls"].([]any)[0].(map[string]any)["function"].(map[string]any)["arguments"] = "[1]"
		}),
		"history member": mutate(func(m map[string]any) { m["history"].([]any)[1].(map[string]any)["name"] = "x" }),
		"trace row":      mutate(func(m map[string]any) { m["trace"] = []any{map[string]any{"traceId": "t"}} }),
		"too many entries": mutate(func(m map[string]any) {
			e := m["entries"].([]any)
			for len(e) <= chats.MaxEntries {
				e = append(e, e[0])
			}
			m["entries"] = e
		}),
	}
	for name, raw := range cases {
		if _, err := chats.Decode(raw); err == nil {
			t.Errorf("%s: decoded", name)
		} else if !errors.As(err, new(*chats.DecodeError)) {
			t.Errorf("%s: error %T %v is not a *DecodeError", name, err, err)
		}
	}
}

func TestBoundKeepsLimits(t *testing.T) {
	r := record(70, 10) // 70 runs: 281 messages, 210 entries
	r.Entries[0].Text = strings.Repeat("é", chats.MaxEntryBytes)
	for i := 0; i < chats.MaxTraceRows+5; i++ {
		r.Trace = append(r.Trace, trace.ExportRow{TraceID: "t" + chats.NewID(int64(i), 0), Kind: trace.KindCall, Method: "tools/call", Name: "x", Status: trace.StatusCompleted})
	}
	b := chats.Bound(r)
	if len(b.Entries) != chats.MaxEntries || len(b.Trace) != chats.MaxTraceRows || len(b.History) > chats.MaxMessages {
		t.Fatalf("entries %d trace %d history %d", len(b.Entries), len(b.Trace), len(b.History))
	}
	if err := openrouter.ValidateHistory(b.History); err != nil {
		t.Fatalf("bounded history invalid: %v", err)
	}
	if last := b.History[len(b.History)-1]; *last.Content != "Done: "+"prompt "+string(rune('a'+69%26)) {
		t.Fatalf("the newest run was not kept: %q", *last.Content)
	}
	if len(r.History) != 281 {
		t.Fatal("Bound changed its argument")
	}
	// Bytes: big tool results are elided, then whole runs dropped, until the record fits.
	big := chats.Bound(record(12, 60<<10))
	raw, _ := chats.Encode(big)
	if len(raw) > chats.MaxRecordBytes {
		t.Fatalf("encoded %d bytes, limit %d", len(raw), chats.MaxRecordBytes)
	}
	if err := openrouter.ValidateHistory(big.History); err != nil {
		t.Fatalf("bounded history invalid: %v", err)
	}
	if n := len(big.History); n < 5 || !strings.Contains(*big.History[n-2].Content, strings.Repeat("x", 60<<10)) {
		t.Fatalf("the newest run's result should stay whole (history %d)", n)
	}
	if _, err := chats.Decode(raw); err != nil {
		t.Fatalf("a bounded record does not decode: %v", err)
	}
}

func TestStoreNeverHoldsTheKey(t *testing.T) {
	mem := &chats.MemBackend{}
	st := &chats.Store{Backend: mem, Secrets: func() []string { return []string{testKey} }}
	r := record(1, 10)
	// The key typed into a prompt, echoed in an entry, in a tool argument and in a detail.
	r.History = append(r.History, run("my key is "+testKey, "call_k", 10)...)
	r.History[len(r.History)-3].ToolCalls[0].Function.Arguments = `{"theme":"` + testKey + `"}`
	r.Entries = append(r.Entries, chats.Entry{Kind: "user", Text: "my key is " + testKey, Details: "\"" + testKey + "\""})
	if err := st.Save(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	all := mem.Bytes()
	if len(all) != 1 {
		t.Fatalf("%d values stored", len(all))
	}
	for _, b := range all {
		if bytes.Contains(b, []byte(testKey)) || bytes.Contains(b, []byte(testKey[:20])) {
			t.Fatalf("the key is in the stored bytes: %s", b)
		}
		if !bytes.Contains(b, []byte(chats.Redacted)) {
			t.Fatal("nothing was redacted: the test did not put the key in")
		}
	}
	got, ok, err := st.Latest(context.Background(), "canvas-landing")
	if err != nil || !ok {
		t.Fatalf("latest: %v %v", ok, err)
	}
	if err := openrouter.ValidateHistory(got.History); err != nil {
		t.Fatalf("the scrubbed history is not valid: %v", err)
	}
}

func TestStoreKeepsMaxConversationsPerWorkspace(t *testing.T) {
	mem := &chats.MemBackend{}
	st := &chats.Store{Backend: mem}
	ctx := context.Background()
	for i := 0; i < chats.MaxConversations+3; i++ {
		r := record(1, 10)
		r.ID = chats.NewID(1764460800000+int64(i)*1000, 0)
		if err := st.Save(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	other := record(1, 10)
	other.Workspace = "canvas-landing-2" // shares a prefix: must not be counted or pruned
	if err := st.Save(ctx, other); err != nil {
		t.Fatal(err)
	}
	if n, _ := st.Count(ctx, "canvas-landing"); n != chats.MaxConversations {
		t.Fatalf("%d conversations kept, want %d", n, chats.MaxConversations)
	}
	if n, _ := st.Count(ctx, "canvas-landing-2"); n != 1 {
		t.Fatalf("other workspace: %d", n)
	}
	got, ok, err := st.Latest(ctx, "canvas-landing")
	if err != nil || !ok || got.ID != chats.NewID(1764460800000+int64(chats.MaxConversations+2)*1000, 0) {
		t.Fatalf("latest = %q %v %v", got.ID, ok, err)
	}
	// A corrupt newest record is reported, not half restored.
	_ = mem.Put(ctx, chats.Key("canvas-landing", "czzzzzzzzz-0"), []byte(`{"v":1}`))
	if _, _, err := st.Latest(ctx, "canvas-landing"); !errors.As(err, new(*chats.DecodeError)) {
		t.Fatalf("corrupt record: %v", err)
	}
}

func TestRestoreProjection(t *testing.T) {
	r := record(1, 10)
	r.Entries = append(r.Entries,
		chats.Entry{Kind: "error", Text: "[OPENROUTER_TIMEOUT] slow", State: chats.StateFailed, Prompt: "p1", Retryable: true,
			Actions: []chats.Action{{Label: "Use local agent & retry", Action: "provider-local-retry", Arg: "p1"}}},
		chats.Entry{Kind: "error", Text: "[OPENROUTER_AUTHENTICATION_FAILED] bad key", State: chats.StateFailed, Prompt: "p2",
			Actions: []chats.Action{{Label: "Open provider settings", Action: "provider-settings"}}},
		chats.Entry{Kind: "info", Text: "Execution cancelled.", State: chats.StateCancelled, Applied: 2},
		chats.Entry{Kind: "error", Text: "Draft kept", Actions: []chats.Action{{Label: "Save as new file", Action: "draft-save-new", Arg: "7"}}},
	)
	r.Running = "make it rose"
	keep := map[string]bool{"provider-local-retry": true, "provider-settings": true, chats.ActionRetry: true}
	got := chats.Restore(r, func(a string) bool { return keep[a] })
	n := len(got)
	if n != len(r.Entries)+1 {
		t.Fatalf("%d entries", n)
	}
	failed := got[n-5]
	if len(failed.Actions) != 2 || failed.Actions[1].Action != chats.ActionRetry || failed.Actions[1].Arg != "p1" {
		t.Errorf("retryable failure actions: %+v", failed.Actions)
	}
	if auth := got[n-4]; len(auth.Actions) != 1 || auth.Actions[0].Action != "provider-settings" {
		t.Errorf("not retryable: no Retry, settings kept: %+v", auth.Actions)
	}
	if c := got[n-3]; c.Text != "Execution cancelled. 2 changes it had applied are kept." {
		t.Errorf("cancelled: %q", c.Text)
	}
	if d := got[n-2]; d.Actions != nil {
		t.Errorf("an action bound to the old page survived: %+v", d.Actions)
	}
	if last := got[n-1]; last.State != chats.StateInterrupted || !strings.Contains(last.Text, "make it rose") ||
		len(last.Actions) != 1 || last.Actions[0].Arg != "make it rose" {
		t.Errorf("interrupted run: %+v", last)
	}
	if got := chats.Restore(r, nil); got[n-5].Actions != nil {
		t.Errorf("keep nil kept actions: %+v", got[n-5].Actions)
	}
}

func TestNewIDSortsByTime(t *testing.T) {
	a, b := chats.NewID(1764460800000, 5), chats.NewID(1764460800001, 0)
	if !(a < b) {
		t.Fatalf("%s !< %s", a, b)
	}
}

func FuzzDecode(f *testing.F) {
	good, _ := chats.Encode(record(2, 10))
	f.Add(good)
	f.Add([]byte(`{"v":1,"id":"c1","workspace":"w","created":1,"updated":1,"entries":[],"history":[]}`))
	f.Add([]byte(`{"v":1,"history":[{"role":"tool","content":"x","tool_call_id":"a"}]}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		r, err := chats.Decode(raw)
		if err != nil {
			if !errors.As(err, new(*chats.DecodeError)) {
				t.Fatalf("error %T is not a *DecodeError", err)
			}
			return
		}
		// What decodes is within the limits, re-encodes unchanged by Bound, and decodes again.
		if len(r.Entries) > chats.MaxEntries || len(r.History) > chats.MaxMessages || len(r.Trace) > chats.MaxTraceRows {
			t.Fatalf("decoded over the limits")
		}
		if err := openrouter.ValidateHistory(r.History); err != nil {
			t.Fatalf("decoded an invalid history: %v", err)
		}
		again, err := chats.Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := chats.Decode(again); err != nil {
			t.Fatalf("re-encoded record refused: %v", err)
		}
	})
}

// TestRetryIsTheBrowsersPromptRetry: the Retry a restored failure offers is the action the
// browser's recovery handler runs (views.ActionRetryPrompt: the prompt sent again).
func TestRetryIsTheBrowsersPromptRetry(t *testing.T) {
	if chats.ActionRetry != views.ActionRetryPrompt {
		t.Fatalf("chats.ActionRetry %q, views.ActionRetryPrompt %q", chats.ActionRetry, views.ActionRetryPrompt)
	}
}

// TestSaveRepairsWhatTheUIPasses: whatever the page hands over becomes a record Decode
// accepts — an unknown kind is "info", an action without a label is dropped, a trace row
// without a name is dropped, a history the loop could not have built is dropped whole (the
// transcript is still kept).
func TestSaveRepairsWhatTheUIPasses(t *testing.T) {
	mem := &chats.MemBackend{}
	st := &chats.Store{Backend: mem}
	r := record(1, 10)
	r.Entries = append(r.Entries, chats.Entry{Kind: "banner", Text: "x", State: "weird", Applied: 99,
		Actions: []chats.Action{{Label: "", Action: "a"}, {Label: "Ok", Action: "provider-settings"}}})
	r.Trace = []trace.ExportRow{{TraceID: "t1"}, {TraceID: "t2", Kind: trace.KindCall, Name: "x", Status: trace.StatusCompleted}}
	r.History = r.History[1:] // no system message
	if err := st.Save(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	got, ok, err := st.Latest(context.Background(), r.Workspace)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	last := got.Entries[len(got.Entries)-1]
	if last.Kind != "info" || last.State != "" || last.Applied != 12 || len(last.Actions) != 1 || len(got.Trace) != 1 || got.History != nil {
		t.Fatalf("repaired record: %+v, trace %d, history %d", last, len(got.Trace), len(got.History))
	}
}

// TestRestoredUsageIsNotThisSession: a usage entry shown after a reload does not claim its
// session total for the new page (whose session starts at zero): the total is relabelled as
// the old page's, and the label is the one views.UsageSummary writes (nu16 item 18).
func TestRestoredUsageIsNotThisSession(t *testing.T) {
	if chats.UsageSessionLabel != views.UsageSessionLabel {
		t.Fatalf("chats.UsageSessionLabel %q, views.UsageSessionLabel %q", chats.UsageSessionLabel, views.UsageSessionLabel)
	}
	run := views.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12}
	session := views.Usage{PromptTokens: 30, CompletionTokens: 6, TotalTokens: 36}
	text := views.UsageSummary(nil, run, session)
	r := record(1, 10)
	r.Entries = append(r.Entries, chats.Entry{Kind: "usage", Text: text}, chats.Entry{Kind: "agent", Text: "about this session: fine"})
	got := chats.Restore(r, nil)
	u, a := got[len(got)-2], got[len(got)-1]
	if strings.Contains(u.Text, "this session") {
		t.Errorf("a restored usage entry still claims this session: %q", u.Text)
	}
	want := "Usage — this run: " + views.UsageLine(run) + chats.UsageEarlierSessionLabel + views.UsageLine(session)
	if u.Text != want {
		t.Errorf("restored usage = %q, want %q", u.Text, want)
	}
	if a.Text != "about this session: fine" {
		t.Errorf("a non-usage entry changed: %q", a.Text)
	}
}
