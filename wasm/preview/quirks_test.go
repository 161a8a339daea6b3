package preview

import "testing"

// TestQuirks: the pages HTML's initial insertion mode puts in quirks mode compile with
// Result.Quirks; a standards doctype (any case, after a BOM, whitespace and comments), HTML 4.01
// Strict, 4.01 Transitional with a system identifier and XHTML 1.0 (limited quirks at most)
// do not.
func TestQuirks(t *testing.T) {
	for src, want := range map[string]bool{
		`<!doctype html><p>x`:                          false,
		"\ufeff <!-- c -->\n<!DOCTYPE HTML>":           false,
		`<!DOCTYPE html SYSTEM "about:legacy-compat">`: false,
		`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd">`:                                false,
		`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">`:                    false,
		`<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">`: false,
		`<html><body>`:            true,
		`<p>x`:                    true,
		``:                        true,
		`<!-- only a comment -->`: true,
		`x<!doctype html>`:        true,
		`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">`: true,
		`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN">`:         true,
		`<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">`:              true,
		`<!doctype svg>`:         true,
		`<!DOCTYPE html PUBLIC>`: true,
		// Any whitespace separates the parts; what the tokenizer marks force-quirks is quirks.
		"<!DOCTYPE html\n PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\"\n \"DTD/xhtml1-strict.dtd\">": false,
		"<!DOCTYPE html PUBLIC\n\"-//W3C//DTD HTML 4.01//EN\">":                                     false,
		"<!DOCTYPE html\tSYSTEM 'about:legacy-compat'>":                                             false,
		`<!DOCTYPE html SYSTEM "about:legacy-compat" junk>`:                                         false,
		`<!DOCTYPE html SYSTEM>`:                                                                    true,
		`<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN"x>`:                                       true,
		`<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN>`:                                         true,
		`<!DOCTYPE html"x">`:                                                                        true,
		`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "">`:                        true,
		"\x00<!doctype html>":                                                                       false,
	} {
		res := Compile([]File{{Path: "index.html", Language: LangHTML, Kind: KindText, Source: src}}, Options{Bridge: true})
		if res.Quirks != want {
			t.Errorf("%q: quirks %v, want %v", src, res.Quirks, want)
		}
		// The compiled document is parsed in the same mode (once not a srcdoc document): the
		// bridge follows the page's doctype, or stands first when there is none.
		if got := quirks(res.HTML); got != want {
			t.Errorf("%q: the compiled document parses with quirks %v, want %v", src, got, want)
		}
	}
}
