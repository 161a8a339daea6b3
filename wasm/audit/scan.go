package audit

import (
	"bytes"
	"strconv"

	"github.com/webcoding/studio/wasm/jsonstring"
)

// This file holds a small scanner over JSON that is already known to be valid (json.Valid
// and utf8.Valid), built on jsonstring's walk: it lets Fingerprint, ArgumentNames and
// SafeArgumentPreview work on the raw bytes without decoding the whole value into interface
// values.

// eachMember calls fn for every member of the top-level object in data (valid JSON) with
// the raw key (quotes included) and the raw value. It does nothing when data is not an object.
func eachMember(data []byte, fn func(rawKey, value []byte)) {
	pos := jsonstring.SkipSpace(data, 0)
	if pos >= len(data) || data[pos] != '{' {
		return
	}
	pos = jsonstring.SkipSpace(data, pos+1)
	if data[pos] == '}' {
		return
	}
	for {
		kStart := pos
		kEnd, _ := jsonstring.SkipString(data, pos)
		pos = jsonstring.SkipSpace(data, kEnd)
		pos = jsonstring.SkipSpace(data, pos+1) // colon
		vEnd := jsonstring.SkipValue(data, pos)
		fn(data[kStart:kEnd], data[pos:vEnd])
		pos = jsonstring.SkipSpace(data, vEnd)
		if data[pos] == '}' {
			return
		}
		pos = jsonstring.SkipSpace(data, pos+1) // comma
	}
}

// stableWriter writes the stable serialization of valid JSON (see Fingerprint).
type stableWriter struct {
	data []byte
	pos  int
	out  []byte
}

type stableMember struct {
	key        []byte // decoded key (a subslice of the input when it has no escapes)
	start, end int    // the member "key":value in out, without separators
}

func (w *stableWriter) value() {
	w.pos = jsonstring.SkipSpace(w.data, w.pos)
	switch c := w.data[w.pos]; c {
	case '{':
		w.object()
	case '[':
		w.out = append(w.out, '[')
		w.pos = jsonstring.SkipSpace(w.data, w.pos+1)
		if w.data[w.pos] == ']' {
			w.pos++
			w.out = append(w.out, ']')
			return
		}
		for {
			w.value()
			w.pos = jsonstring.SkipSpace(w.data, w.pos)
			if w.data[w.pos] == ']' {
				w.pos++
				w.out = append(w.out, ']')
				return
			}
			w.pos++
			w.out = append(w.out, ',')
		}
	case '"':
		w.str()
	case 't', 'f', 'n':
		end := jsonstring.SkipValue(w.data, w.pos)
		w.out = append(w.out, w.data[w.pos:end]...)
		w.pos = end
	default:
		end := jsonstring.SkipValue(w.data, w.pos)
		w.out = appendNumber(w.out, w.data[w.pos:end])
		w.pos = end
	}
}

// str copies a string; without escapes the raw form is already canonical (valid JSON has no
// raw control characters, quotes or backslashes inside strings).
func (w *stableWriter) str() []byte {
	end, escaped := jsonstring.SkipString(w.data, w.pos)
	raw := w.data[w.pos:end]
	w.pos = end
	if !escaped {
		w.out = append(w.out, raw...)
		return raw[1 : len(raw)-1]
	}
	s := jsonstring.Decode(raw)
	w.out = appendString(w.out, s)
	return []byte(s)
}

func (w *stableWriter) object() {
	open := len(w.out)
	w.out = append(w.out, '{')
	w.pos = jsonstring.SkipSpace(w.data, w.pos+1)
	if w.data[w.pos] == '}' {
		w.pos++
		w.out = append(w.out, '}')
		return
	}
	var buf [8]stableMember
	members := buf[:0]
	sorted := true
	for {
		w.pos = jsonstring.SkipSpace(w.data, w.pos) // whitespace after a comma
		start := len(w.out)
		key := w.str()
		w.out = append(w.out, ':')
		w.pos = jsonstring.SkipSpace(w.data, w.pos)
		w.pos++ // colon
		w.value()
		if n := len(members); n > 0 && bytes.Compare(members[n-1].key, key) >= 0 {
			sorted = false
		}
		members = append(members, stableMember{key: key, start: start, end: len(w.out)})
		w.pos = jsonstring.SkipSpace(w.data, w.pos)
		if w.data[w.pos] == '}' {
			w.pos++
			break
		}
		w.pos++
		w.out = append(w.out, ',')
	}
	if sorted {
		w.out = append(w.out, '}')
		return
	}
	// Reorder: sort by key (stable, so that the last of repeated keys can win, as in
	// encoding/json) and rebuild the object from a copy of its members.
	region := append([]byte(nil), w.out[open:]...)
	sortMembers(members)
	w.out = append(w.out[:open], '{')
	first := true
	for i, m := range members {
		if i+1 < len(members) && bytes.Equal(m.key, members[i+1].key) {
			continue // a later member repeats this key
		}
		if !first {
			w.out = append(w.out, ',')
		}
		first = false
		w.out = append(w.out, region[m.start-open:m.end-open]...)
	}
	w.out = append(w.out, '}')
}

// sortMembers is a stable insertion sort for small member lists, falling back to a merge
// sort for large ones.
func sortMembers(m []stableMember) {
	if len(m) <= 32 {
		for i := 1; i < len(m); i++ {
			for j := i; j > 0 && bytes.Compare(m[j-1].key, m[j].key) > 0; j-- {
				m[j-1], m[j] = m[j], m[j-1]
			}
		}
		return
	}
	mid := len(m) / 2
	sortMembers(m[:mid])
	sortMembers(m[mid:])
	merged := make([]stableMember, 0, len(m))
	i, j := 0, mid
	for i < mid && j < len(m) {
		if bytes.Compare(m[j].key, m[i].key) < 0 {
			merged = append(merged, m[j])
			j++
		} else {
			merged = append(merged, m[i])
			i++
		}
	}
	merged = append(merged, m[i:mid]...)
	merged = append(merged, m[j:]...)
	copy(m, merged)
}

// appendNumber writes a JSON number literal in canonical form. Integers of up to 15 digits
// (exact in a double, printed plainly by Number::toString) are copied; others are parsed.
func appendNumber(b, lit []byte) []byte {
	digits := lit
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) > 0 && len(digits) <= 15 && digits[0] != '0' && allDigits(digits) {
		return append(b, lit...)
	}
	if len(lit) == 1 && lit[0] == '0' {
		return append(b, '0')
	}
	f, _ := strconv.ParseFloat(string(lit), 64) // ±Inf beyond range
	return append(b, FormatNumber(f)...)
}

func allDigits(s []byte) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
