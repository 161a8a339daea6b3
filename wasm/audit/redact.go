package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"reflect"
	"sort"
	"strconv"
	"unicode/utf8"
)

// Redact applies the default policy to v; see Policy.Redact.
func Redact(v any) any { return DefaultPolicy().Redact(v) }

// RedactJSON applies the default policy to v; see Policy.RedactJSON.
func RedactJSON(v any) json.RawMessage { return DefaultPolicy().RedactJSON(v) }

// Redact returns a bounded copy of v that is safe to keep in a trace, an export or a durable
// diagnostic (REFERENCE §8, "Redaction"). v is a decoded JSON value (map[string]any, []any,
// string, float64, json.Number, bool, nil), raw JSON (json.RawMessage), or any other Go value,
// which is first serialized with encoding/json. v is never modified.
//
// Rules, applied while copying:
//   - the value of a redacted key (IsRedactedKey) becomes "[<key> redacted]", whatever its type;
//   - a string longer than MaxStringLength code points keeps that many, then "… [truncated]";
//   - an array keeps MaxArrayEntries elements, then one "[additional entries redacted]";
//   - an object's keys are sorted; the first MaxObjectEntries are kept and
//     "_redacted": "additional fields redacted" is added when some were dropped;
//   - an array or object at depth MaxDepth (the root is depth 0) becomes "[depth redacted]";
//   - a non-finite float becomes "[non-finite number NaN|Infinity|-Infinity]", an invalid
//     json.Number "[invalid number redacted]", malformed raw JSON "[invalid JSON redacted]",
//     and a Go value that encoding/json refuses "[<kind> redacted]" (e.g. "[func redacted]").
//
// The result serializes (encoding/json) to at most MaxBytes bytes. When the copy is still
// larger, it is replaced by the marker object
// {"_redacted": "value exceeded <MaxBytes> bytes", "bytes": <serialized size>}, or by
// {"_redacted": "value too large"} if even that does not fit; never by a bare {} or 0.
//
// The result contains only map[string]any, []any, string, json.Number, float64, bool and nil.
func (p Policy) Redact(v any) any {
	out, _ := p.redact(v)
	return out
}

// RedactJSON is Redact followed by serialization: the returned JSON is at most MaxBytes
// bytes long and decodes to Redact(v).
func (p Policy) RedactJSON(v any) json.RawMessage {
	_, b := p.redact(v)
	return b
}

func (p Policy) redact(v any) (any, json.RawMessage) {
	p = p.normalized()
	r := redactor{p: p}
	out := r.value(v, 0)
	b, err := json.Marshal(out)
	if err == nil && len(b) <= p.MaxBytes {
		return out, b
	}
	size := len(b)
	marker := map[string]any{
		ObjectOverflowKey: "value exceeded " + strconv.Itoa(p.MaxBytes) + " bytes",
		"bytes":           size,
	}
	if err != nil { // unreachable in practice: the copy holds only JSON-safe values
		marker = map[string]any{ObjectOverflowKey: "value could not be serialized"}
	}
	if mb, merr := json.Marshal(marker); merr == nil && len(mb) <= p.MaxBytes {
		return marker, mb
	}
	marker = map[string]any{ObjectOverflowKey: oversizeShortFallback}
	mb, _ := json.Marshal(marker)
	return marker, mb
}

type redactor struct{ p Policy }

func (r *redactor) value(v any, depth int) any {
	switch x := v.(type) {
	case nil:
		return nil
	case bool:
		return x
	case string:
		return truncate(x, r.p.MaxStringLength)
	case float64:
		return finite(x)
	case float32:
		return finite(float64(x))
	case int:
		return json.Number(strconv.FormatInt(int64(x), 10))
	case int8:
		return json.Number(strconv.FormatInt(int64(x), 10))
	case int16:
		return json.Number(strconv.FormatInt(int64(x), 10))
	case int32:
		return json.Number(strconv.FormatInt(int64(x), 10))
	case int64:
		return json.Number(strconv.FormatInt(x, 10))
	case uint:
		return json.Number(strconv.FormatUint(uint64(x), 10))
	case uint8:
		return json.Number(strconv.FormatUint(uint64(x), 10))
	case uint16:
		return json.Number(strconv.FormatUint(uint64(x), 10))
	case uint32:
		return json.Number(strconv.FormatUint(uint64(x), 10))
	case uint64:
		return json.Number(strconv.FormatUint(x, 10))
	case json.Number:
		if !validNumber(string(x)) {
			return InvalidNumberMarker
		}
		return x
	case json.RawMessage:
		d, ok := decodeJSON(x)
		if !ok {
			return InvalidJSONMarker
		}
		return r.value(d, depth)
	case map[string]any:
		if depth >= r.p.MaxDepth {
			return DepthMarker
		}
		return r.object(x, depth)
	case []any:
		if depth >= r.p.MaxDepth {
			return DepthMarker
		}
		return r.array(x, depth)
	}
	// Any other Go value (typed details structs, typed maps and slices, pointers): use its
	// JSON form, so the same rules apply to it as to what a peer would see.
	b, err := json.Marshal(v)
	if err != nil {
		return "[" + reflect.TypeOf(v).Kind().String() + " redacted]"
	}
	d, ok := decodeJSON(b)
	if !ok {
		return InvalidJSONMarker
	}
	return r.value(d, depth)
}

func (r *redactor) object(m map[string]any, depth int) map[string]any {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	n := min(len(keys), r.p.MaxObjectEntries)
	out := make(map[string]any, n+1)
	for _, k := range keys[:n] {
		if r.p.IsRedactedKey(k) {
			out[k] = RedactedKeyMarker(truncate(k, r.p.MaxStringLength))
			continue
		}
		out[k] = r.value(m[k], depth+1)
	}
	if len(keys) > n {
		out[ObjectOverflowKey] = ObjectOverflowMarker
	}
	return out
}

func (r *redactor) array(a []any, depth int) []any {
	n := min(len(a), r.p.MaxArrayEntries)
	out := make([]any, 0, n+1)
	for _, e := range a[:n] {
		out = append(out, r.value(e, depth+1))
	}
	if len(a) > n {
		out = append(out, ArrayOverflowMarker)
	}
	return out
}

// truncate keeps the first max code points of s and appends TruncatedSuffix when s is longer.
func truncate(s string, max int) string {
	if len(s) <= max { // byte length bounds the code point count
		return s
	}
	count := 0
	for i := range s {
		if count == max {
			return s[:i] + TruncatedSuffix
		}
		count++
	}
	return s
}

func finite(f float64) any {
	switch {
	case math.IsNaN(f):
		return NaNMarker
	case math.IsInf(f, 1):
		return PosInfinityMarker
	case math.IsInf(f, -1):
		return NegInfinityMarker
	}
	return f
}

// decodeJSON decodes exactly one JSON value, keeping numbers as json.Number.
func decodeJSON(raw []byte) (any, bool) {
	if !utf8.Valid(raw) {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, false
	}
	return v, true
}

// validNumber reports whether s is a JSON number literal (RFC 8259 §6).
func validNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}
