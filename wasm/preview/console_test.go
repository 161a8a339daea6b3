package preview

import "testing"

// TestSelectConsole: one revision only, sinceSequence, levels, limit (default and bounds), and
// truncated when the limit cut or the mount reached the frame's bounds.
func TestSelectConsole(t *testing.T) {
	var es []ConsoleEntry
	seq := int64(0)
	add := func(rev int64, level, kind string, n int) {
		for i := 0; i < n; i++ {
			seq++
			es = append(es, ConsoleEntry{Sequence: seq, Revision: rev, Level: level, Kind: kind, Text: "x"})
		}
	}
	add(1, ConsoleLevelLog, ConsoleKindConsole, 5)
	add(2, ConsoleLevelWarn, ConsoleKindConsole, 3)
	add(2, ConsoleLevelError, ConsoleKindError, 2)
	add(3, ConsoleLevelLog, ConsoleKindConsole, 1)
	got, tr := SelectConsole(es, ConsoleQuery{Revision: 2})
	if len(got) != 5 || got[0].Sequence != 6 || tr {
		t.Fatalf("revision 2: %d entries from %d, truncated %v", len(got), got[0].Sequence, tr)
	}
	if got, tr = SelectConsole(es, ConsoleQuery{Revision: 2, Since: 8, Levels: []string{ConsoleLevelError}}); len(got) != 2 || got[0].Sequence != 9 || tr {
		t.Fatalf("since and levels: %+v %v", got, tr)
	}
	if got, tr = SelectConsole(es, ConsoleQuery{Revision: 2, Limit: 2}); len(got) != 2 || got[1].Sequence != 7 || !tr {
		t.Fatalf("limit: %+v %v", got, tr)
	}
	if got, _ = SelectConsole(es, ConsoleQuery{Revision: 9}); got == nil || len(got) != 0 {
		t.Fatalf("no entries must be an empty list: %#v", got)
	}
	es = nil
	add(4, ConsoleLevelLog, ConsoleKindConsole, MaxConsoleMessages)
	if got, tr = SelectConsole(es, ConsoleQuery{Revision: 4, Limit: 1000}); len(got) != DefaultConsoleLimit || !tr {
		t.Fatalf("a limit out of range is the default: %d %v", len(got), tr)
	}
	if got, tr = SelectConsole(es, ConsoleQuery{Revision: 4, Since: seq - 1}); len(got) != 1 || !tr {
		t.Fatalf("the frame's bound reached: %d %v", len(got), tr)
	}
}
