package wasmhost

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/sys"
)

// Cancelling a running guest call (see the package doc, "Deadlines and lost state").
//
// wazero's own termination checks (RuntimeConfig.WithCloseOnContextDone) make every loop
// header of the guest leave machine code for Go and come back (its check-module-exit-code
// trampoline), because machine code cannot be preempted. The Go wasm port puts a loop header at
// the top of every function that calls another, so the studio core pays that round trip on
// nearly every call: a tools/call cost 1.9–2.4× the CPU it costs with the instrumentation below
// (docs/performance.md, "wazero tools/call A/B (2026-12-06)").
//
// The default mode instead rewrites the module once at load time: every loop header decrements
// a counter global, and when it reaches zero calls the imported host function webcoding.poll
// and resets it to pollInterval. poll is Go code: it ends the call when its context is done
// (the same outcome as wazero's check: the call fails, the instance is closed) and is a point
// where the Go scheduler and garbage collector can stop the goroutine. A loop that calls
// nothing still reaches poll every pollInterval iterations, so neither a runaway guest nor a
// stop-the-world of the host process waits on it for long. The runtime then compiles without
// wazero's checks.

// pollInterval is how many loop headers the instrumented module runs between two calls of
// webcoding.poll (a tight guest loop of a few instructions reaches poll within microseconds).
const pollInterval = 1024

// pollImport names the host function the instrumented module calls.
const pollImport = "poll"

// hostPoll is webcoding.poll(): it panics with a deadline or cancellation exit when the
// running call's context is done; wazero turns the panic into the call's error.
func hostPoll(ctx context.Context, _ api.Module, _ []uint64) {
	switch ctx.Err() {
	case nil:
	case context.DeadlineExceeded:
		panic(sys.NewExitError(sys.ExitCodeDeadlineExceeded))
	default:
		panic(sys.NewExitError(sys.ExitCodeContextCanceled))
	}
}

// errCannotInstrument is wrapped by instrumentLoops when the module cannot be rewritten; the
// caller then falls back to wazero's termination checks.
var errCannotInstrument = errors.New("wasmhost: cannot instrument the module's loops")

