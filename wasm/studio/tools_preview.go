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
		persist
	}
	refreshOut struct {
		ActivePath string `json:"activePath"`
		Revision   int64  `json:"revision"`
		Preview    string `json:"preview"`
		persist
	}
)

func (e *studioSession) setTheme(ctx context.Context, c *registry.Call) (any, error) {
	in, err := decode[inTheme](c)
	if err != nil {
		return nil, err
	}
	res, terr := e.m.SetTheme(ctx, wcall(c, nil), in.Theme)
	if terr != nil {
		return nil, terr
	}
	if err := e.synced(ctx, res); err != nil {
		return nil, err
	}
	return themeOut{Theme: in.Theme, ActivePath: res.ActivePath, Revision: res.Revision,
		Preview: workspace.PreviewSynced, persist: e.meta(ctx)}, nil
}

func (e *studioSession) addFeature(ctx context.Context, c *registry.Call) (any, error) {
	in, err := decode[inFeature](c)
	if err != nil {
		return nil, err
	}
	res, terr := e.m.AddFeature(ctx, wcall(c, nil), in.Title, in.Description)
	if terr != nil {
		return nil, terr
	}
	if err := e.synced(ctx, res); err != nil {
		return nil, err
	}
	return titleOut{Title: in.Title, ActivePath: res.ActivePath, Revision: res.Revision,
		Preview: workspace.PreviewSynced, persist: e.meta(ctx)}, nil
}

func (e *studioSession) updateHero(ctx context.Context, c *registry.Call) (any, error) {
	in, err := decode[inHero](c)
	if err != nil {
		return nil, err
	}
	res, terr := e.m.UpdateHero(ctx, wcall(c, nil), in.Title, in.Subtitle)
	if terr != nil {
		return nil, terr
	}
	if err := e.synced(ctx, res); err != nil {
		return nil, err
	}
	return titleOut{Title: in.Title, ActivePath: res.ActivePath, Revision: res.Revision,
		Preview: workspace.PreviewSynced, persist: e.meta(ctx)}, nil
}

func (e *studioSession) previewStatus(ctx context.Context, c *registry.Call) (any, error) {
	st := e.m.Preview()
	return previewStatusOut{Revision: st.Revision, Status: st.Status, Message: st.Message, Runtime: e.preview.Runtime(),
		Diagnostics: preview.Diagnose(previewFiles(e.m.Files())), persist: e.meta(ctx)}, nil
}

func (e *studioSession) refresh(ctx context.Context, c *registry.Call) (any, error) {
	active, rev := e.m.RefreshPreview()
	if err := e.sync(ctx, rev, false, true); err != nil {
		return nil, err
	}
	return refreshOut{ActivePath: active, Revision: rev, Preview: workspace.PreviewSynced, persist: e.meta(ctx)}, nil
}
