package folder

import (
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
)

// Fault injection for the crash tests of the save journal (issue 14 item 5): with
// WEBCODING_FOLDER_FAULT=POINT:N in the environment, the process SIGKILLs itself the N-th
// time (1-based) a write reaches POINT — "before-write" (journaled, nothing written yet),
// "after-temp" (the temporary file is complete, not yet renamed) or "after-rename" (the file
// is replaced, its "done" line not yet journaled). Unset (always, outside tests): no effect.
var (
	faultPoint = ""
	faultAt    int64
	faultSeen  atomic.Int64
)

func init() {
	v := os.Getenv("WEBCODING_FOLDER_FAULT")
	p, n, ok := strings.Cut(v, ":")
	if !ok {
		return
	}
	if at, err := strconv.ParseInt(n, 10, 64); err == nil && at > 0 {
		faultPoint, faultAt = p, at
	}
}

func fault(point string) {
	if faultPoint != point {
		return
	}
	if faultSeen.Add(1) == faultAt {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	}
}
