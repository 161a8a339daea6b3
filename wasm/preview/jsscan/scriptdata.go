package jsscan

import "strings"

// ScriptDataEnd runs the HTML tokenizer's script-data states (HTML Living Standard
// §13.2.5.4–§13.2.5.27, including the "escaped" and "double escaped" states entered after
// "<!--") over s, the text after a <script> start tag, and returns the offset at which the
// element's end tag "</script" begins, or -1 when the element does not end. It is how a
// browser finds the end of a script element. Time is linear in len(s).
func ScriptDataEnd(s string) int {
	const (
		data = iota
		lt
		endOpen
		endName
		escStart
		escStartDash
		esc
		escDash
		escDashDash
		escLT
		escEndOpen
		escEndName
		dblStart
		dbl
		dblDash
		dblDashDash
		dblLT
		dblEnd
	)
	isAlpha := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	isEnd := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '/' || c == '>' }
	state, tagStart := data, 0
	var buf strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch state {
		case data:
			if c == '<' {
				state, tagStart = lt, i
			}
		case lt:
			switch c {
			case '/':
				state = endOpen
				buf.Reset()
			case '!':
				state = escStart
			default:
				state = data
				continue
			}
		case endOpen:
			if isAlpha(c) {
				state = endName
				continue
			}
			state = data
			continue
		case endName:
			if isAlpha(c) {
				buf.WriteByte(c | 0x20)
			} else if isEnd(c) && buf.String() == "script" {
				return tagStart
			} else {
				state = data
				continue
			}
		case escStart:
			if c == '-' {
				state = escStartDash
			} else {
				state = data
				continue
			}
		case escStartDash:
			if c == '-' {
				state = escDashDash
			} else {
				state = data
				continue
			}
		case esc:
			switch c {
			case '-':
				state = escDash
			case '<':
				state, tagStart = escLT, i
			}
		case escDash:
			switch c {
			case '-':
				state = escDashDash
			case '<':
				state, tagStart = escLT, i
			default:
				state = esc
			}
		case escDashDash:
			switch c {
			case '-':
			case '<':
				state, tagStart = escLT, i
			case '>':
				state = data
			default:
				state = esc
			}
		case escLT:
			switch {
			case c == '/':
				state = escEndOpen
				buf.Reset()
			case isAlpha(c):
				buf.Reset()
				state = dblStart
				continue
			default:
				state = esc
				continue
			}
		case escEndOpen:
			if isAlpha(c) {
				state = escEndName
				continue
			}
			state = esc
			continue
		case escEndName:
			if isAlpha(c) {
				buf.WriteByte(c | 0x20)
			} else if isEnd(c) && buf.String() == "script" {
				return tagStart
			} else {
				state = esc
				continue
			}
		case dblStart:
			if isEnd(c) {
				if buf.String() == "script" {
					state = dbl
				} else {
					state = esc
				}
			} else if isAlpha(c) {
				buf.WriteByte(c | 0x20)
			} else {
				state = esc
				continue
			}
		case dbl:
			switch c {
			case '-':
				state = dblDash
			case '<':
				state = dblLT
			}
		case dblDash:
			switch c {
			case '-':
				state = dblDashDash
			case '<':
				state = dblLT
			default:
				state = dbl
			}
		case dblDashDash:
			switch c {
			case '-':
			case '<':
				state = dblLT
			case '>':
				state = data
			default:
				state = dbl
			}
		case dblLT:
			if c == '/' {
				buf.Reset()
				state = dblEnd
			} else {
				state = dbl
				continue
			}
		case dblEnd:
			if isEnd(c) {
				if buf.String() == "script" {
					state = esc
				} else {
					state = dbl
				}
			} else if isAlpha(c) {
				buf.WriteByte(c | 0x20)
			} else {
				state = dbl
				continue
			}
		}
		i++
	}
	return -1
}
