package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/jsonstring"
)

// MaxJSONDepth is the deepest nesting of arrays and objects accepted in untrusted JSON
// (requests, arguments, records read back from a store). Deeper input is refused with
// ErrJSONTooDeep instead of being walked: 10,000-deep nesting is a hostile input, not a file.
const MaxJSONDepth = 64

// Errors returned by CheckJSON. Each is wrapped in a *JSONError that names where it was found.
var (
	ErrJSONInvalidUTF8  = errors.New("mcp: JSON is not valid UTF-8")
	ErrJSONSyntax       = errors.New("mcp: malformed JSON")
	ErrJSONTooDeep      = fmt.Errorf("mcp: JSON nests deeper than %d levels", MaxJSONDepth)
	ErrJSONDuplicateKey = errors.New("mcp: JSON object repeats a key")
)

// JSONError is a CheckJSON failure: Err is one of the ErrJSON* sentinels; Pointer is the JSON
// Pointer (RFC 6901) of the object that repeats Key, or of the value nested too deep.
type JSONError struct {
	Err     error
	Pointer string
	Key     string
}

func (e *JSONError) Error() string {
	switch {
	case e.Key != "":
		return fmt.Sprintf("%v: %q at %q", e.Err, e.Key, e.Pointer)
	case e.Pointer != "":
		return fmt.Sprintf("%v at %q", e.Err, e.Pointer)
	}
	return e.Err.Error()
}

func (e *JSONError) Unwrap() error { return e.Err }

// CheckJSON reports whether data is one JSON value that the studio may decode: valid UTF-8,
// well-formed (RFC 8259), at most MaxJSONDepth levels deep, and with no object that repeats a
// key (RFC 8259 §4 leaves duplicates undefined; we refuse them so that no two parsers can read
// the same request differently).
//
// Keys are compared exactly, after unescaping: "name" and "Name" are different keys, and
// "n\u0061me" repeats "name". Case-insensitive matching is the decoder's job to avoid; see
// DecodeObject.
func CheckJSON(data []byte) error {
	if !validJSON(data) { // utf8.Valid && json.Valid in one pass
		if !utf8.Valid(data) {
			return &JSONError{Err: ErrJSONInvalidUTF8}
		}
		return &JSONError{Err: ErrJSONSyntax}
	}
	s := &scanner{data: data}
	s.keys, s.path = s.keyBuf[:0], s.pathBuf[:0]
	return s.value(0)
}

// seg is one step of the JSON Pointer to the value being scanned; the pointer string is built
// only when an error needs it.
type seg struct {
	key   []byte // object member name (unescaped), or nil for an array element
	index int
}

func (s *scanner) pointer() string {
	var b strings.Builder
	for _, p := range s.path {
		b.WriteByte('/')
		if p.key == nil {
			b.WriteString(itoa(p.index))
		} else {
			b.WriteString(escapePointer(string(p.key)))
		}
	}
	return b.String()
}

// scanner walks JSON already known to be valid. It allocates only for keys that contain
// escapes and for error reporting.
type scanner struct {
	data    []byte
	pos     int
	path    []seg // JSON Pointer steps to the value being scanned (only for error messages)
	keys    []keySpan
	decoded [][]byte // member names that had escapes, decoded
	keyBuf  [24]keySpan
	pathBuf [8]seg
}

// keySpan is one member name of an object being scanned: data[start:end], or decoded[dec-1]
// when the name had escapes.
type keySpan struct {
	start, end, dec int32
}

func (s *scanner) skipSpace() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

func (s *scanner) value(depth int) error {
	s.skipSpace()
	switch s.data[s.pos] {
	case '{':
		if depth >= MaxJSONDepth {
			return &JSONError{Err: ErrJSONTooDeep, Pointer: s.pointer()}
		}
		return s.object(depth + 1)
	case '[':
		if depth >= MaxJSONDepth {
			return &JSONError{Err: ErrJSONTooDeep, Pointer: s.pointer()}
		}
		s.pos++
		s.skipSpace()
		if s.data[s.pos] == ']' {
			s.pos++
			return nil
		}
		for i := 0; ; i++ {
			s.path = append(s.path, seg{index: i})
			if err := s.value(depth + 1); err != nil {
				return err
			}
			s.path = s.path[:len(s.path)-1]
			s.skipSpace()
			c := s.data[s.pos]
			s.pos++
			if c == ']' {
				return nil
			}
		}
	case '"':
		s.str()
		return nil
	default:
		for s.pos < len(s.data) {
			switch s.data[s.pos] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return nil
			}
			s.pos++
		}
		return nil
	}
}

// str consumes a string and returns its raw body (without quotes) and whether it has escapes.
func (s *scanner) str() ([]byte, bool) {
	s.pos++ // opening quote
	start := s.pos
	escaped := false
	for {
		c := s.data[s.pos]
		if c == '\\' {
			escaped = true
			s.pos += 2
			continue
		}
		if c == '"' {
			body := s.data[start:s.pos]
			s.pos++
			return body, escaped
		}
		s.pos++
	}
}

