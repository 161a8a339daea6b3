package openrouter

import "bytes"

// sseParser splits a server-sent event stream into events by the WHATWG rules ("Parsing an
// event stream", HTML Living Standard §9.2.6): one leading U+FEFF byte-order mark is dropped;
// lines end at CRLF, LF or CR (a CR at the end of one Feed and an LF at the start of the next
// are one line end); a line starting with ":" is a comment (OpenRouter's
// ": OPENROUTER PROCESSING" keep-alives) and is skipped; "field: value" loses one space after
// the colon; "data" values are joined with "\n"; "event", "id" and "retry" and unknown fields
// are read and ignored; a blank line dispatches the event when it carried data. Bytes after
// the last blank line are never dispatched (the standard drops an event cut by the end of the
// stream).
//
// Bounds: a line, and an event's joined data, may hold at most MaxStreamLineBytes bytes
// (checked through checkBound); the caller bounds the stream's total.
type sseParser struct {
	line    []byte // the current line, without its end
	data    []byte // the current event's data lines, joined by "\n"
	hasData bool   // a data field was seen since the last dispatch
	started bool   // the BOM check is done
	head    []byte // the first bytes, held while they may be a split BOM
	lastCR  bool   // the previous Feed ended with a CR
}

// Feed parses p and calls emit with the data of each complete event, in order; emit's error
// (or a bound's) stops the parse and is returned. The data slice is reused after emit
// returns: emit must not keep it.
func (s *sseParser) Feed(p []byte, emit func(data []byte) error) error {
	if !s.started {
		// The BOM may arrive split across Feeds: hold the first bytes until they cannot be
		// its start any more.
		s.head = append(s.head, p...)
		if len(s.head) < len(bom) && bytes.HasPrefix(bom, s.head) {
			return nil
		}
		s.started = true
		p, s.head = bytes.TrimPrefix(s.head, bom), nil
	}
	if s.lastCR && len(p) > 0 && p[0] == '\n' {
		p = p[1:]
	}
	s.lastCR = false
	for len(p) > 0 {
		i := bytes.IndexAny(p, "\r\n")
		if i < 0 {
			if err := checkBound(boundLine, len(s.line)+len(p)); err != nil {
				return err
			}
			s.line = append(s.line, p...)
			return nil
		}
		if err := checkBound(boundLine, len(s.line)+i); err != nil {
			return err
		}
		s.line = append(s.line, p[:i]...)
		end := p[i]
		p = p[i+1:]
		if end == '\r' {
			if len(p) == 0 {
				s.lastCR = true
			} else if p[0] == '\n' {
				p = p[1:]
			}
		}
		if err := s.lineDone(emit); err != nil {
			return err
		}
	}
	return nil
}

// lineDone processes the complete line in s.line.
func (s *sseParser) lineDone(emit func(data []byte) error) error {
	line := s.line
	s.line = s.line[:0]
	if len(line) == 0 {
		if !s.hasData {
			return nil
		}
		data := s.data
		s.data, s.hasData = s.data[:0], false
		return emit(data)
	}
	if line[0] == ':' {
		return nil
	}
	field, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		field, value = line[:i], line[i+1:]
		value = bytes.TrimPrefix(value, []byte(" "))
	}
	if string(field) != "data" {
		return nil // event, id, retry and unknown fields do not change what the loop reads
	}
	n := len(s.data) + len(value)
	if s.hasData {
		n++
	}
	if err := checkBound(boundLine, n); err != nil {
		return err
	}
	if s.hasData {
		s.data = append(s.data, '\n')
	}
	s.data = append(s.data, value...)
	s.hasData = true
	return nil
}

// bom is the UTF-8 byte-order mark an event stream may start with.
var bom = []byte("\uFEFF")
