package jsscan

import "strings"

// Kind is the class of a Token.
type Kind uint8

// Token kinds.
const (
	// Comment is a `//…`, `/*…*/`, hashbang or HTML-like (`<!--`, line-leading `-->`) comment.
	Comment Kind = iota + 1
	// String is a single- or double-quoted string literal, quotes included (an unterminated
	// literal ends before the line terminator or at the end of input).
	String
	// Template is one chunk of template-literal text: from the opening backtick or the `}`
	// closing a substitution, through the closing backtick or the `${` opening the next one.
	Template
	// Regex is a regular-expression literal including its flags.
	Regex
	// Ident is an identifier or keyword.
	Ident
	// Number is a numeric literal (lexed loosely).
	Number
	// Punct is a punctuator or any other single character.
	Punct
)

// Token is one lexical unit: src[Start:End] with its Kind. Offsets are byte offsets.
type Token struct {
	Kind       Kind
	Start, End int
}

// Lexer splits JavaScript source into tokens. Whitespace is skipped. The zero value is not
// usable; call NewLexer.
type Lexer struct {
	src   string
	pos   int
	depth int   // open braces, template substitutions included
	subst []int // for each open `${`: the depth at which its closing `}` resumes the template

	prev     Token // last significant (non-comment) token; Kind 0 at start
	lineHead bool  // no significant token since the last line terminator (or start)
}

// NewLexer returns a lexer positioned at the start of src.
func NewLexer(src string) *Lexer {
	return &Lexer{src: src, lineHead: true}
}

// Next returns the next token, or false at the end of input.
func (l *Lexer) Next() (Token, bool) {
	src := l.src
	for l.pos < len(src) {
		c := src[l.pos]
		switch c {
		case ' ', '\t', '\v', '\f':
			l.pos++
			continue
		case '\n', '\r':
			l.pos++
			l.lineHead = true
			continue
		}
		if c == 0xE2 && l.pos+2 < len(src) && src[l.pos+1] == 0x80 && (src[l.pos+2] == 0xA8 || src[l.pos+2] == 0xA9) {
			l.pos += 3 // U+2028 / U+2029 line terminators
			l.lineHead = true
			continue
		}
		if c == 0xC2 && l.pos+1 < len(src) && src[l.pos+1] == 0xA0 { // NBSP
			l.pos += 2
			continue
		}
		if c == 0xEF && l.pos+2 < len(src) && src[l.pos+1] == 0xBB && src[l.pos+2] == 0xBF { // BOM
			l.pos += 3
			continue
		}
		break
	}
	if l.pos >= len(src) {
		return Token{}, false
	}
	start := l.pos
	c := src[start]
	var t Token
	switch {
	case c == '/' && start+1 < len(src) && src[start+1] == '/':
		t = Token{Comment, start, l.lineEnd(start + 2)}
	case c == '/' && start+1 < len(src) && src[start+1] == '*':
		end := indexFrom(src, start+2, "*/")
		if end < 0 {
			end = len(src)
		} else {
			end += 2
		}
		t = Token{Comment, start, end}
		if containsLineTerminator(src[start:end]) {
			l.lineHead = true
		}
		l.pos = end
		return t, true
	case c == '#' && start == 0 && len(src) > 1 && src[1] == '!':
		t = Token{Comment, start, l.lineEnd(2)}
	case c == '<' && hasPrefixAt(src, start, "<!--"):
		t = Token{Comment, start, l.lineEnd(start + 4)}
	case c == '-' && l.lineHead && hasPrefixAt(src, start, "-->"):
		t = Token{Comment, start, l.lineEnd(start + 3)}
	case c == '\'' || c == '"':
		t = Token{String, start, l.stringEnd(start)}
	case c == '`':
		t = Token{Template, start, l.templateEnd(start + 1)}
	case c == '}' && len(l.subst) > 0 && l.subst[len(l.subst)-1] == l.depth-1:
		l.subst = l.subst[:len(l.subst)-1]
		l.depth--
		t = Token{Template, start, l.templateEnd(start + 1)}
	case c == '/':
		if l.regexAllowed() {
			t = Token{Regex, start, l.regexEnd(start + 1)}
		} else {
			t = Token{Punct, start, start + 1}
			if start+1 < len(src) && src[start+1] == '=' {
				t.End++
			}
		}
	case isDigit(c) || (c == '.' && start+1 < len(src) && isDigit(src[start+1])):
		e := start + 1
		for e < len(src) && (isIdentPart(src[e]) || src[e] == '.') {
			e++
		}
		t = Token{Number, start, e}
	case isIdentStart(c):
		e := start + 1
		for e < len(src) && isIdentPart(src[e]) {
			e++
		}
		t = Token{Ident, start, e}
	default:
		t = Token{Punct, start, start + 1}
		switch {
		case hasPrefixAt(src, start, "..."):
			t.End = start + 3
		case hasPrefixAt(src, start, "?.") && !(start+2 < len(src) && isDigit(src[start+2])):
			t.End = start + 2
		case hasPrefixAt(src, start, "++"), hasPrefixAt(src, start, "--"), hasPrefixAt(src, start, "=>"):
			t.End = start + 2
		case c == '{':
			l.depth++
		case c == '}':
			if l.depth > 0 {
				l.depth--
			}
		}
	}
	l.pos = t.End
	if t.Kind != Comment {
		l.prev = t
		l.lineHead = false
	}
	return t, true
}

