package wasmhost

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"

	"github.com/tetratelabs/wazero"
)

// TestInstrumentLoops: the reactor's instrumented form compiles in wazero (its interpreter
// validates the module), grows by one probe per loop, and holds the new counter global.
func TestInstrumentLoops(t *testing.T) {
	bin, err := os.ReadFile(testModule)
	if err != nil {
		t.Fatal(err)
	}
	out, err := instrumentLoops(bin, pollInterval)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) <= len(bin) {
		t.Fatalf("instrumented module %d bytes, original %d", len(out), len(bin))
	}
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer rt.Close(ctx)
	if _, err := rt.CompileModule(ctx, out); err != nil {
		t.Fatalf("the instrumented module does not compile: %v", err)
	}
	t.Logf("%d → %d bytes", len(bin), len(out))
}

// TestInstrumentLoopsRefuses: what cannot be instrumented is refused with errCannotInstrument
// (the host then uses wazero's termination checks).
func TestInstrumentLoopsRefuses(t *testing.T) {
	noPoll := []byte("\x00asm\x01\x00\x00\x00")
	for name, bin := range map[string][]byte{
		"not wasm":       []byte("hello"),
		"no poll import": noPoll,
		"truncated":      append(bytes.Clone(noPoll), 2, 50, 1),
	} {
		if _, err := instrumentLoops(bin, pollInterval); !errors.Is(err, errCannotInstrument) {
			t.Errorf("%s: error %v, want errCannotInstrument", name, err)
		}
	}
}
