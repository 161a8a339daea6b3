//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"syscall/js"

	"github.com/webcoding/studio/wasm/ui/views"
)

// Device sizes of the preview (issue 17; docs/design.md §5.18): Desktop (the frame fills the
// pane), Phone 390×844, Tablet 820×1180 and Custom (width × height within
// views.MinDeviceSide..MaxDeviceSide, read by views.ParseSide: other input is refused with a
// message beside the fields, which keep the applied size), each with Rotate. The frame keeps the chosen layout
// viewport (window.innerWidth inside is the width) and the shim scales it down to fit the pane
// (setDevice). A view setting, not a workspace operation and not a tool: it changes nothing a
// model could read or undo (docs/design.md §2.11). Remembered per workspace in the studio's
// localStorage under previewDeviceKey + the workspace's root name, as the "Allow internet"
// switch is.

const previewDeviceKey = "webcoding.preview.device:"

// deviceChoice (app.deviceState) is the preview's device size.
type deviceChoice struct {
	sync.Mutex
	d    views.Device
	note string // a refused custom size's message (views.ParseSide), until the next device action
}

func (a *app) currentDevice() views.Device {
	a.deviceState.Lock()
	defer a.deviceState.Unlock()
	return a.deviceState.d
}

// applyDevice records d, tells the shim the frame size and, when save, stores it for the
// workspace.
func (a *app) applyDevice(d views.Device, save bool) {
	switch d.Kind {
	case views.DevicePhone, views.DeviceTablet, views.DeviceCustom:
	default:
		d = views.Device{Kind: views.DeviceDesktop}
	}
	if d.Kind == views.DeviceCustom {
		d.Width, d.Height = views.ClampSide(d.Width), views.ClampSide(d.Height)
	} else {
		d.Width, d.Height = 0, 0
	}
	if d.Kind == views.DeviceDesktop {
		d.Rotated = false
	}
	a.deviceState.Lock()
	a.deviceState.d, a.deviceState.note = d, ""
	a.deviceState.Unlock()
	showSides(d)
	w, h := d.Size()
	if shim := js.Global().Get("webcodingPreview"); shim.Type() == js.TypeObject && shim.Get("setDevice").Type() == js.TypeFunction {
		shim.Call("setDevice", w, h)
	}
	if save {
		a.mu.Lock()
		root := a.st.rootName
		a.mu.Unlock()
		if b, err := json.Marshal(d); err == nil {
			storeSet(previewDeviceKey+root, string(b))
		}
	}
	a.markDirty()
}

// showSides puts the applied custom size back into the width and height fields: the morph
// leaves an input's typed value alone when its value attribute did not change, so a refused
// or rounded entry would otherwise stay beside the size actually applied.
func showSides(d views.Device) {
	if d.Kind != views.DeviceCustom {
		return
	}
	setInput("device-width", strconv.Itoa(views.ClampSide(d.Width))) // settings.go
	setInput("device-height", strconv.Itoa(views.ClampSide(d.Height)))
}

// customSize reads the custom width and height fields (views.ParseSide). A refused entry
// changes nothing: the message is shown beside the fields, which go back to the applied size.
func (a *app) customSize(d views.Device) (views.Device, bool) {
	w, err := views.ParseSide("Width", inputValue("device-width"))
	h, errH := views.ParseSide("Height", inputValue("device-height"))
	if err == nil {
		err = errH
	}
	if err != nil {
		a.deviceState.Lock()
		a.deviceState.note = err.Error()
		a.deviceState.Unlock()
		showSides(d)
		a.markDirty()
		return d, false
	}
	d.Kind, d.Width, d.Height, d.Rotated = views.DeviceCustom, w, h, false
	return d, true
}

func init() {
	registerFeature(&feature{
		name: "preview-device",
		start: func(a *app, ctx context.Context) {
			a.mu.Lock()
			root := a.st.rootName
			a.mu.Unlock()
			var d views.Device
			if v, ok := storeGet(previewDeviceKey + root); ok {
				_ = json.Unmarshal([]byte(v), &d) // a bad value is Desktop
			}
			a.applyDevice(d, false)
		},
		render: func(a *app) {
			a.deviceState.Lock()
			d, note := a.deviceState.d, a.deviceState.note
			a.deviceState.Unlock()
			if a.setRegion("preview-device", views.DeviceBarHTML(d, note)) {
				showSides(d)
			}
		},
		action: func(a *app, act uiAction) bool {
			d := a.currentDevice()
			switch act.Name {
			case "preview-device":
				kind := act.Data["device"]
				if kind == views.DeviceCustom && d.Kind != views.DeviceCustom {
					w, h := d.Size() // start from the size shown
					if w == 0 {
						w, h = 1280, 800
					}
					d.Width, d.Height, d.Rotated = w, h, false
				}
				d.Kind = kind
			case "preview-device-custom":
				var ok bool
				if d, ok = a.customSize(d); !ok {
					return true
				}
			case "preview-device-rotate":
				d.Rotated = !d.Rotated
			default:
				return false
			}
			a.applyDevice(d, true)
			return true
		},
	})
}
