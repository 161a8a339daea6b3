package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
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
	if !utf8.Valid(data) {
		return &JSONError{Err: ErrJSONInvalidUTF8}
	}
	if !json.Valid(data) {
		return &JSONError{Err: ErrJSONSyntax}
	}
	s := scanner{data: data}
	return s.value(0, nil)
}

// seg is one step of the JSON Pointer to the value being scanned; the pointer string is built
// only when an error needs it, so a successful scan allocates nothing for paths.
type seg struct {
	parent *seg
	key    []byte // object member name (unescaped), or nil for an array element
	index  int
}

func (p *seg) pointer() string {
	if p == nil {
		return ""
	}
	if p.key == nil {
		return p.parent.pointer() + "/" + itoa(p.index)
	}
	return p.parent.pointer() + "/" + escapePointer(string(p.key))
}

// scanner walks JSON already known to be valid. It allocates only for keys that contain
// escapes and for error reporting.
type scanner struct {
	data []byte
	pos  int
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

func (s *scanner) value(depth int, ptr *seg) error {
	s.skipSpace()
	switch s.data[s.pos] {
	case '{':
		if depth >= MaxJSONDepth {
			return &JSONError{Err: ErrJSONTooDeep, Pointer: ptr.pointer()}
		}
		return s.object(depth+1, ptr)
	case '[':
		if depth >= MaxJSONDepth {
			return &JSONError{Err: ErrJSONTooDeep, Pointer: ptr.pointer()}
		}
		s.pos++
		s.skipSpace()
		if s.data[s.pos] == ']' {
			s.pos++
			return nil
		}
		for i := 0; ; i++ {
			if err := s.value(depth+1, &seg{parent: ptr, index: i}); err != nil {
				return err
			}
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

func (s *scanner) object(depth int, ptr *seg) error {
	s.pos++
	s.skipSpace()
	if s.data[s.pos] == '}' {
		s.pos++
		return nil
	}
	var seen [16][]byte
	keys := seen[:0]
	for {
		s.skipSpace()
		raw, escaped := s.str()
		key := raw
		if escaped {
			var k string
			_ = json.Unmarshal(s.data[s.pos-len(raw)-2:s.pos], &k)
			key = []byte(k)
		}
		for _, k := range keys {
			if bytes.Equal(k, key) {
				return &JSONError{Err: ErrJSONDuplicateKey, Pointer: ptr.pointer(), Key: string(key)}
			}
		}
		keys = append(keys, key)
		s.skipSpace()
		s.pos++ // colon
		if err := s.value(depth, &seg{parent: ptr, key: key}); err != nil {
			return err
		}
		s.skipSpace()
		c := s.data[s.pos]
		s.pos++
		if c == '}' {
			return nil
		}
	}
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

// eachMember calls fn with the decoded key and the raw value of every member of the JSON
// object obj, in document order, until fn returns false. obj must have passed CheckJSON and
// be an object.
func eachMember(obj []byte, fn func(key, value []byte) bool) {
	s := scanner{data: obj}
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
			key = []byte(decodeString(s.data[kStart:s.pos]))
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

// decodeString decodes a raw JSON string (quotes included) that passed CheckJSON.
func decodeString(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1])
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}
