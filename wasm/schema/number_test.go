package schema

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

func TestDecimalComparesExactly(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"1", "1.0", 0}, {"10e-1", "1", 0}, {"-0", "0", 0}, {"0.0e99", "-0.000", 0},
		{"9007199254740993", "9007199254740992", 1}, {"0.1", "0.10000000000000001", -1},
		{"-1.5", "-1.25", -1}, {"1e400", "1e399", 1}, {"-1e400", "1e-400", -1},
		// Exponents past int64's reach compare exactly too (the tester's case: a capped
		// exponent made these two equal).
		{"1e10995116277760", "1e1099511627776", 1},
		{"10e1000000000000000000", "1e1000000000000000001", 0},
		{"1e-1000000000000000000", "1e-1000000000000000001", 1},
		{"1e1000000000000000000", "9e999", 1},
		{"-1e1000000000000000000", "-9e999", -1},
	} {
		a, ok1 := parseDecimal(c.a)
		b, ok2 := parseDecimal(c.b)
		if !ok1 || !ok2 {
			t.Fatalf("%s or %s does not parse", c.a, c.b)
		}
		if got := a.cmp(b); got != c.want {
			t.Errorf("cmp(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := b.cmp(a); got != -c.want {
			t.Errorf("cmp(%s, %s) = %d, want %d", c.b, c.a, got, -c.want)
		}
		var ka, kb strings.Builder
		a.key(&ka)
		b.key(&kb)
		if (ka.String() == kb.String()) != (c.want == 0) {
			t.Errorf("keys of %s and %s: %q, %q (equal must mean same key)", c.a, c.b, ka.String(), kb.String())
		}
	}
}

// TestUniqueItemsLinear: uniqueItems keys items instead of comparing every pair, so an array
// of 200,000 items (about 2 MB of arguments) is checked at once; comparing pairs took seconds
// for 20,000 items and minutes for 200,000, long enough for the host's call timeout to reset
// the module (new-user test, 2026-12-07).
func TestUniqueItemsLinear(t *testing.T) {
	s := MustCompile("u", json.RawMessage(`{"type":"array","maxItems":3,"uniqueItems":true}`))
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < 200_000; i++ {
		b.WriteString(`"x` + strconv.Itoa(i) + `",`)
	}
	b.WriteString(`"x5"]`)
	got := s.Validate([]byte(b.String()))
	want := []Issue{
		{Path: "", Keyword: "/maxItems", Message: "maximum 3 items required, but found 200001 items"},
		{Path: "", Keyword: "/uniqueItems", Message: "items at index 5 and 200000 are equal"},
	}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

// TestUniqueItemsEquality: items equal as JSON values are duplicates whatever their spelling.
func TestUniqueItemsEquality(t *testing.T) {
	s := MustCompile("u", json.RawMessage(`{"uniqueItems":true}`))
	for in, dup := range map[string]bool{
		`[1,1.0]`: true, `[0,-0]`: true, `[{"a":1,"b":[2]},{"b":[2.0],"a":1e0}]`: true, `["1",1]`: false,
		`[[1,2],[2,1]]`: false, `[null,false,0,"",[],{}]`: false, `[{"a":null},{}]`: false, `["a","\u0061"]`: true,
	} {
		if got := len(s.Validate([]byte(in))) > 0; got != dup {
			t.Errorf("%s: duplicate reported %v, want %v", in, got, dup)
		}
	}
}

// TestCompileErrorIsDeterministic: a schema with several bad properties names the same one
// on every compile (properties are compiled in name order).
func TestCompileErrorIsDeterministic(t *testing.T) {
	doc := json.RawMessage(`{"properties":{"d":{"x":1},"b":{"y":1},"a":{"z":1},"c":{"w":1}}}`)
	_, first := compile("d", doc)
	for i := 0; i < 50; i++ {
		if _, err := compile("d", doc); err == nil || err.Error() != first.Error() {
			t.Fatalf("compile %d: %v, first %v", i, err, first)
		}
	}
	if !strings.Contains(first.Error(), "/properties/a/z") {
		t.Fatalf("want the first property in name order, got %v", first)
	}
}

func TestCountBoundsBeyondInt(t *testing.T) {
	for _, doc := range []string{`{"maxLength":1e15}`, `{"maxItems":1e30}`, `{"maxLength":9223372036854775808}`, `{"minLength":3.0}`} {
		if _, err := Compile("c", json.RawMessage(doc)); err != nil {
			t.Errorf("%s: %v", doc, err)
		}
	}
	s := MustCompile("c", json.RawMessage(`{"maxLength":1e30,"minLength":3.0}`))
	if got := s.Validate([]byte(`"ab"`)); len(got) != 1 || got[0].Keyword != "/minLength" {
		t.Fatalf("got %+v", got)
	}
}

func TestAddSmall(t *testing.T) {
	for _, c := range []struct {
		x    string
		a    int64
		want string
	}{
		{"999999999999999999", 1, "1000000000000000000"}, {"1000000000000000000", -1, "999999999999999999"},
		{"-1000000000000000000", 1, "-999999999999999999"}, {"-999999999999999999", -1, "-1000000000000000000"},
		{"123456789012345678", 0, "123456789012345678"}, {"100000000000000000", -100000000000000000, "0"},
		{"5", -7, "-2"},
	} {
		if got := addSmall(c.x, c.a); got != c.want {
			t.Errorf("addSmall(%s, %d) = %s, want %s", c.x, c.a, got, c.want)
		}
	}
}

func TestPlainIntegers(t *testing.T) {
	for in, want := range map[string]string{
		`{"limit":1.0,"n":1e1,"m":10e-1,"z":-0,"f":1.5,"s":"1.0","k":2,"big":1e30,"neg":-2.00}`: `{"limit":1,"n":10,"m":1,"z":0,"f":1.5,"s":"1.0","k":2,"big":1e30,"neg":-2}`,
		`["a\"1.0",[0.0e5]]`: `["a\"1.0",[0]]`,
		`{"x":3}`:            `{"x":3}`,
	} {
		got, _ := PlainIntegers([]byte(in))
		if string(got) != want {
			t.Errorf("%s → %s, want %s", in, got, want)
		}
	}
}
