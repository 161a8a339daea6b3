package provider_test

import (
	"encoding/json"
	"fmt"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/provider"
)

func ExampleNameMap() {
	names, err := provider.NewNameMap([]string{"workspace.getStatus", "preview.setTheme"})
	if err != nil {
		panic(err)
	}
	p, _ := names.ToProvider("workspace.getStatus")
	fmt.Println(p)
	// A provider's tool call is mapped back before dispatch.
	c, ok := names.ToCanonical("preview_setTheme")
	fmt.Println(c, ok)

	_, err = provider.NewNameMap([]string{"a.b", "a_b"})
	fmt.Println(err)
	// Output:
	// workspace_getStatus
	// preview.setTheme true
	// provider: tool names collide after provider name mapping: "a.b" and "a_b" both map to "a_b"
}

func ExampleToOpenAI() {
	tools := []mcp.Tool{{
		Name:        "workspace.getStatus",
		Description: "Workspace status.",
		InputSchema: json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}`),
	}}
	out, err := provider.ToOpenAI(tools)
	if err != nil {
		panic(err)
	}
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
	// Output:
	// [{"type":"function","function":{"name":"workspace_getStatus","description":"Workspace status.","parameters":{"type":"object"}}}]
}
