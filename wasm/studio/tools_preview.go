package studio

import (
	"context"

	"github.com/webcoding/studio/wasm/preview"
	"github.com/webcoding/studio/wasm/registry"
	"github.com/webcoding/studio/wasm/workspace"
)

type (
	inTheme struct {
		Theme string `json:"theme"`
	}
	inFeature struct {
		Title       string `json:"title"`
		Description string `json:"description"`
	}
	inHero struct {
		Title    string  `json:"title"`
		Subtitle *string `json:"subtitle"` // absent: keep the page's subtitle
	}
)

type (
	themeOut struct {
		Theme      string `json:"theme"`
		ActivePath string `json:"activePath"`
		Revision   int64  `json:"revision"`
		Preview    string `json:"preview"`
		persist
	}
	titleOut struct {
		Title      string `json:"title"`
		ActivePath string `json:"activePath"`
		Revision   int64  `json:"revision"`
		Preview    string `json:"preview"`
		persist
	}
	previewStatusOut struct {
		Revision    int64                `json:"revision"`
		Status      string               `json:"status"`
		Message     string               `json:"message,omitempty"`
		Runtime     string               `json:"runtime"`
		Diagnostics []preview.Diagnostic `json:"diagnostics"`
		// RuntimeReports: what the running page reported (browser only; issue 13).
		RuntimeReports []preview.RuntimeReport `json:"runtimeReports,omitempty"`
		persist
	}
	refreshOut struct {
		ActivePath string `json:"activePath"`
		Revision   int64  `json:"revision"`
		Preview    string `json:"preview"`
		persist
	}
)

// visualEdit is the one body of the three visual preview tools (setTheme, addFeature,
// updateHero): decode the tool's input, apply the edit through the workspace manager, wait
// for the preview to acknowledge the new revision (sync), and shape the output from the
// input, the edit's result and the persistence meta.
func visualEdit[In any](ctx context.Context, e *studioSession, c *registry.Call,
	edit func(context.Context, workspace.Call, In) (workspace.Result, error),
	out func(In, workspace.Result, persist) any) (any, error) {
	in, err := decode[In](c)
	if err != nil {
		return nil, err
	}
	res, err := edit(ctx, wcall(c, nil), in)
	if err != nil {
		return nil, err
	}
	if err := e.synced(ctx, res); err != nil {
		return nil, err
	}
	return out(in, res, e.meta(ctx)), nil
}

// titled is the output of the tools that set a title (addFeature, updateHero).
func titled[In interface{ title() string }](in In, res workspace.Result, p persist) any {
	return titleOut{Title: in.title(), ActivePath: res.ActivePath, Revision: res.Revision, Preview: workspace.PreviewSynced, persist: p}
}

func (in inFeature) title() string { return in.Title }
func (in inHero) title() string    { return in.Title }

func (e *studioSession) setTheme(ctx context.Context, c *registry.Call) (any, error) {
	return visualEdit(ctx, e, c, func(ctx context.Context, call workspace.Call, in inTheme) (workspace.Result, error) {
		return e.m.SetTheme(ctx, call, in.Theme)
	}, func(in inTheme, res workspace.Result, p persist) any {
		return themeOut{Theme: in.Theme, ActivePath: res.ActivePath, Revision: res.Revision, Preview: workspace.PreviewSynced, persist: p}
	})
}

func (e *studioSession) addFeature(ctx context.Context, c *registry.Call) (any, error) {
	return visualEdit(ctx, e, c, func(ctx context.Context, call workspace.Call, in inFeature) (workspace.Result, error) {
		return e.m.AddFeature(ctx, call, in.Title, in.Description)
	}, titled[inFeature])
}

func (e *studioSession) updateHero(ctx context.Context, c *registry.Call) (any, error) {
	return visualEdit(ctx, e, c, func(ctx context.Context, call workspace.Call, in inHero) (workspace.Result, error) {
		return e.m.UpdateHero(ctx, call, in.Title, in.Subtitle)
	}, titled[inHero])
}

func (e *studioSession) previewStatus(ctx context.Context, c *registry.Call) (any, error) {
	st := e.shownPreview(e.m.Preview())
	out := previewStatusOut{Revision: st.Revision, Status: st.Status, Message: st.Message, Runtime: e.preview.Runtime(),
		Diagnostics: preview.Diagnose(snapshotPreviewFiles(e.m.Snapshot())), persist: e.meta(ctx)}
	if ro, ok := e.preview.(preview.RuntimeObserver); ok {
		out.RuntimeReports = ro.RuntimeReports()
	}
	return out, nil
}

func (e *studioSession) refresh(ctx context.Context, c *registry.Call) (any, error) {
	active, rev := e.m.RefreshPreview()
	if err := e.sync(ctx, rev, false, true); err != nil {
		return nil, err
	}
	return refreshOut{ActivePath: active, Revision: rev, Preview: workspace.PreviewSynced, persist: e.meta(ctx)}, nil
}
