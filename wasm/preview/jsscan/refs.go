package jsscan

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Ref is one module reference found by FindRefs.
//
// Start and End delimit the string literal token, quotes included (byte offsets into the
// scanned source); Quote is its quote character; Value is the decoded specifier.
type Ref struct {
	Start, End int
	Quote      byte
	Value      string
	// Dynamic is true for `import('x')`.
	Dynamic bool
	// Names are the export names the statement takes from the module, in source order:
	// "default" for a default binding (`import x from`), the imported name of each
	// `{a, b as c, "d-e" as f}` element ("a", "b", "d-e"), the same for `export {a as b}
	// from`. Nil for `import 'x'`, `import * as ns from`, `export * from` and import().
	Names []string
}

type refState uint8

const (
	stIdle       refState = iota
	stImport              // after `import`
	stExport              // after `export`
	stClause              // inside an import/export clause, waiting for `from`
	stClauseFrom          // after `from` inside a clause
	stDynOpen             // after `import (`
	stDynString           // after `import ( 'x'`
)

// FindRefs returns the module references of src in source order: the string literal of
// `import … from 'x'`, `export … from 'x'`, `import 'x'` and `import('x')` (a dynamic import
// whose argument is one string literal followed by `)` or `,`). Only tokens that the lexer
// attributes to code take part, so look-alikes inside strings, comments, regular expressions
// and template text are ignored, while `${…}` substitutions count as code. `import` preceded
// by `.` or `?.` (a property) and `import.meta` are not references. Unterminated string
// literals are never references.
//
// Time and memory are linear in len(src).
func FindRefs(src string) []Ref {
	var refs []Ref
	lx := NewLexer(src)
	state := stIdle
	var pending Ref
	var prev Token // previous significant token
	// The clause being read: the names it imports, whether inside `{…}`, whether the next
	// identifier or string there is an imported name, whether the last word was `as`.
	var names []string
	inBraces, expectName, afterAs := false, false, false
	clauseWord := func(text string) {
		switch {
		case inBraces && expectName:
			names = append(names, text)
			expectName = false
		case !inBraces && text != "as" && text != "from" && !afterAs:
			names = append(names, "default")
		}
		afterAs = text == "as"
	}
	ref := func(t Token) {
		r := makeRef(src, t, false)
		r.Names = names
		refs = append(refs, r)
	}
	for {
		t, ok := lx.Next()
		if !ok {
			break
		}
		if t.Kind == Comment {
			continue
		}
		text := src[t.Start:t.End]
	again:
		switch state {
		case stIdle:
			if t.Kind == Ident && (text == "import" || text == "export") && !isMemberDot(src, prev) {
				names, inBraces, expectName, afterAs = nil, false, false, false
				if text == "import" {
					state = stImport
				} else {
					state = stExport
				}
			}
		case stImport:
			switch {
			case isStringLit(src, t):
				refs = append(refs, makeRef(src, t, false))
				state = stIdle
			case t.Kind == Punct && text == "(":
				state = stDynOpen
			case t.Kind == Ident || (t.Kind == Punct && (text == "*" || text == "{")):
				state = stClause
				if text == "from" {
					state = stClauseFrom
				}
				if t.Kind == Ident {
					clauseWord(text)
				} else if text == "{" {
					inBraces, expectName = true, true
				}
			default:
				state = stIdle
				goto again
			}
		case stExport:
			if t.Kind == Punct && (text == "*" || text == "{") {
				state = stClause
				inBraces, expectName = text == "{", text == "{"
			} else {
				state = stIdle
				goto again
			}
		case stClause, stClauseFrom:
			switch {
			case state == stClauseFrom && isStringLit(src, t):
				ref(t)
				state = stIdle
			case t.Kind == Ident:
				if text == "from" {
					state = stClauseFrom
				} else {
					state = stClause
				}
				clauseWord(text)
			case t.Kind == Punct && (text == "*" || text == "{" || text == "}" || text == ","):
				state = stClause
				switch text {
				case "{":
					inBraces, expectName = true, true
				case "}":
					inBraces, expectName = false, false
				case ",":
					expectName = inBraces
				}
			case isStringLit(src, t): // `import {"a-b" as c} from …`
				state = stClause
				if inBraces && expectName {
					names = append(names, Unquote(text[1:len(text)-1]))
					expectName = false
				}
			default:
				state = stIdle
				goto again
			}
		case stDynOpen:
			if isStringLit(src, t) {
				pending = makeRef(src, t, true)
				state = stDynString
			} else {
				state = stIdle
				goto again
			}
		case stDynString:
			if t.Kind == Punct && (text == ")" || text == ",") {
				refs = append(refs, pending)
			}
			state = stIdle
			if !(t.Kind == Punct && (text == ")" || text == ",")) {
				goto again
			}
		}
		prev = t
	}
	return refs
}

func isMemberDot(src string, prev Token) bool {
	if prev.Kind != Punct {
		return false
	}
	p := src[prev.Start:prev.End]
	return p == "." || p == "?."
}

func isStringLit(src string, t Token) bool {
	return t.Kind == String && t.End-t.Start >= 2 && src[t.End-1] == src[t.Start]
}

func makeRef(src string, t Token, dynamic bool) Ref {
	return Ref{Start: t.Start, End: t.End, Quote: src[t.Start], Value: Unquote(src[t.Start+1 : t.End-1]), Dynamic: dynamic}
}

// Unquote decodes the body of a JavaScript string literal (without its quotes): \n \r \t \b
// \f \v \0, \xHH, \uHHHH, \u{H…}, line continuations, and identity escapes. A malformed
// escape keeps the escaped character as written; lone surrogates become U+FFFD.
func Unquote(body string) string {
	if strings.IndexByte(body, '\\') < 0 {
		return body
	}
	var b strings.Builder
	b.Grow(len(body))
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' || i+1 >= len(body) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := body[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0':
			b.WriteByte(0)
		case '\r':
			if i+1 < len(body) && body[i+1] == '\n' {
				i++
			}
		case '\n':
		case 'x':
			if i+2 < len(body) {
				if v, err := strconv.ParseUint(body[i+1:i+3], 16, 8); err == nil {
					b.WriteRune(rune(v))
					i += 2
					continue
				}
			}
			b.WriteByte('x')
		case 'u':
			if i+1 < len(body) && body[i+1] == '{' {
				if j := strings.IndexByte(body[i+2:], '}'); j > 0 && j <= 8 {
					if v, err := strconv.ParseUint(body[i+2:i+2+j], 16, 32); err == nil && v <= utf8.MaxRune {
						b.WriteRune(rune(v))
						i += 2 + j
						continue
					}
				}
			} else if i+4 < len(body) {
				if v, err := strconv.ParseUint(body[i+1:i+5], 16, 16); err == nil {
					b.WriteRune(rune(v))
					i += 4
					continue
				}
			}
			b.WriteByte('u')
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}
