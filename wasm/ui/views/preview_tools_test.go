package views

import (
	"testing"
)

// TestDeviceSize: presets, rotation, desktop fills the pane, custom sides are clamped.
func TestDeviceSize(t *testing.T) {
	cases := []struct {
		d    Device
		w, h int
	}{
		{Device{Kind: DevicePhone}, 390, 844}, {Device{Kind: DevicePhone, Rotated: true}, 844, 390},
		{Device{Kind: DeviceTablet}, 820, 1180}, {Device{}, 0, 0}, {Device{Kind: DeviceDesktop, Rotated: true}, 0, 0},
		{Device{Kind: DeviceCustom, Width: 10, Height: 1e6}, MinDeviceSide, MaxDeviceSide},
		{Device{Kind: DeviceCustom, Width: 500, Height: 300, Rotated: true}, 300, 500},
	}
	for _, c := range cases {
		if w, h := c.d.Size(); w != c.w || h != c.h {
			t.Errorf("%+v: %d×%d, want %d×%d", c.d, w, h, c.w, c.h)
		}
	}
}
