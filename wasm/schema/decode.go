package schema

import (
	"encoding/json"
	"errors"
	"unicode/utf8"
	"unsafe"

	"github.com/webcoding/studio/wasm/jsonstring"
)

// alias returns b as a string without copying (see Decode).
func alias(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// errNotJSON is returned by Decode for input that is not exactly one well-formed JSON value.
var errNotJSON = errors.New("schema: instance is not one well-formed JSON value")

// Decode parses a JSON instance for validation: objects become map[string]any, arrays []any,
// numbers json.Number (so integers beyond 2^53 are judged exactly), strings, booleans and nil.
// It is a small direct decoder — no reflection — because every tools/call decodes its
// arguments and its result once for validation. Invalid UTF-8 and malformed JSON are errors.
//
// Strings without escapes (keys and values) share data's memory instead of being copied: the
// caller must not modify data while the returned value is in use. Validate and the registry
// only use the value for the duration of one validation.
func Decode(data []byte) (any, error) {
	if !utf8.Valid(data) || !json.Valid(data) {
		return nil, errNotJSON
	}
	return DecodeValid(data), nil
}

// DecodeValid is Decode for bytes the caller has already checked (valid UTF-8, exactly one
// well-formed JSON value: e.g. after mcp.CheckJSON, or the output of encoding/json). On other
// input its result is unspecified, but it never reads outside data.
func DecodeValid(data []byte) (v any) {
	defer func() {
		if recover() != nil {
			v = nil
		}
	}()
	d := decoder{data: data}
	return d.value()
}

// decoder walks JSON already known to be valid.
type decoder struct {
	data []byte
	pos  int
}

func (d *decoder) space() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) value() any {
	d.space()
	switch c := d.data[d.pos]; c {
	case '{':
		d.pos++
		m := make(map[string]any, 4)
		d.space()
		if d.data[d.pos] == '}' {
			d.pos++
			return m
		}
		for {
			d.space()
			k := d.str()
			d.space()
			d.pos++ // ':'
			m[k] = d.value()
			d.space()
			c := d.data[d.pos]
			d.pos++
			if c == '}' {
				return m
			}
		}
	case '[':
		d.pos++
		a := make([]any, 0, 4)
		d.space()
		if d.data[d.pos] == ']' {
			d.pos++
			return a
		}
		for {
			a = append(a, d.value())
			d.space()
			c := d.data[d.pos]
			d.pos++
			if c == ']' {
				return a
			}
		}
	case '"':
		return d.str()
	case 't':
		d.pos += 4
		return true
	case 'f':
		d.pos += 5
		return false
	case 'n':
		d.pos += 4
		return nil
	default:
		start := d.pos
		for d.pos < len(d.data) {
			switch d.data[d.pos] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return json.Number(alias(d.data[start:d.pos]))
			}
			d.pos++
		}
		return json.Number(alias(d.data[start:d.pos]))
	}
}

// str consumes a string at d.pos and returns its decoded value.
func (d *decoder) str() string {
	start := d.pos
	d.pos++
	escaped := false
	for {
		switch d.data[d.pos] {
		case '\\':
			escaped = true
			d.pos += 2
			continue
		case '"':
			d.pos++
			if !escaped {
				return alias(d.data[start+1 : d.pos-1])
			}
			return jsonstring.Decode(d.data[start:d.pos])
		}
		d.pos++
	}
}
