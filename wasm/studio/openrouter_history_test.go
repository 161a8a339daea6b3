package studio

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/openrouter"
	"github.com/webcoding/studio/wasm/rpcsession"
)

// TestAgentOpenRouterHistoryRestore: the history read from one session (the page before a
// reload) restores into a new session (the page after it), and the follow-up request carries
// the earlier messages; a broken history is refused and changes nothing; the reasoning param
// reaches the request.
func TestAgentOpenRouterHistoryRestore(t *testing.T) {
	session := func(tr *replay) *rpcsession.Session {
		b := WithOpenRouter(Builder(Ports{}), OpenRouterOptions{Transport: tr, Defaults: openrouter.Config{Endpoint: "http://127.0.0.1:1/api/v1/chat/completions"}})
		s, err := b(context.Background(), rpcsession.Config{Approval: rpcsession.ApprovalConfig{Mode: "static", All: true}})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	method := func(s *rpcsession.Session, name, params string) (json.RawMessage, bool) {
		t.Helper()
		v, rerr := s.Methods[name](context.Background(), json.RawMessage(params))
		if rerr != nil {
			return json.RawMessage(rerr.Message), false
		}
		b, _ := json.Marshal(v)
		return b, true
	}
	tr1 := &replay{bodies: []string{orCall("c1", "workspace_getStatus", ""), orText("Looked.")}}
	s1 := session(tr1)
	if out, ok := method(s1, MethodAgentOpenRouter, `{"prompt":"Look around","reasoning":{"effort":"low"}}`); !ok || !strings.Contains(string(out), `"summary":"Looked."`) {
		t.Fatalf("run: %s", out)
	}
	if !strings.Contains(string(tr1.reqs[0].Body), `"reasoning":{"effort":"low"}`) {
		t.Fatalf("reasoning not sent: %s", tr1.reqs[0].Body)
	}
	hist, ok := method(s1, MethodAgentOpenRouterHistory, ``)
	if !ok {
		t.Fatal(string(hist))
	}
	var h struct {
		Messages json.RawMessage `json:"messages"`
	}
	_ = json.Unmarshal(hist, &h)

	tr2 := &replay{bodies: []string{orText("Follow-up answered.")}}
	s2 := session(tr2)
	if out, ok := method(s2, MethodAgentOpenRouterHistory, `{}`); !ok || string(out) != `{"messages":[]}` {
		t.Fatalf("a new session's history: %s", out)
	}
	for name, bad := range map[string]string{
		"missing":         `{}`,
		"extra member":    `{"messages":[],"x":1}`,
		"unknown field":   `{"messages":[{"role":"system","content":"s","name":"x"}]}`,
		"invalid order":   `{"messages":[{"role":"user","content":"hi"}]}`,
		"not an array":    `{"messages":{}}`,
		"unanswered call": `{"messages":[{"role":"system","content":"s"},{"role":"user","content":"u"},{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"x","arguments":"{}"}}]}]}`,
	} {
		if out, ok := method(s2, MethodAgentOpenRouterRestore, bad); ok {
			t.Errorf("%s: restored: %s", name, out)
		}
	}
	if out, ok := method(s2, MethodAgentOpenRouterRestore, `{"messages":`+string(h.Messages)+`}`); !ok || !strings.Contains(string(out), `"restored":5`) {
		t.Fatalf("restore: %s", out)
	}
	if out, ok := method(s2, MethodAgentOpenRouter, `{"prompt":"And now?"}`); !ok || !strings.Contains(string(out), "Follow-up answered.") {
		t.Fatalf("follow-up: %s", out)
	}
	var body struct {
		Messages []map[string]any `json:"messages"`
	}
	_ = json.Unmarshal(tr2.reqs[0].Body, &body)
	var roles []string
	for _, m := range body.Messages {
		roles = append(roles, m["role"].(string))
	}
	if strings.Join(roles, ",") != "system,user,assistant,tool,assistant,user" || body.Messages[1]["content"] != "Look around" ||
		body.Messages[5]["content"] != "And now?" {
		t.Fatalf("the follow-up did not send the restored history: %v", roles)
	}
	if _, ok := method(s2, MethodAgentOpenRouter, `{"prompt":"x","reasoning":{"effort":"low","maxTokens":100}}`); ok {
		t.Error("effort and maxTokens together were accepted")
	}
}