// lineEnd returns the offset of the first line terminator at or after i (or len(src)).
func (l *Lexer) lineEnd(i int) int {
	src := l.src
	for ; i < len(src); i++ {
		switch src[i] {
		case '\n', '\r':
			return i
		case 0xE2:
			if i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xA8 || src[i+2] == 0xA9) {
				return i
			}
		}
	}
	return i
}

func (l *Lexer) stringEnd(start int) int {
	src := l.src
	q := src[start]
	i := start + 1
	for i < len(src) {
		switch src[i] {
		case q:
			return i + 1
		case '\\':
			i += 2
			if i > len(src) {
				return len(src)
			}
			// "\r\n" is one line continuation: the '\n' is skipped by the loop below as text.
			continue
		case '\n', '\r':
			return i
		}
		i++
	}
	return len(src)
}

// templateEnd scans template text from i (just after "`" or "}") through "`" or "${".
func (l *Lexer) templateEnd(i int) int {
	src := l.src
	for i < len(src) {
		switch src[i] {
		case '`':
			return i + 1
		case '\\':
			i += 2
			continue
		case '$':
			if i+1 < len(src) && src[i+1] == '{' {
				l.subst = append(l.subst, l.depth)
				l.depth++
				return i + 2
			}
		}
		i++
	}
	return len(src)
}

func (l *Lexer) regexEnd(i int) int {
	src := l.src
	inClass := false
	for i < len(src) {
		switch src[i] {
		case '\\':
			i += 2
			continue
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if !inClass {
				i++
				for i < len(src) && isIdentPart(src[i]) {
					i++
				}
				return i
			}
		case '\n', '\r':
			return i
		}
		i++
	}
	if i > len(src) {
		i = len(src)
	}
	return i
}

var regexKeywords = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true, "new": true,
	"delete": true, "void": true, "throw": true, "case": true, "do": true, "else": true,
	"yield": true, "await": true,
}

// regexAllowed reports whether a '/' at the current position starts a regular expression,
// judged from the previous significant token.
func (l *Lexer) regexAllowed() bool {
	p := l.prev
	switch p.Kind {
	case 0:
		return true
	case Ident:
		return regexKeywords[l.src[p.Start:p.End]]
	case Number, String, Regex:
		return false
	case Template:
		// A chunk ending in "${" opens an expression; one ending in "`" is a value.
		return l.src[p.End-1] == '{'
	case Punct:
		switch l.src[p.Start:p.End] {
		case ")", "]", "++", "--":
			return false
		}
		return true
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || isDigit(c) }

func hasPrefixAt(s string, i int, p string) bool {
	return len(s)-i >= len(p) && s[i:i+len(p)] == p
}

func indexFrom(s string, i int, sub string) int {
	k := strings.Index(s[i:], sub)
	if k < 0 {
		return -1
	}
	return i + k
}

func containsLineTerminator(s string) bool {
	return strings.ContainsAny(s, "\n\r\u2028\u2029")
}
