package workspace

import "context"

// TransformFile rewrites one existing text file atomically: with the lock held and after the
// expectedRevision guard, edit receives the file's normalized path and current source and
// returns the new source (or the call's error, returned as is). The result is stored like a
// write — revision+1 and a checkpoint even when the source did not change, since the caller
// asked for a change and its revision contract is "every successful mutation adds one" (the
// realtime surface's rule, docs/design.md §5.24). operation names the call in error details.
//
// Limit: the new source ≤ MaxSourceChars code points (SPEC §2.14).
//
// # Errors
//   - WORKSPACE_READ_ONLY, WORKSPACE_REVISION_CONFLICT (retryable): see guard
//   - WORKSPACE_PATH_INVALID, WORKSPACE_FILE_NOT_FOUND
//   - WORKSPACE_FILE_TYPE_CONFLICT: an asset; {path, operation, actualKind:"asset", expectedKind:"text"}
//   - WORKSPACE_SOURCE_LIMIT: {limit: 80000}
//   - whatever edit returns
func (m *Manager) TransformFile(ctx context.Context, call Call, path, operation string, edit func(path, source string) (string, error)) (Result, error) {
	return m.mutate(call, func() (Result, error) {
		p, i, err := m.textFile(path, operation)
		if err != nil {
			return Result{}, err
		}
		out, err := edit(p, m.files[i].Source)
		if err != nil {
			return Result{}, err
		}
		if err := checkSource("Source", out); err != nil {
			return Result{}, err
		}
		rev := m.setSource(ctx, call, i, out)
		return Result{Path: p, ActivePath: m.active, Revision: rev, Changed: true}, nil
	})
}
