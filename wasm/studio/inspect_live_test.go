package studio

import (
	"context"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/rpcsession"
)

// livePort is a fakePort whose frame answers preview.inspect (preview.LiveInspector).
type livePort struct {
	fakePort
	sel  preview.Selection
	err  error
	asks []int64
}

func (l *livePort) InspectLive(ctx context.Context, rev int64, selector string) (preview.Selection, string, error) {
	l.asks = append(l.asks, rev)
	return l.sel, "index.html", l.err
}

// TestInspectLive: a port whose page runs answers preview.inspect (computed true, styles,
// box); a revision that moved meanwhile is PREVIEW_REVISION_SUPERSEDED (retryable); a page
// that is not running falls back to the parsed markup with a note; an unusable selector never
// reaches the frame.
func TestInspectLive(t *testing.T) {
	styles := map[string]string{}
	for _, p := range preview.ComputedStyleProps {
		styles[p] = "0px"
	}
	port := &livePort{fakePort: fakePort{answer: synced}, sel: preview.Selection{
		Element: preview.Element{Selector: "#hero-title", Tag: "h1", Text: "Live", OuterHTML: "<h1>Live</h1>", Ancestors: []string{}, Matches: 1, Line: 12},
		Styles:  styles, Box: preview.Box{X: 1, Y: 2, Width: 3, Height: 4}}}
	s := session(t, Ports{Preview: port}, rpcsession.Config{})
	out := ok(t, call(t, s.Registry, ToolPreviewInspect, map[string]any{"selector": "#hero-title"}))
	box, _ := out["box"].(map[string]any)
	if out["computed"] != true || out["text"] != "Live" || box["height"] != float64(4) || out["line"] != float64(12) ||
		len(out["styles"].(map[string]any)) != len(preview.ComputedStyleProps) || !strings.Contains(out["note"].(string), "running preview page") {
		t.Fatalf("live inspect %v", out)
	}

	port.err = preview.ErrRevisionMoved
	res := call(t, s.Registry, ToolPreviewInspect, map[string]any{"selector": "h1"})
	if !res.IsError || res.Error.Code != mcp.CodePreviewRevisionSuperseded || !res.Error.Retryable {
		t.Fatalf("moved revision: %+v", res)
	}

	port.err = preview.ErrNotLive
	out = ok(t, call(t, s.Registry, ToolPreviewInspect, map[string]any{"selector": "#hero-title"}))
	if out["computed"] != false || out["box"] != nil || out["text"] != "Sketch, ship and share in one canvas" || !strings.Contains(out["note"].(string), "not running") {
		t.Fatalf("not live: %v", out)
	}

	port.err = preview.ErrInspectTimeout
	if res := call(t, s.Registry, ToolPreviewInspect, map[string]any{"selector": "h1"}); !res.IsError || res.Error.Code != mcp.CodePreviewRuntimeError || !res.Error.Retryable {
		t.Fatalf("timeout: %+v", res)
	}
	port.err = &preview.SelectionError{Field: "box", Reason: "x"}
	if out := ok(t, call(t, s.Registry, ToolPreviewInspect, map[string]any{"selector": "h1"})); out["computed"] != false || !strings.Contains(out["note"].(string), "could not be read") {
		t.Fatalf("malformed answer: %v", out)
	}
	port.err = &preview.SelectorError{Reason: "syntax"}
	if res := call(t, s.Registry, ToolPreviewInspect, map[string]any{"selector": "h1"}); !res.IsError || res.Error.Code != mcp.CodeToolValidationFailed {
		t.Fatalf("browser refused selector: %+v", res)
	}

	n := len(port.asks)
	if res := call(t, s.Registry, ToolPreviewInspect, map[string]any{"selector": "p::before"}); !res.IsError || res.Error.Code != mcp.CodeToolValidationFailed {
		t.Fatalf("pseudo-element: %+v", res)
	}
	if len(port.asks) != n {
		t.Fatal("an unusable selector reached the frame")
	}
}
