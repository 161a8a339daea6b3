package preview

import (
	"strings"

	"golang.org/x/net/html"
)

// DiagQuirksMode: the page has no doctype, or one that puts it in quirks mode when served
// (HTML "The initial insertion mode"), while the preview's document is an iframe srcdoc
// document, which HTML never puts in quirks mode — its layout can differ (percentage heights,
// tables, inline images). A warning of QuirksDiagnostic, browser studio only, like
// DiagEntryFallback (docs/design.md §5.49).
const DiagQuirksMode = "quirks-mode"

// QuirksDiagnostic returns the warning for the page at path with source src when a browser
// would lay it out in quirks mode served over HTTP, and false otherwise. The test is HTML's
// "initial" insertion mode, reduced: the first token other than whitespace and comments (after
// a byte order mark) is no doctype; or the doctype's name is not "html"; or its public
// identifier is one of the legacy HTML 2.0–4.0 families the standard lists (IETF HTML, W3C HTML
// 3.x and 4.0 Transitional/Frameset, vendor DTDs), or HTML 4.01 Transitional/Frameset without
// a system identifier. Limited-quirks doctypes (XHTML 1.0 Transitional) are not reported.
func QuirksDiagnostic(path, src string) (Diagnostic, bool) {
	if !quirks(src) {
		return Diagnostic{}, false
	}
	return Diagnostic{
		Kind:          DiagQuirksMode,
		SourcePath:    path,
		RequestedPath: path,
		Message: path + " has no <!doctype html>: served, browsers lay it out in quirks mode; the preview lays it out in standards mode " +
			"(a srcdoc document never is in quirks mode), so percentage heights, tables and inline images can differ. Add <!doctype html> as its first line.",
	}, true
}

// quirks reports whether a browser parses src in quirks mode (see QuirksDiagnostic).
func quirks(src string) bool {
	z := html.NewTokenizer(strings.NewReader(strings.TrimPrefix(src, "\ufeff")))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return true // empty or only whitespace and comments: no doctype
		case html.CommentToken:
			continue
		case html.TextToken:
			if strings.Trim(string(z.Text()), " \t\n\r\f") == "" {
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

// quirksDoctype decides for a doctype's text (what follows "<!DOCTYPE", as the tokenizer
// gives it: `html`, `HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://…"`).
func quirksDoctype(d string) bool {
	d = strings.TrimSpace(d)
	name, rest, _ := strings.Cut(d, " ")
	if !strings.EqualFold(name, "html") {
		return true
	}
	rest = strings.TrimSpace(rest)
	kw, rest, _ := strings.Cut(rest, " ")
	var public, system string
	hasSystem := false
	switch strings.ToLower(kw) {
	case "":
		return false
	case "public":
		var ok bool
		if public, rest, ok = quoted(rest); !ok {
			return true // a public keyword without an identifier: force-quirks
		}
		system, _, hasSystem = quoted(rest)
	case "system":
		system, _, hasSystem = quoted(rest)
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
	return !hasSystem && (strings.HasPrefix(pub, "-//w3c//dtd html 4.01 frameset//") || strings.HasPrefix(pub, "-//w3c//dtd html 4.01 transitional//"))
}

// quoted reads a "…" or '…' string at the start of s (after spaces): its text and the rest.
func quoted(s string) (string, string, bool) {
	s = strings.TrimLeft(s, " \t\n\r\f")
	if s == "" || (s[0] != '"' && s[0] != '\'') {
		return "", s, false
	}
	end := strings.IndexByte(s[1:], s[0])
	if end < 0 {
		return s[1:], "", true // cut off by the end of the doctype: taken as written
	}
	return s[1 : 1+end], s[2+end:], true
}
