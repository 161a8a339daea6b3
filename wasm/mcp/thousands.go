package mcp

import "strconv"

// Thousands formats n with "," between groups of three digits (80000 → "80,000",
// -1234 → "-1,234"): how the messages and descriptions of REFERENCE §2 write counts and limits
// ("the 80,000-character limit", formatted with a thousands separator). The one formatter of
// the studio's tool texts, its views and its pages.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := 0; i < len(s); i++ {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return sign + string(out)
}