func (s *scanner) object(depth int) error {
	s.pos++
	s.skipSpace()
	if s.data[s.pos] == '}' {
		s.pos++
		return nil
	}
	base := len(s.keys)
	defer func() { s.keys = s.keys[:base] }()
	for {
		s.skipSpace()
		kStart := s.pos
		raw, escaped := s.str()
		k := keySpan{start: int32(kStart + 1), end: int32(s.pos - 1)}
		key := raw
		if escaped {
			var u string
			_ = json.Unmarshal(s.data[kStart:s.pos], &u)
			s.decoded = append(s.decoded, []byte(u))
			k.dec = int32(len(s.decoded))
			key = s.decoded[k.dec-1]
		}
		for _, other := range s.keys[base:] {
			if bytes.Equal(s.keyBytes(other), key) {
				return &JSONError{Err: ErrJSONDuplicateKey, Pointer: s.pointer(), Key: string(key)}
			}
		}
		s.keys = append(s.keys, k)
		s.skipSpace()
		s.pos++ // colon
		s.path = append(s.path, seg{key: key})
		if err := s.value(depth); err != nil {
			return err
		}
		s.path = s.path[:len(s.path)-1]
		s.skipSpace()
		c := s.data[s.pos]
		s.pos++
		if c == '}' {
			return nil
		}
	}
}

func (s *scanner) keyBytes(k keySpan) []byte {
	if k.dec > 0 {
		return s.decoded[k.dec-1]
	}
	return s.data[k.start:k.end]
}

func escapePointer(key string) string {
	if !bytes.ContainsAny([]byte(key), "~/") {
		return key
	}
	var b bytes.Buffer
	for _, r := range key {
		switch r {
		case '~':
			b.WriteString("~0")
		case '/':
			b.WriteString("~1")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func itoa(i int) string { return fmt.Sprint(i) }

// DecodeObject splits a JSON object into its members after CheckJSON. It refuses any key
// that is not in allowed, so a request carrying "Name" beside "name" (which encoding/json
// would match case-insensitively) is refused rather than resolved. Keys in ignored are
// accepted and dropped. The returned map holds raw member values.
func DecodeObject(data []byte, allowed, ignored []string) (map[string]json.RawMessage, error) {
	if err := CheckJSON(data); err != nil {
		return nil, err
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, fmt.Errorf("mcp: expected a JSON object, got %s", jsonKind(trimmed))
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &members); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrJSONSyntax, err)
	}
	for k := range members {
		if contains(allowed, k) {
			continue
		}
		if contains(ignored, k) {
			delete(members, k)
			continue
		}
		return nil, &UnknownFieldError{Field: k, Allowed: allowed}
	}
	return members, nil
}

// UnknownFieldError names a member that the receiving shape does not declare.
type UnknownFieldError struct {
	Field   string
	Allowed []string
}

func (e *UnknownFieldError) Error() string {
	return fmt.Sprintf("mcp: unknown field %q (allowed: %v)", e.Field, e.Allowed)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// jsonKind names the JSON type of a raw value for error messages.
func jsonKind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// EachMember calls fn with the decoded key and the raw value of every member of the JSON
// object obj, in document order, until fn returns false. obj must have passed CheckJSON and
// be an object (use JSONKind to check); keys are compared by the caller, exactly.
func EachMember(obj []byte, fn func(key, value []byte) bool) { eachMember(obj, fn) }

// JSONKind names the JSON type of a raw value: "object", "array", "string", "number",
// "boolean", "null", or "nothing" for empty input.
func JSONKind(raw []byte) string { return jsonKind(raw) }

func eachMember(obj []byte, fn func(key, value []byte) bool) {
	s := &scanner{data: obj}
	s.skipSpace()
	s.pos++ // '{'
	s.skipSpace()
	if s.data[s.pos] == '}' {
		return
	}
	for {
		s.skipSpace()
		kStart := s.pos
		raw, escaped := s.str()
		key := raw
		if escaped {
			key = []byte(jsonstring.Decode(s.data[kStart:s.pos]))
		}
		s.skipSpace()
		s.pos++ // ':'
		s.skipSpace()
		vStart := s.pos
		s.skipValue()
		if !fn(key, s.data[vStart:s.pos]) {
			return
		}
		s.skipSpace()
		c := s.data[s.pos]
		s.pos++
		if c == '}' {
			return
		}
	}
}

// skipValue moves past the value at s.pos (valid JSON, no leading space).
func (s *scanner) skipValue() {
	switch s.data[s.pos] {
	case '"':
		s.str()
	case '{', '[':
		depth := 0
		for {
			switch s.data[s.pos] {
			case '"':
				s.str()
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.pos++
					return
				}
			}
			s.pos++
		}
	default:
		for s.pos < len(s.data) {
			switch s.data[s.pos] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return
			}
			s.pos++
		}
	}
}
