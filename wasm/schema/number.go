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
}

// expLimit caps exponents while parsing; a number beyond it compares as the cap would, which
// is far outside any length JSON input may have.
const expLimit = 1 << 40

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
	if hasExp {
		neg := false
		if strings.HasPrefix(exps, "-") || strings.HasPrefix(exps, "+") {
			neg, exps = exps[0] == '-', exps[1:]
		}
		if exps == "" || !allDigits(exps) {
			return decimal{}, false
		}
		for _, c := range exps {
			if exp < expLimit {
				exp = exp*10 + int64(c-'0')
			}
		}
		if neg {
			exp = -exp
		}
	}
	all := strings.TrimLeft(intPart+frac, "0")
	lead := int64(len(intPart+frac) - len(all)) // zeros dropped in front
	d.digits = strings.TrimRight(all, "0")
	d.exp = exp + int64(len(intPart)) - lead
	if d.digits == "" {
		return decimal{}, true // zero: sign and exponent do not matter
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
func (d decimal) isInteger() bool { return d.digits == "" || int64(len(d.digits)) <= d.exp }

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
	if d.exp != e.exp {
		if d.exp < e.exp {
			return -1
		}
		return 1
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
