package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"github.com/webcoding/studio/wasm/jsonstring"
	"hash/fnv"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Fingerprint identifies a call for idempotency (REFERENCE §6.6): the stable serialization
// of "<tool>:<args>" hashed with 64-bit FNV-1a, written "fnv1a64:<16 lower-case hex>:<n>",
// where n is the length of the serialization in UTF-8 bytes.
//
// The stable serialization of args sorts object keys at every depth, writes strings as JSON
// without HTML escaping, and writes numbers in their canonical (ECMAScript Number::toString)
// form, so 1, 1.0, 1e0 and 10e-1 are the same number; a literal beyond float64 range is
// written Infinity or -Infinity, which no JSON text can produce. Omitted, empty or null args
// serialize as {}, so a call without arguments and a call with {} share a fingerprint.
// Arguments that are not valid JSON (the registry refuses them before this point) are hashed
// as "<tool>:!invalid:<raw bytes>", which no valid serialization can equal.
//
// Numbers are compared as IEEE-754 doubles, as in the original: integers beyond 2^53 that
// round to the same double share a fingerprint.
func Fingerprint(toolName string, args json.RawMessage) string {
	b := make([]byte, 0, len(toolName)+1+len(args))
	b = append(b, toolName...)
	b = append(b, ':')
	if stable, err := appendStableJSON(b, args); err == nil {
		b = stable
	} else {
		b = append(b, "!invalid:"...)
		b = append(b, args...)
	}
	h := fnv.New64a()
	h.Write(b)
	sum := strconv.FormatUint(h.Sum64(), 16)
	return "fnv1a64:" + strings.Repeat("0", 16-len(sum)) + sum + ":" + strconv.Itoa(len(b))
}

// errInvalidJSON is returned by StableJSON for bytes that are not one JSON value.
var errInvalidJSON = errors.New("audit: arguments are not valid JSON")

// StableJSON returns the stable serialization used by Fingerprint. Empty input and null
// serialize as {}. It fails only when raw is not exactly one valid JSON value in UTF-8.
func StableJSON(raw json.RawMessage) ([]byte, error) {
	return appendStableJSON(make([]byte, 0, len(raw)), raw)
}

func appendStableJSON(b []byte, raw []byte) ([]byte, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return append(b, "{}"...), nil
	}
	if !utf8.Valid(trimmed) || !json.Valid(trimmed) {
		return nil, errInvalidJSON
	}
	w := stableWriter{data: trimmed, out: b}
	w.value()
	return w.out, nil
}

// appendString writes s as a JSON string the way JavaScript's JSON.stringify does: only '"',
// '\\' and control characters are escaped (jsonstring.Plain; TestFingerprintKnownValues pins
// the bytes fingerprints hash).
func appendString(b []byte, s string) []byte { return jsonstring.Append(b, s, jsonstring.Plain) }

// FormatNumber writes f as ECMAScript's Number::toString does (the form JSON.stringify
// uses): shortest round-trip digits, plain notation for 1e-7 < |f| < 1e21, otherwise
// exponent notation such as 1e+21 or 1.5e-7. -0 is "0"; NaN and ±Inf are "NaN", "Infinity"
// and "-Infinity" (not JSON; JSON.stringify would write null).
func FormatNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	case f < 0:
		return "-" + FormatNumber(-f)
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d[.ddd]e±XX
	mant, expPart, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expPart)
	k := len(digits)
	n := exp + 1 // position of the decimal point relative to the digits
	switch {
	case k <= n && n <= 21:
		return digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return "0." + strings.Repeat("0", -n) + digits
	}
	sign := "+"
	if n-1 < 0 {
		sign = "-"
	}
	abs := n - 1
	if abs < 0 {
		abs = -abs
	}
	if k == 1 {
		return digits + "e" + sign + strconv.Itoa(abs)
	}
	return digits[:1] + "." + digits[1:] + "e" + sign + strconv.Itoa(abs)
}
