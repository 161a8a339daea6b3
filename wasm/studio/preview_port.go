package studio

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/workspace"
)

// PreviewAckTimeout is how long a mutation waits for the preview to acknowledge the revision
// it produced (REFERENCE §4: 2,500 ms).
const PreviewAckTimeout = 2500 * time.Millisecond

// HeadlessNonce is the mount nonce the headless preview compiles with. There is no frame to
// post messages, so a fixed value keeps the compiled document deterministic (SPEC §2.15).
const HeadlessNonce = "headless"

// HeadlessPreview is the preview.Port (PreviewPort, SPEC §1) of hosts without a browser (SPEC §2.6): Mount compiles
// the document with preview.Compile (bridge included, nonce HeadlessNonce) and acknowledges the
// revision at once as synced with runtime preview.RuntimeHeadless. It never claims that scripts ran.
type HeadlessPreview struct {
	board preview.AckBoard
	mu    sync.Mutex
	last  preview.Result
	rev   int64
}

// NewHeadlessPreview returns a HeadlessPreview with nothing mounted.
func NewHeadlessPreview() *HeadlessPreview { return &HeadlessPreview{} }

// Mount compiles m.Files and acknowledges m.Revision.
func (h *HeadlessPreview) Mount(ctx context.Context, m preview.Mount) error {
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
	h.board.Publish(preview.Ack{Revision: m.Revision, Status: workspace.PreviewSynced, Runtime: preview.RuntimeHeadless})
	return nil
}

// Await waits for the ack of revision (see preview.Port).
func (h *HeadlessPreview) Await(ctx context.Context, revision int64, timeout time.Duration) (preview.Ack, error) {
	return h.board.Await(ctx, revision, timeout)
}

// Runtime returns preview.RuntimeHeadless.
func (h *HeadlessPreview) Runtime() string { return preview.RuntimeHeadless }

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

// snapshotPreviewFiles is the compiler's input for snapshot s: its files, then one
// preview.KindNotImported entry per file the last import or reload left out
// (workspace.Metadata.NotImported), whose Reason is workspace.NotImportedReason — so the
// preview names why a reference to such a file fails (docs/preview.md) instead of "missing".
func snapshotPreviewFiles(s workspace.Snapshot) []preview.File {
	out := previewFiles(s.Files)
	for _, n := range s.NotImported {
		out = append(out, preview.File{Path: n.Path, Kind: preview.KindNotImported, Reason: workspace.NotImportedReason(n)})
	}
	return out
}

func itoa[T int | int64](n T) string { return strconv.FormatInt(int64(n), 10) }
