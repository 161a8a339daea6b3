package wasmhost

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
)

// TestInstrumentLoops: the reactor imports webcoding.poll, carries a name section in which the
// Go runtime's functions are found, and its instrumented form (with and without the runtime's
// functions) compiles in wazero; the runtime-skipping form holds fewer probes.
func TestInstrumentLoops(t *testing.T) {
	bin, err := os.ReadFile(testModule)
	if err != nil {
		t.Fatal(err)
	}
	var names map[uint32]string
	for r := (reader{b: bin, i: 8}); r.i < len(r.b) && names == nil; {
		id, body := r.byte(), r.bytes(int(r.u32()))
		if id == 0 {
			names = funcNames(body)
		}
	}
	runtimeFuncs := 0
	for _, n := range names {
		if skipGoRuntime(n) {
			runtimeFuncs++
		}
	}
	if len(names) < 1000 || runtimeFuncs < 100 {
		t.Fatalf("name section: %d names, %d in the Go runtime", len(names), runtimeFuncs)
	}
	all, err := instrumentLoops(bin, pollInterval, nil)
	if err != nil {
		t.Fatal(err)
	}
	some, err := instrumentLoops(bin, pollInterval, skipGoRuntime)
	if err != nil {
		t.Fatal(err)
	}
	if !(len(bin) < len(some) && len(some) < len(all)) {
		t.Fatalf("sizes: module %d, instrumented without the runtime %d, all %d", len(bin), len(some), len(all))
	}
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer rt.Close(ctx)
	for _, b := range [][]byte{all, some} {
		if _, err := rt.CompileModule(ctx, b); err != nil {
			t.Fatalf("the instrumented module does not compile: %v", err)
		}
	}
	t.Logf("%d functions named, %d in the Go runtime; %d → %d (runtime skipped) / %d bytes", len(names), runtimeFuncs, len(bin), len(some), len(all))
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
		if _, err := instrumentLoops(bin, pollInterval, nil); !errors.Is(err, errCannotInstrument) {
			t.Errorf("%s: error %v, want errCannotInstrument", name, err)
		} else if !strings.Contains(err.Error(), "instrument") {
			t.Errorf("%s: error %q", name, err)
		}
	}
}
