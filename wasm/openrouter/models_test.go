package openrouter_test

import (
	"context"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/openrouter"
)

const modelsBody = `{"data":[
 {"id":"openai/gpt-4o-mini","name":"OpenAI: GPT-4o-mini","pricing":{"prompt":"0.00000015","completion":"0.0000006"},"supported_parameters":["tools","tool_choice","max_tokens"]},
 {"id":"meta-llama/llama-3.3-70b-instruct:free","name":"Meta: Llama 3.3 70B Instruct (free)","pricing":{"prompt":"0","completion":"0"},"supported_parameters":["tools"]},
 {"id":"vendor/zero-priced","name":"Zero","pricing":{"prompt":0,"completion":"0"},"supported_parameters":["tools"]},
 {"id":"vendor/no-tools:free","name":"No tools","supported_parameters":["temperature"]},
 {"id":"vendor/nameless","supported_parameters":["tools"]},
 {"name":"no id"},
 {"id":42},
 "not an object",
 {"id":"vendor/bad-params","supported_parameters":"tools"}
]}`

func TestParseModels(t *testing.T) {
	cat, terr := openrouter.ParseModels([]byte(modelsBody))
	if terr != nil {
		t.Fatal(terr)
	}
	if cat.Skipped != 4 || len(cat.Models) != 5 {
		t.Fatalf("skipped %d, models %+v", cat.Skipped, cat.Models)
	}
	want := map[string]struct {
		free, tools bool
		label       string
	}{
		"openai/gpt-4o-mini":                     {false, true, "OpenAI: GPT-4o-mini (openai/gpt-4o-mini)"},
		"meta-llama/llama-3.3-70b-instruct:free": {true, true, "Meta: Llama 3.3 70B Instruct (free) (meta-llama/llama-3.3-70b-instruct:free) · free"},
		"vendor/zero-priced":                     {true, true, "Zero (vendor/zero-priced) · free"},
		"vendor/no-tools:free":                   {true, false, "No tools (vendor/no-tools:free) · free"},
		"vendor/nameless":                        {false, true, "vendor/nameless (vendor/nameless)"},
	}
	for _, m := range cat.Models {
		w := want[m.ID]
		if m.Free != w.free || m.Tools != w.tools || m.Label != w.label {
			t.Fatalf("%s: %+v", m.ID, m)
		}
	}
	if free := cat.ToolModels(true); len(free) != 2 || free[0].ID != "meta-llama/llama-3.3-70b-instruct:free" {
		t.Fatalf("free tool models %+v", free)
	}
	if all := cat.ToolModels(false); len(all) != 4 {
		t.Fatalf("tool models %+v", all)
	}
	for _, bad := range []string{`[]`, `{"data":{}}`, `{}`, `nope`} {
		if _, terr := openrouter.ParseModels([]byte(bad)); terr == nil || mcp.ToolErrorOf(terr).Code != mcp.CodeOpenRouterInvalidResponse {
			t.Fatalf("%s: %v", bad, terr)
		}
	}
}

func TestModelsURLAndFetch(t *testing.T) {
	for _, c := range []struct {
		endpoint string
		policy   openrouter.DataPolicy
		want     string
		ok       bool
	}{
		{"", openrouter.DataAllow, "https://openrouter.ai/api/v1/models?output_modalities=text&supported_parameters=tools", true},
		{"", openrouter.DataZDR, "https://openrouter.ai/api/v1/models?output_modalities=text&supported_parameters=tools&zdr=true", true},
		{"http://127.0.0.1:9999/v1/chat/completions/", openrouter.DataDeny, "http://127.0.0.1:9999/v1/models?output_modalities=text&supported_parameters=tools", true},
		{"https://proxy.example/llm", openrouter.DataAllow, "", false},
	} {
		got, ok := openrouter.ModelsURL(c.endpoint, c.policy)
		if got != c.want || ok != c.ok {
			t.Fatalf("%q: %q %v", c.endpoint, got, ok)
		}
	}
	tr := &script{t: t, steps: []step{ok200(modelsBody)}}
	cat, ok, terr := openrouter.FetchModels(context.Background(), tr, openrouter.Config{DataPolicy: openrouter.DataZDR, APIKey: "secret"})
	if !ok || terr != nil || len(cat.Models) != 5 {
		t.Fatalf("fetch: %v %v %+v", ok, terr, cat)
	}
	req := tr.requests()[0]
	if req.Method != "GET" || req.URL != "https://openrouter.ai/api/v1/models?output_modalities=text&supported_parameters=tools&zdr=true" || req.Header["Authorization"] != "" {
		t.Fatalf("request %+v", req)
	}
	tr = &script{t: t, steps: []step{{status: 404, body: "<h1>Not Found</h1>"}}}
	if _, _, terr := openrouter.FetchModels(context.Background(), tr, openrouter.Config{}); terr == nil || mcp.ToolErrorOf(terr).Code != mcp.CodeOpenRouterConfigurationError {
		t.Fatalf("404: %v", terr)
	}
}
