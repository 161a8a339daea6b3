package views

import (
	"path"
	"strconv"
	"strings"
)

// RecoveredPaths lists the paths tried for a rescued draft of p: p itself, then
// "name (recovered).ext", "name (recovered 2).ext" … up to 5 in all.
func RecoveredPaths(p string) []string {
	dir, base := path.Split(p)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	out := []string{p, dir + stem + " (recovered)" + ext}
	for i := 2; i <= 4; i++ {
		out = append(out, dir+stem+" (recovered "+strconv.Itoa(i)+")"+ext)
	}
	return out
}
