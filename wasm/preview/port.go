package preview

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Preview runtimes reported by preview.getStatus (Port.Runtime).
const (
	// RuntimeSandboxIframe is the browser's runtime: the sandboxed iframe ran the document.
	RuntimeSandboxIframe = "sandbox iframe"
	// RuntimeHeadless is the headless hosts' runtime: the document was compiled and its
	// diagnostics computed, but no script ran (SPEC §2.6).
	RuntimeHeadless = "headless (not executed)"
)

// Mount is one request to show the workspace at a revision: {Revision, Files, Remount}.
// Files are the snapshot's files in workspace order (shared, read-only). Remount asks for a
// fresh mount even when Revision is already mounted (preview.refresh).
type Mount struct {
	Revision int64
	Files    []File
	Remount  bool
}

// Ack is the preview's acknowledgement of one revision.
//
//   - Status is "synced" or "error" (workspace.PreviewSynced, workspace.PreviewError).
//   - Message is the runtime error text (status error only; at most MaxErrorMessageChars
//     code points).
//   - Runtime names what produced the ack (RuntimeSandboxIframe, RuntimeHeadless).
//   - InPlace: the running document took the revision as a StylePatch (its stylesheet texts
//     replaced, scroll position, form input and script state kept) instead of a mount
//     (design.md §5.33).
type Ack struct {
	Revision int64
	Status   string
	Message  string
	Runtime  string
	InPlace  bool
}

// PatchAckTimeout is how long the browser's port waits for the running document to take a
// StylePatch; without its answer by then it mounts the revision in full, in a fresh frame (the
// page may be stuck in a script), within the caller's PreviewAckTimeout (2.5 s) budget.
const PatchAckTimeout = time.Second

// ErrAckTimeout is returned by Port.Await when no acknowledgement for the revision (or a
// newer one) arrived in time.
var ErrAckTimeout = errors.New("preview: acknowledgement timed out")

// Port is the core's port to the preview ("PreviewPort" in SPEC §1: "mount revision → wait
// for ack"). The browser host implements it with the sandboxed iframe (wasm/adapters/iframe:
// srcdoc + bridge messages); the headless hosts use studio.HeadlessPreview.
//
// Contract:
//   - Mount asks the preview to show m.Files at m.Revision. It returns once the mount is
//     requested (not when it is acknowledged). Mounting a revision that is already mounted is
//     a no-op unless m.Remount is set. An error means the mount could not even be requested.
//   - Await blocks until an ack for revision or for a newer revision arrives (returned as is:
//     the caller compares Ack.Revision), the timeout elapses (ErrAckTimeout), or ctx ends
//     (ctx.Err()). An ack already received for that revision or a newer one returns at once.
//   - Runtime is the runtime name reported by preview.getStatus.
//
// Implementations must be safe for concurrent use.
type Port interface {
	Mount(ctx context.Context, m Mount) error
	Await(ctx context.Context, revision int64, timeout time.Duration) (Ack, error)
	Runtime() string
}

// AckBoard is the acknowledgement bookkeeping a Port needs: Publish records the newest ack,
// Await waits for one at or after a revision. It is safe for concurrent use; the zero value
// is ready.
type AckBoard struct {
	mu      sync.Mutex
	latest  Ack
	has     bool
	changed chan struct{} // closed and replaced on every Publish
}

// Publish records ack when it is not older than the newest ack so far, and wakes waiters.
// It reports whether the ack was recorded.
func (b *AckBoard) Publish(ack Ack) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.has && ack.Revision < b.latest.Revision {
		return false
	}
	b.latest, b.has = ack, true
	if b.changed != nil {
		close(b.changed)
		b.changed = nil
	}
	return true
}

// Latest returns the newest ack and whether there is one.
func (b *AckBoard) Latest() (Ack, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.latest, b.has
}

// Await implements Port.Await over the published acks.
func (b *AckBoard) Await(ctx context.Context, revision int64, timeout time.Duration) (Ack, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		b.mu.Lock()
		if b.has && b.latest.Revision >= revision {
			a := b.latest
			b.mu.Unlock()
			return a, nil
		}
		if b.changed == nil {
			b.changed = make(chan struct{})
		}
		ch := b.changed
		b.mu.Unlock()
		select {
		case <-ch:
		case <-timer.C:
			return Ack{}, ErrAckTimeout
		case <-ctx.Done():
			return Ack{}, ctx.Err()
		}
	}
}

// RuntimeReport is one run-time report of a mounted page ({revision, kind, url, detail}):
// kind ReportBlocked (a request the network policy refused), ReportMissing (a workspace URL
// without a file) or ReportLimit (something an opaque-origin frame cannot do). url and
// detail are at most MaxConsoleTextChars code points.
type RuntimeReport struct {
	Revision int64  `json:"revision"`
	Kind     string `json:"kind"`
	URL      string `json:"url"`
	Detail   string `json:"detail,omitempty"`
}

// RuntimeObserver is implemented by a Port whose pages really run (the browser's iframe):
// RuntimeReports are the current mount's reports (at most MaxRuntimeReports), and
// NavigatedAway reports whether the current mount's document navigated away from the
// workspace page (its message when so). preview.getStatus shows both.
//
// Shown is what the frame shows for revision, when the port knows better than the last
// acknowledgement: "waiting" while a mount of revision (a page change too) has not answered,
// "error" with its message when the page of revision failed after its acknowledgement (an
// uncaught error or rejection), was discarded because it never answered, or navigated away;
// ok is false when the port has nothing to add (acknowledged and running, or another
// revision). preview.getStatus reports it, so a model reads what the user sees in the status
// line (design.md §5.30).
type RuntimeObserver interface {
	RuntimeReports() []RuntimeReport
	NavigatedAway() (message string, away bool)
	Shown(revision int64) (status, message string, ok bool)
}

// AckTimeoutMessage is the preview message of a revision whose mount did not answer within
// timeout and whose frame the browser's port discarded (RuntimeObserver.Shown):
// workspace.getStatus and preview.getStatus then say "error" with it rather than "waiting"
// for an answer that will not come.
func AckTimeoutMessage(revision int64, timeout time.Duration) string {
	return fmt.Sprintf("The preview did not acknowledge revision %d within %d ms; Refresh the preview.", revision, timeout.Milliseconds())
}
