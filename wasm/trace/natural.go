package trace

// naturalLess orders strings the way people read numbered names: runs of ASCII digits compare
// by their numeric value ("openrouter-2" < "openrouter-10"), everything else byte by byte.
// Digit runs of equal value ("07" and "7") fall back to the plain byte order, so the order is
// total and consistent with ==. Digit runs of any length are compared without overflow (by
// length after leading zeros, then digit by digit).
func naturalLess(a, b string) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigit(ca) && isDigit(cb) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			na, nb := trimZeros(a[si:i]), trimZeros(b[sj:j])
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			continue
		}
		if ca != cb {
			return ca < cb
		}
		i++
		j++
	}
	if i < len(a) || j < len(b) {
		return len(a)-i < len(b)-j
	}
	return a < b // equal by value: plain order ("07" < "7")
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func trimZeros(s string) string {
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	return s
}
