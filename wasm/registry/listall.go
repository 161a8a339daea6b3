package registry

import (
	"context"
	"errors"
	"fmt"

	"github.com/webcoding/studio/wasm/mcp"
)

// DefaultMaxPages is how many tools/list pages ListAllTools follows unless told otherwise
// (REFERENCE §4).
const DefaultMaxPages = 1000

// UnlimitedPages, as ListAllOptions.MaxPages, follows cursors until the last page.
const UnlimitedPages = -1

// ListAllOptions tune ListAllTools. The zero value follows at most DefaultMaxPages pages.
type ListAllOptions struct {
	// MaxPages caps the pages fetched: 0 means DefaultMaxPages, UnlimitedPages (-1) means no
	// cap; any other negative value is an error.
	MaxPages int
}

// ErrRepeatedCursor is returned when a server hands back a cursor it already returned, which
// would otherwise loop forever.
var ErrRepeatedCursor = errors.New("registry: tools/list returned a cursor it had already returned")

// ErrTooManyPages is returned when more than MaxPages pages would be needed.
var ErrTooManyPages = errors.New("registry: tools/list needs more pages than allowed")

// ListPageFunc fetches one tools/list page for a cursor ("" for the first page).
type ListPageFunc func(ctx context.Context, cursor string) (*mcp.ListToolsResult, error)

// ListAllTools follows nextCursor until the last page and returns every tool, in order. Every
// consumer of the catalog (provider adapters, the MCP server, the tool catalog panel) uses it,
// so a paged server is never read as its first page only.
//
// # Errors
//   - ErrRepeatedCursor: a cursor came back twice
//   - ErrTooManyPages: more than opts.MaxPages pages
//   - a page with a tool whose inputSchema is missing or not a JSON object (issue 14)
//   - whatever fetch returns, wrapped with the page number
func ListAllTools(ctx context.Context, fetch ListPageFunc, opts ListAllOptions) ([]mcp.Tool, error) {
	max := opts.MaxPages
	switch {
	case max == 0:
		max = DefaultMaxPages
	case max < 0 && max != UnlimitedPages:
		return nil, fmt.Errorf("registry: MaxPages %d is not a page count", max)
	}
	var all []mcp.Tool
	seen := map[string]bool{}
	cursor := ""
	for page := 1; ; page++ {
		if max != UnlimitedPages && page > max {
			return nil, fmt.Errorf("%w (%d)", ErrTooManyPages, max)
		}
		res, err := fetch(ctx, cursor)
		if err != nil {
			return nil, fmt.Errorf("registry: tools/list page %d: %w", page, err)
		}
		if res == nil {
			return nil, fmt.Errorf("registry: tools/list page %d: empty result", page)
		}
		for i, t := range res.Tools {
			if k := mcp.JSONKind(t.InputSchema); k != "object" {
				return nil, fmt.Errorf("registry: tools/list page %d: tool %d (%q) has no inputSchema object (got %s); refusing the page", page, i, t.Name, k)
			}
		}
		all = append(all, res.Tools...)
		if res.NextCursor == "" {
			return all, nil
		}
		if seen[res.NextCursor] || res.NextCursor == cursor {
			return nil, ErrRepeatedCursor
		}
		seen[res.NextCursor] = true
		cursor = res.NextCursor
	}
}

// ListAll is ListAllTools over this registry's own ListTools.
func (r *Registry) ListAll(ctx context.Context) ([]mcp.Tool, error) {
	return ListAllTools(ctx, func(ctx context.Context, cursor string) (*mcp.ListToolsResult, error) {
		res, terr := r.ListTools(ctx, mcp.ListToolsParams{Cursor: cursor})
		if terr != nil {
			return nil, terr
		}
		return res, nil
	}, ListAllOptions{MaxPages: UnlimitedPages})
}
