package schema

import (
	"encoding/json"
	"strconv"
	"strings"
)

// decimal is an exact JSON number: (-1)^neg × 0.digits × 10^exp, digits without leading or
// trailing zeros ("" for zero, which is never negative). Comparing two decimals is exact at
// any size, so an integer beyond 2^53 or a limit like 0.1 is judged as written (RFC 8259 §6
// leaves precision to implementations; JSON Schema compares mathematical values).
type decimal struct {
	neg    bool
	digits string
	exp    int64
	bigExp string // the exponent instead of exp, as a signed decimal integer, when its literal has more than 17 digits
}

// smallExpDigits is the longest exponent literal kept in an int64 (with the adjustment for the
// mantissa's length, at most 2^25 for a 32 MiB input, it stays far from overflow).
const smallExpDigits = 17

// parseDecimal parses a JSON number literal (RFC 8259 §6), or a Go float formatted with 'g'.
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	if strings.HasPrefix(s, "-") {
		d.neg, s = true, s[1:]
	} else if strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	mant, exps, hasExp := s, "", false
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, exps, hasExp = s[:i], s[i+1:], true
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	if intPart == "" || !allDigits(intPart) || !allDigits(frac) || (strings.Contains(mant, ".") && frac == "") {
		return decimal{}, false
	}
	var exp int64
	bigExp := ""
	if hasExp {
		neg := false
		if strings.HasPrefix(exps, "-") || strings.HasPrefix(exps, "+") {
			neg, exps = exps[0] == '-', exps[1:]
		}
		if exps == "" || !allDigits(exps) {
			return decimal{}, false
		}
		exps = strings.TrimLeft(exps, "0")
		if len(exps) > smallExpDigits {
			bigExp = exps
			if neg {
				bigExp = "-" + exps
			}
		} else if exps != "" {
			exp, _ = strconv.ParseInt(exps, 10, 64)
			if neg {
				exp = -exp
			}
		}
	}
	all := strings.TrimLeft(intPart+frac, "0")
	lead := int64(len(intPart+frac) - len(all)) // zeros dropped in front
	d.digits = strings.TrimRight(all, "0")
	if d.digits == "" {
		return decimal{}, true // zero: sign and exponent do not matter
	}
	adj := int64(len(intPart)) - lead
	if bigExp != "" {
		d.bigExp = addSmall(bigExp, adj)
	} else {
		d.exp = exp + adj
	}
	return d, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isInteger reports whether d has no fractional part.
func (d decimal) isInteger() bool {
	if d.bigExp != "" {
		return d.bigExp[0] != '-' // at least 10^17 digits before the point, or a tiny fraction
	}
	return d.digits == "" || int64(len(d.digits)) <= d.exp
}

// key writes a form of d that two decimals share exactly when they are equal.
func (d decimal) key(b *strings.Builder) {
	if d.digits == "" {
		b.WriteByte('0')
		return
	}
	if d.neg {
		b.WriteByte('-')
	}
	b.WriteString(d.digits)
	b.WriteByte('e')
	if d.bigExp != "" {
		b.WriteString(d.bigExp)
	} else {
		b.WriteString(strconv.FormatInt(d.exp, 10))
	}
}

// cmpExp compares the exponents of d and e.
func (d decimal) cmpExp(e decimal) int {
	if d.bigExp == "" && e.bigExp == "" {
		switch {
		case d.exp < e.exp:
			return -1
		case d.exp > e.exp:
			return 1
		}
		return 0
	}
	x, y := d.bigExp, e.bigExp
	if x == "" {
		x = strconv.FormatInt(d.exp, 10)
	}
	if y == "" {
		y = strconv.FormatInt(e.exp, 10)
	}
	return cmpInt(x, y)
}

// cmpInt compares two signed decimal integers written without leading zeros ("-0" never).
func cmpInt(x, y string) int {
	xn, yn := strings.HasPrefix(x, "-"), strings.HasPrefix(y, "-")
	if xn != yn {
		if xn {
			return -1
		}
		return 1
	}
	c := cmpMag(strings.TrimPrefix(x, "-"), strings.TrimPrefix(y, "-"))
	if xn {
		return -c
	}
	return c
}

// cmpMag compares two unsigned decimal integers without leading zeros.
func cmpMag(x, y string) int {
	if len(x) != len(y) {
		if len(x) < len(y) {
			return -1
		}
		return 1
	}
	return strings.Compare(x, y)
}

// addSmall returns the signed decimal integer x (more than 17 digits) plus a (|a| < 2^62),
// with no leading zeros.
func addSmall(x string, a int64) string {
	y := strconv.FormatInt(a, 10)
	xn, yn := strings.HasPrefix(x, "-"), strings.HasPrefix(y, "-")
	xm, ym := strings.TrimPrefix(x, "-"), strings.TrimPrefix(y, "-")
	if xn == yn {
		return sign(xn, addMag(xm, ym))
	}
	if cmpMag(xm, ym) >= 0 { // |x| ≥ |a|: x's sign
		return sign(xn, subMag(xm, ym))
	}
	return sign(yn, subMag(ym, xm))
}