// instrumentLoops returns a copy of the wasm binary bin in which every loop header runs
//
//	if counter == 0 { call webcoding.poll; counter = interval }; counter--
//
// on a new mutable i32 global counter (appended, so no other global index moves). Function
// indices do not change: the module must already import webcoding.poll (the reactor does, see
// wasm/adapters/hostcall.Poll). DWARF custom sections (.debug_*) are dropped, since their code
// offsets no longer hold. Errors wrap errCannotInstrument: a malformed binary, no poll import,
// no global section, or an instruction outside the set the Go compiler emits (MVP, sign
// extension, saturating conversion, bulk memory, reference types).
func instrumentLoops(bin []byte, interval int32) ([]byte, error) {
	fail := func(format string, args ...any) ([]byte, error) {
		return nil, fmt.Errorf("%w: %s", errCannotInstrument, fmt.Sprintf(format, args...))
	}
	if len(bin) < 8 || !bytes.Equal(bin[:8], []byte("\x00asm\x01\x00\x00\x00")) {
		return fail("not a wasm 1.0 binary")
	}
	type section struct {
		id   byte
		body []byte
	}
	var sections []section
	for r := (reader{b: bin, i: 8}); r.i < len(r.b); {
		id := r.byte()
		n := r.u32()
		body := r.bytes(int(n))
		if r.err != nil {
			return fail("section framing: %v", r.err)
		}
		sections = append(sections, section{id, body})
	}

	// Imports: the poll function's index and how many globals are imported.
	pollFunc, importedGlobals := -1, 0
	for _, s := range sections {
		if s.id != 2 {
			continue
		}
		r := reader{b: s.body}
		funcs := 0
		for n := r.u32(); n > 0 && r.err == nil; n-- {
			mod, name := r.name(), r.name()
			switch kind := r.byte(); kind {
			case 0: // func
				r.u32()
				if mod == HostModuleName && name == pollImport {
					pollFunc = funcs
				}
				funcs++
			case 1: // table: reftype, limits
				r.byte()
				r.limits()
			case 2: // memory
				r.limits()
			case 3: // global: valtype, mut
				r.byte()
				r.byte()
				importedGlobals++
			case 4: // tag
				r.byte()
				r.u32()
			default:
				return fail("import kind %d", kind)
			}
		}
		if r.err != nil {
			return fail("import section: %v", r.err)
		}
	}
	if pollFunc < 0 {
		return fail("the module does not import %s.%s", HostModuleName, pollImport)
	}

	out := append(make([]byte, 0, len(bin)+len(bin)/8), bin[:8]...) // probes add ~1 %
	counter := -1
	for _, s := range sections {
		body := s.body
		switch s.id {
		case 0:
			r := reader{b: body}
			if name := r.name(); r.err == nil && len(name) >= 7 && name[:7] == ".debug_" {
				continue
			}
		case 6: // globals: append the counter
			r := reader{b: body}
			n := r.u32()
			rest := body[r.i:]
			if r.err != nil {
				return fail("global section: %v", r.err)
			}
			counter = importedGlobals + int(n)
			body = binary.AppendUvarint(nil, uint64(n)+1)
			body = append(body, rest...)
			body = append(body, 0x7f, 0x01, 0x41) // i32, mutable, i32.const
			body = appendSleb(body, int64(interval))
			body = append(body, 0x0b)
		case 10: // code
			if counter < 0 {
				return fail("no global section before the code section")
			}
			var err error
			if body, err = instrumentCode(body, uint32(counter), uint32(pollFunc), interval); err != nil {
				return nil, err
			}
		}
		out = append(out, s.id)
		out = binary.AppendUvarint(out, uint64(len(body)))
		out = append(out, body...)
	}
	if counter < 0 {
		return fail("the module has no global section")
	}
	return out, nil
}

// instrumentCode rewrites a code section's function bodies (see instrumentLoops).
func instrumentCode(sec []byte, counter, pollFunc uint32, interval int32) ([]byte, error) {
	// The sequence inserted after each loop's block type; stack-neutral.
	var probe []byte
	probe = append(probe, 0x23) // global.get counter
	probe = binary.AppendUvarint(probe, uint64(counter))
	probe = append(probe, 0x45, 0x04, 0x40, 0x10) // i32.eqz; if (empty); call poll
	probe = binary.AppendUvarint(probe, uint64(pollFunc))
	probe = append(probe, 0x41) // i32.const interval
	probe = appendSleb(probe, int64(interval))
	probe = append(probe, 0x24) // global.set counter
	probe = binary.AppendUvarint(probe, uint64(counter))
	probe = append(probe, 0x0b, 0x23) // end; global.get counter
	probe = binary.AppendUvarint(probe, uint64(counter))
	probe = append(probe, 0x41, 0x01, 0x6b, 0x24) // i32.const 1; i32.sub; global.set counter
	probe = binary.AppendUvarint(probe, uint64(counter))

	r := reader{b: sec}
	n := r.u32()
	out := binary.AppendUvarint(make([]byte, 0, len(sec)+len(sec)/8), uint64(n))
	var fn []byte
	for i := uint32(0); i < n; i++ {
		size := r.u32()
		body := r.bytes(int(size))
		if r.err != nil {
			return nil, fmt.Errorf("%w: code section: %v", errCannotInstrument, r.err)
		}
		var err error
		if fn, err = instrumentBody(fn[:0], body, probe); err != nil {
			return nil, fmt.Errorf("%w: function %d: %v", errCannotInstrument, i, err)
		}
		out = binary.AppendUvarint(out, uint64(len(fn)))
		out = append(out, fn...)
	}
	if r.i != len(sec) {
		return nil, fmt.Errorf("%w: %d trailing bytes in the code section", errCannotInstrument, len(sec)-r.i)
	}
	return out, nil
}

