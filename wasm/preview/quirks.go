package preview

import (
	"strings"

	"golang.org/x/net/html"
)

// quirks reports whether a browser parses src in quirks mode when it is served (Result.Quirks).
// The test is HTML's "initial" insertion mode, reduced: the first token other than whitespace
// and comments (after a byte order mark) is no doctype; or the doctype's name is not "html";
// or its public identifier is one of the legacy HTML 2.0–4.0 families the standard lists
// (IETF HTML, W3C HTML 3.x and 4.0 Transitional/Frameset, vendor DTDs), or HTML 4.01
// Transitional/Frameset without a system identifier. Limited-quirks doctypes (XHTML 1.0
// Transitional) give false.
func quirks(src string) bool {
	z := html.NewTokenizer(strings.NewReader(strings.TrimPrefix(src, "\ufeff")))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return true // empty or only whitespace and comments: no doctype
		case html.CommentToken:
			continue
		case html.TextToken:
			// U+0000 too: Chromium drops NULs before the doctype (measured 2026-12-07:
			// "\x00<!doctype html>" is in standards mode served).
			if strings.Trim(string(z.Text()), " \t\n\r\f\x00") == "" {
				continue
			}
			return true
		case html.DoctypeToken:
			return quirksDoctype(string(z.Text()))
		default:
			return true
		}
	}
}

// Public identifier prefixes (compared in ASCII lower case) that put a page in quirks mode:
// the families of HTML's list.
var quirksPublicPrefixes = []string{
	"+//silmaril//dtd html pro v0r11 19970101//",
	"-//advasoft ltd//dtd html 3.0 aswedit + extensions//",
	"-//as//dtd html 3.0 aswedit + extensions//",
	"-//ietf//dtd html",
	"-//metrius//dtd metrius presentational//",
	"-//microsoft//dtd internet explorer",
	"-//netscape comm. corp.//dtd",
	"-//o'reilly and associates//dtd html",
	"-//softquad software//dtd hotmetal pro",
	"-//softquad//dtd hotmetal pro",
	"-//spyglass//dtd html 2.0 extended//",
	"-//sq//dtd html 2.0 hotmetal + extensions//",
	"-//sun microsystems corp.//dtd hotjava",
	"-//w3c//dtd html 3",
	"-//w3c//dtd html 4.0 frameset//",
	"-//w3c//dtd html 4.0 transitional//",
	"-//w3c//dtd html experimental",
	"-//w3c//dtd w3 html//",
	"-//w3o//dtd w3 html 3.0//",
	"-//webtechs//dtd mozilla html",
}

// quirksDoctype decides for a doctype's text (what follows "<!DOCTYPE" up to its ">", as the
// tokenizer gives it: `html`, `HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://…"`). Its
// parts are separated by any HTML whitespace (XHTML 1.0's own example breaks the line after
// the name), and what HTML's tokenizer marks force-quirks is quirks: no name, a word after the
// name other than PUBLIC or SYSTEM, a keyword without a quoted identifier, an identifier cut
// off by the ">", or a character other than whitespace and a quote between the public and the
// system identifier (HTML "DOCTYPE" tokenizer states).
func quirksDoctype(d string) bool {
	name, rest := htmlWord(d, htmlSpace)
	if !strings.EqualFold(name, "html") {
		return true
	}
	kw, rest := htmlWord(rest, htmlSpace+`"'`)
	var public, system string
	hasSystem := false
	switch strings.ToLower(kw) {
	case "":
		return false
	case "public":
		var ok, closed bool
		if public, rest, ok, closed = quoted(rest); !ok || !closed {
			return true // PUBLIC without an identifier, or one cut off by ">": force-quirks
		}
		rest = strings.TrimLeft(rest, htmlSpace)
		if rest != "" {
			if system, _, hasSystem, closed = quoted(rest); !hasSystem || !closed {
				return true // anything else after the public identifier: force-quirks
			}
		}
	case "system":
		var closed bool
		if system, _, hasSystem, closed = quoted(rest); !hasSystem || !closed {
			return true
		}
	default:
		return true // anything else after the name: force-quirks
	}
	pub := strings.ToLower(public)
	if pub == "-//w3o//dtd w3 html strict 3.0//en//" || pub == "-/w3c/dtd html 4.0 transitional/en" || pub == "html" ||
		strings.EqualFold(system, "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd") {
		return true
	}
	for _, p := range quirksPublicPrefixes {
		if strings.HasPrefix(pub, p) {
			return true
		}
	}
	// An empty system identifier counts as a missing one, as in Chromium (measured 2026-12-07:
	// HTML 4.01 Transitional with "" is in quirks mode served).
	return (!hasSystem || system == "") && (strings.HasPrefix(pub, "-//w3c//dtd html 4.01 frameset//") || strings.HasPrefix(pub, "-//w3c//dtd html 4.01 transitional//"))
}

// htmlSpace: HTML's ASCII whitespace.
const htmlSpace = " \t\n\r\f"

// htmlWord returns the first run of s (after whitespace) up to one of the characters in
// stop, and the rest. A name ends only at whitespace (a quote is part of it); the keywords
// PUBLIC and SYSTEM may be followed by their identifier directly.
func htmlWord(s, stop string) (string, string) {
	s = strings.TrimLeft(s, htmlSpace)
	end := strings.IndexAny(s, stop)
	if end < 0 {
		return s, ""
	}
	return s[:end], s[end:]
}

// quoted reads a "…" or '…' string at the start of s (after whitespace): its text, the rest,
// whether there was one, and whether its closing quote is there (it is not when the doctype's
// ">" cut it off).
func quoted(s string) (text, rest string, ok, closed bool) {
	s = strings.TrimLeft(s, htmlSpace)
	if s == "" || (s[0] != '"' && s[0] != '\'') {
		return "", s, false, false
	}
	end := strings.IndexByte(s[1:], s[0])
	if end < 0 {
		return s[1:], "", true, false
	}
	return s[1 : 1+end], s[2+end:], true, true
}
