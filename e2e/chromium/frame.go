package chromium

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// ErrNoChildFrame is returned by EvalInFrame when the page has no child frame yet.
var ErrNoChildFrame = errors.New("chromium: the page has no child frame")

// EvalInFrame evaluates expr in the main world of the page's first child frame (the
// sandboxed preview: out of reach of the parent's JavaScript by design) and decodes its JSON
// value into T. The main world is the page's own: expr sees its globals (a test step may call
// a function of the page) as well as its DOM and computed styles.
//
// Desktop Chromium isolates sandboxed frames in their own process (an "iframe" target that
// the page's frame tree does not reach); EvalInFrame then attaches to that target instead
// (detaching, never closing, when done). The headless shell keeps them in the page's process
// (chromium.Shell): the frame is in the page's frame tree, and its main world is the
// execution context the tab recorded for it. The two paths give the same answers.
func EvalInFrame[T any](tab *Tab, timeout time.Duration, expr string) (T, error) {
	ctx, cancel := context.WithTimeout(tab.Ctx, timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, inChildFrame[T](tab, expr))
	if !errors.Is(err, ErrNoChildFrame) {
		return v, err
	}
	infos, terr := chromedp.Targets(ctx)
	if terr != nil {
		return v, terr
	}
	pageID := chromedp.FromContext(tab.Ctx).Target.TargetID
	info := ownFrameTarget(infos, pageID)
	if info != nil {
		fctx, fcancel := chromedp.NewContext(tab.Ctx, chromedp.WithTargetID(info.TargetID), chromedp.WithDetachOnCancel())
		defer fcancel()
		tctx, tcancel := context.WithTimeout(fctx, timeout)
		defer tcancel()
		return chromedp.Run(tctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	}
	return v, err
}

// ownFrameTarget is the "iframe" target that is a child frame of the page pageID, or nil.
// Tests run in parallel tabs, so an iframe target of another tab must never be taken: a
// target names its parent by ParentID (the parent target) or ParentFrameID (the parent
// frame; a page's main frame has the page's target id). One that names neither is taken only
// when it is the page's browser context's only iframe target.
func ownFrameTarget(infos []*target.Info, pageID target.ID) *target.Info {
	var pageCtx cdp.BrowserContextID
	for _, info := range infos {
		if info.TargetID == pageID {
			pageCtx = info.BrowserContextID
		}
	}
	var unnamed []*target.Info
	for _, info := range infos {
		switch {
		case info.Type != "iframe":
		case info.ParentID != "":
			if info.ParentID == pageID {
				return info
			}
		case info.ParentFrameID != "":
			if string(info.ParentFrameID) == string(pageID) {
				return info
			}
		case pageCtx != "" && info.BrowserContextID == pageCtx:
			unnamed = append(unnamed, info)
		}
	}
	if len(unnamed) == 1 {
		return unnamed[0]
	}
	return nil
}

// errNoMainWorld: the child frame's main world has not been announced yet (its document is
// still being created); WaitInFrame tries again.
var errNoMainWorld = errors.New("chromium: the child frame's main world is not known yet")

// inChildFrame evaluates expr in the main world of the first child frame of the page's own
// frame tree (its execution context as recorded by tab).
func inChildFrame[T any](tab *Tab, expr string) chromedp.Action[T] {
	return chromedp.Action[T](func(ctx context.Context, t *chromedp.Target) (T, error) {
		var zero T
		tree, err := cdp.Call(ctx, t, page.GetFrameTree, cdp.Empty{})
		if err != nil {
			return zero, err
		}
		if tree.FrameTree == nil || len(tree.FrameTree.ChildFrames) == 0 {
			return zero, ErrNoChildFrame
		}
		frame := tree.FrameTree.ChildFrames[0].Frame
		world := tab.mainWorld(string(frame.ID))
		if world == "" {
			return zero, errNoMainWorld
		}
		yes := true
		res, err := cdp.Call(ctx, t, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, UniqueContextID: world, ReturnByValue: &yes, AwaitPromise: &yes})
		if err != nil {
			return zero, err
		}
		if res.ExceptionDetails != nil {
			return zero, fmt.Errorf("chromium: frame eval: %s", res.ExceptionDetails.Text)
		}
		var v T
		if res.Result == nil || len(res.Result.Value) == 0 {
			return zero, errors.New("chromium: frame eval returned no value")
		}
		if err := json.Unmarshal(res.Result.Value, &v); err != nil {
			return zero, err
		}
		return v, nil
	})
}

// WaitInFrame polls EvalInFrame every 25 ms until it returns want (compared as JSON) or the
// timeout ends; it returns the last value seen.
func WaitInFrame[T comparable](tab *Tab, timeout time.Duration, expr string, want T) (T, error) {
	deadline := time.Now().Add(timeout)
	var last T
	var err error
	for time.Now().Before(deadline) {
		last, err = EvalInFrame[T](tab, 5*time.Second, expr)
		if err == nil && last == want {
			return last, nil
		}
		time.Sleep(25 * time.Millisecond)
	}
	if err == nil {
		err = fmt.Errorf("chromium: frame value %v, want %v", last, want)
	}
	return last, err
}
