//go:build conformance

package conformance_test

import (
	"context"
	"encoding/json"
	"flag"
	"regexp"
	"testing"

	"github.com/webcoding/studio/wasm/conformance"
	"github.com/webcoding/studio/wasm/livesurface"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/studio"
	"github.com/webcoding/studio/wasm/websurface"
)

var update = flag.Bool("update", false, "rewrite vector expectations from the native host")

func nativeHost() conformance.Host {
	websurface.Install()  // the realtime catalog, as wasm/cmd/reactor installs it
	livesurface.Install() // the Live Code Editor's catalog, likewise
	h := studio.Assemble(context.Background(), studio.Ports{})
	return func(ctx context.Context, req []byte) ([]byte, error) { return h.Handle(ctx, req), nil }
}

// TestNative runs every vector against the registry in process (the reference host).
func TestNative(t *testing.T) {
	if *update {
		conformance.Update(t, nativeHost(), "testdata")
		return
	}
	conformance.Run(t, "native", nativeHost())
}

// TestVectorsCoverRegistryCodes proves that the vectors exercise every TOOL_* code the registry
// itself emits, the durable TOOL_IDEMPOTENCY_* codes included (testdata/durable); the rest
// belong to the provider serializer.
func TestVectorsCoverRegistryCodes(t *testing.T) {
	vectors, err := conformance.Vectors()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	re := regexp.MustCompile(`"code":"(TOOL_[A-Z_]+)"`)
	for _, v := range vectors {
		for _, st := range v.Steps {
			var compact []byte
			if b, err := json.Marshal(json.RawMessage(st.Expect)); err == nil {
				compact = b
			}
			for _, m := range re.FindAllSubmatch(compact, -1) {
				seen[string(m[1])] = true
			}
		}
	}
	notRegistry := map[mcp.Code]string{
		mcp.CodeToolResultValidationFailed:    "provider serializer",
		mcp.CodeToolResultSerializationFailed: "provider serializer",
	}
	for _, c := range mcp.ToolCodes {
		if _, skip := notRegistry[c]; skip {
			continue
		}
		if !seen[string(c)] {
			t.Errorf("no vector expects %s", c)
		}
	}
}
