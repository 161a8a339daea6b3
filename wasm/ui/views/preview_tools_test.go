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

// TestParseSide (new-user test of issue 17): a custom side is a number as a number input
// accepts it, rounded to whole pixels, within MinDeviceSide..MaxDeviceSide; anything else is
// refused with a sentence naming the field, the input and the range — never clamped silently.
func TestParseSide(t *testing.T) {
	for in, want := range map[string]int{"390": 390, " 640 ": 640, "300.7": 301, "1e3": 1000, "200": MinDeviceSide, "4000": MaxDeviceSide, "199.5": 200} {
		if got, err := ParseSide("Width", in); err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"0":      "Width 0 is out of range; enter a number from 200 to 4000 CSS pixels.",
		"-5":     "Width -5 is out of range; enter a number from 200 to 4000 CSS pixels.",
		"123456": "Width 123456 is out of range; enter a number from 200 to 4000 CSS pixels.",
		"199.4":  "Width 199.4 is out of range; enter a number from 200 to 4000 CSS pixels.",
		"abc":    `Width "abc" is not a number; enter one from 200 to 4000 CSS pixels.`,
		"NaN":    `Width "NaN" is not a number; enter one from 200 to 4000 CSS pixels.`,
		"Inf":    `Width "Inf" is not a number; enter one from 200 to 4000 CSS pixels.`,
		"":       "Width needs a number from 200 to 4000 CSS pixels.",
	} {
		if got, err := ParseSide("Width", in); err == nil || err.Error() != want {
			t.Errorf("%q: %d, %v; want the error %q", in, got, err, want)
		}
	}
}

func TestPickedStylesAndBoxText(t *testing.T) {
	got := StylesText([]string{"display", "color", "font-size"}, map[string]string{"color": "rgb(1, 2, 3)", "display": "block", "font-size": " "})
	if got != "display: block; color: rgb(1, 2, 3)" {
		t.Errorf("StylesText = %q", got)
	}
	if got := BoxText(12.4, 39.6, 320, 47.5); got != "x 12, y 40, 320×48 px" {
		t.Errorf("BoxText = %q", got)
	}
}
