package mcp

import "testing"

func TestThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 80000: "80,000",
		901106: "901,106", 1234567: "1,234,567", -1234: "-1,234", -999: "-999",
		-9223372036854775808: "-9,223,372,036,854,775,808"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
