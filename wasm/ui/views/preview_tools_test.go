package views

import (
	"strings"
	"testing"
	"unicode/utf8"
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

// TestAuditAskText: the rule, impact, help, revision and selectors are named; the text is
// bounded however long the selectors are.
func TestAuditAskText(t *testing.T) {
	s := AuditAskText(AuditViolation{ID: "image-alt", Impact: "critical", Help: "Images must have alternative text", Count: 3, Selectors: []string{"img", "#logo"}}, 7)
	for _, want := range []string{"revision 7", "Images must have alternative text", "image-alt", "critical", "3 element(s)", "img, #logo, …"} {
		if !strings.Contains(s, want) {
			t.Errorf("%q lacks %q", s, want)
		}
	}
	long := AuditAskText(AuditViolation{ID: "x", Impact: "minor", Help: "h", Count: 5, Selectors: []string{strings.Repeat("é", 300), strings.Repeat("a", 300), strings.Repeat("b", 300)}}, 1)
	if n := utf8.RuneCountInString(long); n != MaxAskChars || !strings.HasSuffix(long, "…") {
		t.Fatalf("long text has %d characters", n)
	}
}