// instrumentBody appends body to dst with probe after every loop's block type.
func instrumentBody(dst, body, probe []byte) ([]byte, error) {
	r := reader{b: body}
	for n := r.u32(); n > 0 && r.err == nil; n-- { // locals: count, valtype
		r.u32()
		r.byte()
	}
	for r.i < len(r.b) && r.err == nil {
		op := r.byte()
		switch {
		case op == 0x02 || op == 0x03 || op == 0x04: // block, loop, if
			r.blockType()
			if op == 0x03 {
				dst = append(dst, body[:r.i]...)
				dst = append(dst, probe...)
				body, r = body[r.i:], reader{b: body[r.i:]}
			}
		case op <= 0x01, op == 0x05, op == 0x0b, op == 0x0f, op == 0x1a, op == 0x1b, op == 0xd1,
			op >= 0x45 && op <= 0xc4: // no immediates
		case op == 0x0c, op == 0x0d, op == 0x10, op == 0x12, op >= 0x20 && op <= 0x26, op == 0xd2:
			r.u32()
		case op == 0x11, op == 0x13: // call_indirect, return_call_indirect
			r.u32()
			r.u32()
		case op == 0x0e: // br_table
			for m := r.u32(); m > 0 && r.err == nil; m-- {
				r.u32()
			}
			r.u32()
		case op == 0x1c: // select t*
			for m := r.u32(); m > 0 && r.err == nil; m-- {
				r.byte()
			}
		case op >= 0x28 && op <= 0x3e: // memarg
			if align := r.u32(); align&0x40 != 0 {
				r.u32() // memory index (multi-memory)
			}
			r.u32()
		case op == 0x3f, op == 0x40: // memory.size, memory.grow
			r.u32()
		case op == 0x41, op == 0x42: // i32.const, i64.const
			r.u32() // any LEB
		case op == 0x43:
			r.bytes(4)
		case op == 0x44:
			r.bytes(8)
		case op == 0xd0: // ref.null t
			r.byte()
		case op == 0xfc:
			switch sub := r.u32(); {
			case sub <= 7:
			case sub == 8, sub == 10, sub == 12, sub == 14:
				r.u32()
				r.u32()
			case sub <= 17:
				r.u32()
			default:
				return nil, fmt.Errorf("unknown instruction 0xfc %d", sub)
			}
		default:
			return nil, fmt.Errorf("unknown instruction 0x%02x at byte %d", op, r.i-1)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return append(dst, body...), nil
}

// reader decodes the wasm binary format; the first error sticks and later reads return zero.
type reader struct {
	b   []byte
	i   int
	err error
}

func (r *reader) byte() byte {
	if r.err != nil || r.i >= len(r.b) {
		r.err = firstErr(r.err, errors.New("unexpected end"))
		return 0
	}
	c := r.b[r.i]
	r.i++
	return c
}

// u32 reads an unsigned LEB128 of at most 10 bytes (also used to skip signed ones).
func (r *reader) u32() uint32 {
	var v uint64
	for shift := 0; shift < 70; shift += 7 {
		c := r.byte()
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return uint32(v)
		}
	}
	r.err = firstErr(r.err, errors.New("LEB128 too long"))
	return 0
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b)-r.i {
		r.err = firstErr(r.err, errors.New("unexpected end"))
		return nil
	}
	b := r.b[r.i : r.i+n]
	r.i += n
	return b
}

func (r *reader) name() string { return string(r.bytes(int(r.u32()))) }

func (r *reader) limits() {
	flags := r.byte()
	r.u32()
	if flags&1 != 0 {
		r.u32()
	}
}

// blockType skips a block type: 0x40, a value type, or a type index (s33).
func (r *reader) blockType() {
	if r.i < len(r.b) {
		switch r.b[r.i] {
		case 0x40, 0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f:
			r.i++
			return
		}
	}
	r.u32()
}

func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// appendSleb appends v as a signed LEB128.
func appendSleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
