package preview

// Console entries of a running preview (preview.getConsole, issue 17). The runtime forwards
// console calls and every uncaught error and unhandled rejection as MessageConsole; the
// browser's preview port (wasm/adapters/iframe) keeps them, numbered, and implements
// ConsoleObserver; SelectConsole is the one query over them.

// Console entry kinds (MessageConsole.kind).
const (
	ConsoleKindConsole   = "console"   // a console.log/info/debug/warn/error call
	ConsoleKindError     = "error"     // an uncaught error (or a failed module import)
	ConsoleKindRejection = "rejection" // an unhandled promise rejection
)

// Console levels (MessageConsole.level): info and debug count as log; errors and rejections
// are error.
const (
	ConsoleLevelLog   = "log"
	ConsoleLevelWarn  = "warn"
	ConsoleLevelError = "error"
)

// Console limits.
const (
	// MaxErrorEntries bounds the error and rejection entries the frame forwards per mount
	// (console calls have their own bound, MaxConsoleMessages).
	MaxErrorEntries = 20
	// MaxConsoleEntries is how many entries the browser's port keeps (the newest win), across
	// mounts; also the largest limit of preview.getConsole.
	MaxConsoleEntries = 200
	// DefaultConsoleLimit is preview.getConsole's limit when none is given.
	DefaultConsoleLimit = 50
	// MaxConsoleLine bounds ConsoleEntry.Line (a larger line is not kept).
	MaxConsoleLine = 10_000_000
)

// ConsoleEntry is one console call, uncaught error or unhandled rejection of a mounted page:
// Sequence numbers entries in arrival order (1, 2, …, never reused while the studio runs, so
// a later call can ask for what came after); Revision is the mount's; Level is
// ConsoleLevelLog, ConsoleLevelWarn or ConsoleLevelError; Kind is ConsoleKindConsole,
// ConsoleKindError or ConsoleKindRejection; Text is at most MaxConsoleTextChars code points.
// Path and Line name the workspace file and line (1-based, of the file itself) the entry comes
// from when the stack named one ("" and 0 when not known).
type ConsoleEntry struct {
	Sequence int64  `json:"sequence"`
	Revision int64  `json:"revision"`
	Level    string `json:"level"`
	Kind     string `json:"kind"`
	Text     string `json:"text"`
	Path     string `json:"path,omitempty"`
	Line     int    `json:"line,omitempty"`
}

// ConsoleObserver is implemented by a Port whose pages really run (the browser's iframe):
// ConsoleEntries returns the kept entries (at most MaxConsoleEntries, oldest first, any
// revision). Headless ports do not implement it: no script ran there.
type ConsoleObserver interface {
	ConsoleEntries() []ConsoleEntry
}

// ConsoleQuery selects entries for SelectConsole: those of Revision with a Sequence above
// Since, whose Level is in Levels (all levels when empty), at most Limit (1..MaxConsoleEntries;
// out of range means DefaultConsoleLimit).
type ConsoleQuery struct {
	Revision int64
	Since    int64
	Levels   []string
	Limit    int
}

// SelectConsole returns the entries q selects, oldest first, and whether the answer is
// incomplete: more entries matched than q.Limit (ask again with Since = the last Sequence), or
// the mount reached the frame's bounds (MaxConsoleMessages console calls or MaxErrorEntries
// errors and rejections for the revision), after which the frame forwarded no more.
// Entries of other revisions are never returned.
func SelectConsole(entries []ConsoleEntry, q ConsoleQuery) (out []ConsoleEntry, truncated bool) {
	if q.Limit < 1 || q.Limit > MaxConsoleEntries {
		q.Limit = DefaultConsoleLimit
	}
	calls, errs := 0, 0
	out = []ConsoleEntry{}
	for _, e := range entries {
		if e.Revision != q.Revision {
			continue
		}
		if e.Kind == ConsoleKindConsole {
			calls++
		} else {
			errs++
		}
		if e.Sequence <= q.Since || !levelIn(e.Level, q.Levels) {
			continue
		}
		if len(out) == q.Limit {
			truncated = true
			continue
		}
		out = append(out, e)
	}
	return out, truncated || calls >= MaxConsoleMessages || errs >= MaxErrorEntries
}

func levelIn(level string, levels []string) bool {
	if len(levels) == 0 {
		return true
	}
	for _, l := range levels {
		if l == level {
			return true
		}
	}
	return false
}