func sign(neg bool, m string) string {
	if neg && m != "0" {
		return "-" + m
	}
	return m
}

// addMag adds two unsigned decimal integers.
func addMag(x, y string) string {
	out := make([]byte, max(len(x), len(y))+1)
	carry := byte(0)
	for i := 1; i <= len(out); i++ {
		s := carry
		if i <= len(x) {
			s += x[len(x)-i] - '0'
		}
		if i <= len(y) {
			s += y[len(y)-i] - '0'
		}
		out[len(out)-i], carry = '0'+s%10, s/10
	}
	return trimZeros(string(out))
}

// subMag returns x − y for unsigned decimal integers with x ≥ y.
func subMag(x, y string) string {
	out := []byte(x)
	borrow := byte(0)
	for i := 1; i <= len(x); i++ {
		d := int(x[len(x)-i]-'0') - int(borrow)
		if i <= len(y) {
			d -= int(y[len(y)-i] - '0')
		}
		borrow = 0
		if d < 0 {
			d, borrow = d+10, 1
		}
		out[len(out)-i] = byte('0' + d)
	}
	return trimZeros(string(out))
}

func trimZeros(s string) string {
	if t := strings.TrimLeft(s, "0"); t != "" {
		return t
	}
	return "0"
}

// cmp returns -1, 0 or +1 as d is less than, equal to or greater than e.
func (d decimal) cmp(e decimal) int {
	switch {
	case d.digits == "" && e.digits == "":
		return 0
	case d.digits == "":
		if e.neg {
			return 1
		}
		return -1
	case e.digits == "":
		if d.neg {
			return -1
		}
		return 1
	case d.neg != e.neg:
		if d.neg {
			return -1
		}
		return 1
	}
	c := d.cmpMagnitude(e)
	if d.neg {
		return -c
	}
	return c
}

// cmpMagnitude compares |d| and |e|, both non-zero.
func (d decimal) cmpMagnitude(e decimal) int {
	if c := d.cmpExp(e); c != 0 {
		return c
	}
	// Same exponent: digit strings compare lexicographically, a shorter prefix being smaller.
	return strings.Compare(d.digits, e.digits)
}

// numberOf returns the exact value of a decoded JSON number (json.Number from Decode, float64
// from encoding/json, or a Go integer), and whether v is a number.
func numberOf(v any) (decimal, bool) {
	var s string
	switch n := v.(type) {
	case json.Number:
		s = string(n)
	case float64:
		s = strconv.FormatFloat(n, 'g', -1, 64)
	case float32:
		s = strconv.FormatFloat(float64(n), 'g', -1, 32)
	case int:
		s = strconv.Itoa(n)
	case int64:
		s = strconv.FormatInt(n, 10)
	case int32:
		s = strconv.FormatInt(int64(n), 10)
	case uint64:
		s = strconv.FormatUint(n, 10)
	case uint:
		s = strconv.FormatUint(uint64(n), 10)
	default:
		return decimal{}, false
	}
	return parseDecimal(s)
}

// PlainIntegers rewrites every number in the JSON text raw that is an integer written with a
// fraction or an exponent (1.0, 1e1, 10e-1, -0) as its plain integer literal, when that has
// at most 19 digits, so a Go integer field decodes it (the schema's "integer" admits it: JSON
// Schema 2020-12 Validation, section 6.1.1, counts 1.0 as an integer). Strings are left alone. It reports whether
// anything changed; raw must be valid JSON.
func PlainIntegers(raw []byte) ([]byte, bool) {
	var out []byte
	last, changed := 0, false
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '"':
			i++
			for i < len(raw) && raw[i] != '"' {
				if raw[i] == '\\' {
					i++
				}
				i++
			}
			i++
		case c == '-' || (c >= '0' && c <= '9'):
			j := i
			for j < len(raw) && strings.IndexByte("+-.eE0123456789", raw[j]) >= 0 {
				j++
			}
			if plain, ok := plainInteger(string(raw[i:j])); ok {
				out = append(append(out, raw[last:i]...), plain...)
				last, changed = j, true
			}
			i = j
		default:
			i++
		}
	}
	if !changed {
		return raw, false
	}
	return append(out, raw[last:]...), true
}

// plainInteger returns the plain literal of an integral number written otherwise.
func plainInteger(num string) (string, bool) {
	if !strings.ContainsAny(num, ".eE") && num != "-0" {
		return "", false // already plain
	}
	d, ok := parseDecimal(num)
	if !ok || !d.isInteger() || d.bigExp != "" || d.exp > 19 {
		return "", false
	}
	if d.digits == "" {
		return "0", true
	}
	s := d.digits + strings.Repeat("0", int(d.exp)-len(d.digits))
	if d.neg {
		s = "-" + s
	}
	return s, true
}
