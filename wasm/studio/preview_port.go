package studio

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/workspace"
)

// PreviewAckTimeout is how long a mutation waits for the preview to acknowledge the revision
// it produced (REFERENCE §4: 2,500 ms).
const PreviewAckTimeout = 2500 * time.Millisecond

// Preview runtimes reported by preview.getStatus.
const (
	// RuntimeSandboxIframe is the browser's runtime: the sandboxed iframe ran the document.
	RuntimeSandboxIframe = "sandbox iframe"
	// RuntimeHeadless is the headless hosts' runtime: the document was compiled and its
	// diagnostics computed, but no script ran (SPEC §2.6).
	RuntimeHeadless = "headless (not executed)"
)

// HeadlessNonce is the mount nonce the headless preview compiles with. There is no frame to
// post messages, so a fixed value keeps the compiled document deterministic (SPEC §2.15).
const HeadlessNonce = "headless"

// Mount is one request to show the workspace at a revision: {Revision, Files, Remount}.
// Files are the snapshot's files in workspace order (shared, read-only). Remount asks for a
// fresh mount even when Revision is already mounted (preview.refresh).
type Mount struct {
	Revision int64
	Files    []preview.File
	Remount  bool
}

// Ack is the preview's acknowledgement of one revision.
//
//   - Status is workspace.PreviewSynced or workspace.PreviewError.
//   - Message is the runtime error text (status error only; the manager bounds it to 240
//     code points).
//   - Runtime names what produced the ack (RuntimeSandboxIframe, RuntimeHeadless).
type Ack struct {
	Revision int64
	Status   string
	Message  string
	Runtime  string
}

// ErrAckTimeout is returned by PreviewPort.Await when no acknowledgement for the revision (or
// a newer one) arrived in time.
var ErrAckTimeout = errors.New("studio: preview acknowledgement timed out")

// PreviewPort is the core's port to the preview (SPEC §1: "mount revision → wait for ack").
// The browser host implements it with the sandboxed iframe (srcdoc + bridge messages); the
// headless hosts use HeadlessPreview.
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
type PreviewPort interface {
	Mount(ctx context.Context, m Mount) error
	Await(ctx context.Context, revision int64, timeout time.Duration) (Ack, error)
	Runtime() string
}

// AckBoard is the acknowledgement bookkeeping a PreviewPort needs: Publish records the newest
// ack, Await waits for one at or after a revision. It is safe for concurrent use; the zero
// value is ready.
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

// Await implements PreviewPort.Await over the published acks.
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

// HeadlessPreview is the PreviewPort of hosts without a browser (SPEC §2.6): Mount compiles
// the document with preview.Compile (bridge included, nonce HeadlessNonce) and acknowledges the
// revision at once as synced with runtime RuntimeHeadless. It never claims that scripts ran.
type HeadlessPreview struct {
	board AckBoard
	mu    sync.Mutex
	last  preview.Result
	rev   int64
}

// NewHeadlessPreview returns a HeadlessPreview with nothing mounted.
func NewHeadlessPreview() *HeadlessPreview { return &HeadlessPreview{} }

// Mount compiles m.Files and acknowledges m.Revision.
func (h *HeadlessPreview) Mount(ctx context.Context, m Mount) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	h.mu.Lock()
	if h.rev == m.Revision && h.rev != 0 && !m.Remount {
		h.mu.Unlock()
		return nil
	}
	res := preview.Compile(m.Files, preview.Options{Revision: m.Revision, Nonce: HeadlessNonce, Bridge: true})
	if m.Revision >= h.rev {
		h.last, h.rev = res, m.Revision
	}
	h.mu.Unlock()
	h.board.Publish(Ack{Revision: m.Revision, Status: workspace.PreviewSynced, Runtime: RuntimeHeadless})
	return nil
}

// Await waits for the ack of revision (see PreviewPort).
func (h *HeadlessPreview) Await(ctx context.Context, revision int64, timeout time.Duration) (Ack, error) {
	return h.board.Await(ctx, revision, timeout)
}

// Runtime returns RuntimeHeadless.
func (h *HeadlessPreview) Runtime() string { return RuntimeHeadless }

// Document returns the last compiled document and its revision (0 when nothing was mounted).
func (h *HeadlessPreview) Document() (preview.Result, int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.last, h.rev
}

// previewFiles converts workspace files to the compiler's shape.
func previewFiles(files []*workspace.File) []preview.File {
	out := make([]preview.File, len(files))
	for i, f := range files {
		out[i] = preview.File{Path: f.Path, Language: f.Language, Kind: f.Kind, MimeType: f.MimeType, Source: f.Source, Data: f.Data}
	}
	return out
}

func itoa[T int | int64](n T) string { return strconv.FormatInt(int64(n), 10) }
