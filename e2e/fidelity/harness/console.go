package harness

import (
	"strings"

	"github.com/webcoding/studio/e2e/chromium"
)

// ServedConsole reads a served run's console from its tab: lines are the page's console
// calls as "level text" (levels log, warn, error; others are left out) in call order, and
// exceptions the first line of each uncaught exception ("Uncaught TypeError: …", the message
// without its stack), in order.
func ServedConsole(tab *chromium.Tab) (lines, exceptions []string) {
	for _, c := range tab.Console() {
		switch c.Level {
		case "log", "warning", "error":
			lvl := map[string]string{"log": "log", "warning": "warn", "error": "error"}[c.Level]
			lines = append(lines, lvl+" "+c.Text)
		case "exception":
			first, _, _ := strings.Cut(c.Text, "\n") // the message, not the stack
			exceptions = append(exceptions, first)
		}
	}
	return lines, exceptions
}

// PreviewConsole reads the same from a preview run's recorded bridge messages: lines are the
// console entries of kind "console" as "level text"; exceptions the entries of kind "error"
// and "rejection" (the runtime's uncaught errors, at most its per-mount cap), in order;
// failure is the message of the last webcoding.preview.error (the mount's failure, "" when it
// did not fail).
func PreviewConsole(ms []Msg) (lines, exceptions []string, failure string) {
	for _, m := range ms {
		switch m.Type {
		case "webcoding.preview.console":
			switch m.Kind {
			case "console":
				lines = append(lines, m.Level+" "+m.Text)
			case "error", "rejection":
				exceptions = append(exceptions, m.Text)
			}
		case "webcoding.preview.error":
			failure = m.Message
		}
	}
	return lines, exceptions, failure
}
