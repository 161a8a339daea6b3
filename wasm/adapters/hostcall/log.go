//go:build wasip1

package hostcall

import "unsafe"

// hostLog is webcoding.log(level i32, ptr i32, len i32): the host reads len bytes of UTF-8 text
// at ptr and writes one diagnostic line to its log (never to the protocol stream).
//
//go:wasmimport webcoding log
func hostLog(level int32, ptr unsafe.Pointer, size uint32)

// MaxLogBytes bounds one log message (bytes); longer messages are cut and end with "…".
const MaxLogBytes = 16 << 10

// Log sends one diagnostic message to the host's log. level follows log/slog numbering
// (-4 debug, 0 info, 4 warn, 8 error); other values are passed through. It never fails: a
// message longer than MaxLogBytes is truncated. It matches studio.Ports.Log.
func Log(level int, msg string) {
	if len(msg) > MaxLogBytes {
		msg = msg[:MaxLogBytes-len("…")] + "…"
	}
	var p unsafe.Pointer
	if len(msg) > 0 {
		p = unsafe.Pointer(unsafe.StringData(msg))
	}
	hostLog(int32(level), p, uint32(len(msg)))
}
