package jsscan

import (
	"strings"
	"testing"
)

func TestScriptDataEndModel(t *testing.T) {
	// The model itself: the well-known double-escape trap keeps the element open.
	cases := []struct {
		text string
		want int
	}{
		{"a</script>", 1},
		{"a</SCRIPT x>", 1},
		{"a</scripts></script>", 11},
		{"<!--<script></script>", -1},
		{"<!--<script></script>--></script>", 24},
		{"<!-- x --></script>", 10},
	}
	for _, c := range cases {
		if got := ScriptDataEnd(c.text); got != c.want {
			t.Errorf("ScriptDataEnd(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}

func TestEscapeClassicScript(t *testing.T) {
	cases := []struct{ in, want string }{
		{`var a = 1 < 2;`, `var a = 1 < 2;`},
		{`var s = "</script>";`, `var s = "\x3C/script>";`},
		{`var s = '<!--';`, `var s = '\x3C!--';`},
		{`var s = "\<!--";`, `var s = "\x3C!--";`},
		{`var s = "\\<!--";`, `var s = "\\\x3C!--";`},
		{"var t = `</Script ${x} <!--`;", "var t = `\\x3C/Script ${x} \\x3C!--`;"},
		{"var t = `${'</script>'}`;", "var t = `${'\\x3C/script>'}`;"},
		{`var r = /<!--/;`, `var r = /\x3C!--/;`},
		{`var r = /[<!--]/;`, `var r = /[\x3C!--]/;`},
		{`var r = /(?<!--)a/;`, `var r = /(?<!(?:)--)a/;`},
		{`// </script> <!--`, `// <\/script> <\!--`},
		{`/* </script> */`, `/* <\/script> */`},
		{"<!-- legacy comment\nx()", "//-- legacy comment\nx()"},
		{`if (a </script/.test(b)) {}`, `if (a < /script/.test(b)) {}`},
	}
	for _, c := range cases {
		got := EscapeClassicScript(c.in)
		if got != c.want {
			t.Errorf("EscapeClassicScript(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
		if HasUnsafeSequence(got) {
			t.Errorf("EscapeClassicScript(%q) = %q still unsafe", c.in, got)
		}
		if end := ScriptDataEnd(got + "</script>"); end != len(got) {
			t.Errorf("element around %q ends at %d, want %d", got, end, len(got))
		}
	}
}

func TestEscapeClassicScriptUnchangedWhenSafe(t *testing.T) {
	src := "const a = '<b>'; // <script> is fine alone\nconst b = x < y;"
	if got := EscapeClassicScript(src); got != src {
		t.Errorf("safe text changed: %q", got)
	}
}

func TestEscapeLargeRegexLinear(t *testing.T) {
	// One regex literal with many unsafe sequences must not be quadratic.
	src := "x = /" + strings.Repeat("[a]<!--", 200_000) + "/;"
	out := EscapeClassicScript(src)
	if HasUnsafeSequence(out) {
		t.Fatal("unsafe sequence left")
	}
	if strings.Count(out, `\x3C!--`) != 200_000 {
		t.Fatalf("got %d escapes", strings.Count(out, `\x3C!--`))
	}
}
