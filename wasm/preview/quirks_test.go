package preview

import "testing"

// TestQuirksDiagnostic: the pages HTML's initial insertion mode puts in quirks mode get the
// warning; a standards doctype (any case, after a BOM, whitespace and comments), HTML 4.01
// Strict, 4.01 Transitional with a system identifier and XHTML 1.0 (limited quirks at most)
// do not.
func TestQuirksDiagnostic(t *testing.T) {
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
	} {
		d, got := QuirksDiagnostic("index.html", src)
		if got != want {
			t.Errorf("%q: quirks %v, want %v", src, got, want)
		}
		if got && (d.Kind != DiagQuirksMode || d.SourcePath != "index.html") {
			t.Errorf("%q: %+v", src, d)
		}
	}
}
