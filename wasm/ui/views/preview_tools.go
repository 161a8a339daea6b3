package views

import (
	"math"
	"strconv"
	"strings"

	. "github.com/webcoding/studio/wasm/ui/markup"
)

// The preview's device sizes and accessibility audit (issue 17; docs/design.md §5.17, §5.18).

// Device presets: the layout viewport the frame gets, in CSS pixels (portrait). Desktop fills
// the pane; Custom takes a width and height within MinDeviceSide..MaxDeviceSide.
const (
	DeviceDesktop = "desktop"
	DevicePhone   = "phone"
	DeviceTablet  = "tablet"
	DeviceCustom  = "custom"
	MinDeviceSide = 200
	MaxDeviceSide = 4000
)

// DevicePresets are the fixed sizes (portrait width × height).
var DevicePresets = map[string][2]int{DevicePhone: {390, 844}, DeviceTablet: {820, 1180}}

// Device is the preview's device setting: Kind (DeviceDesktop, DevicePhone, DeviceTablet or
// DeviceCustom), the custom Width and Height, and Rotated (landscape). The scale the pane
// applies is shown by the preview shim in #device-scale (it follows the pane's size).
type Device struct {
	Kind    string `json:"kind"`
	Width   int    `json:"width,omitempty"`
	Height  int    `json:"height,omitempty"`
	Rotated bool   `json:"rotated,omitempty"`
}

// Size is the frame's layout viewport of d (width, height in CSS pixels), rotated when
// d.Rotated; 0, 0 for desktop (the frame fills the pane). Custom sides are clamped to
// MinDeviceSide..MaxDeviceSide.
func (d Device) Size() (int, int) {
	var w, h int
	switch d.Kind {
	case DevicePhone, DeviceTablet:
		w, h = DevicePresets[d.Kind][0], DevicePresets[d.Kind][1]
	case DeviceCustom:
		w, h = ClampSide(d.Width), ClampSide(d.Height)
	default:
		return 0, 0
	}
	if d.Rotated {
		w, h = h, w
	}
	return w, h
}

// ClampSide bounds a custom side to MinDeviceSide..MaxDeviceSide.
func ClampSide(n int) int {
	switch {
	case n < MinDeviceSide:
		return MinDeviceSide
	case n > MaxDeviceSide:
		return MaxDeviceSide
	}
	return n
}

// ParseSide reads a custom side as typed into its field (name: "Width" or "Height"): a
// decimal number of CSS pixels as a number input accepts it ("390", "300.7", "1e3"), rounded
// to the nearest whole pixel, that must lie within MinDeviceSide..MaxDeviceSide. Input out of
// that range is refused, not clamped (docs/design.md §5.18). Errors: one sentence naming the
// field, the input (cut to 20 characters) and the range; an empty field (a number input
// reports non-numeric text as empty) asks for a number.
func ParseSide(name, s string) (int, error) {
	s = strings.TrimSpace(s)
	rng := " from " + strconv.Itoa(MinDeviceSide) + " to " + strconv.Itoa(MaxDeviceSide) + " CSS pixels"
	if s == "" {
		return 0, sideError(name + " needs a number" + rng + ".")
	}
	shown := s
	if r := []rune(shown); len(r) > 20 {
		shown = string(r[:20]) + "…"
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, sideError(name + " \"" + shown + "\" is not a number; enter one" + rng + ".")
	}
	n := math.Round(f)
	if n < MinDeviceSide || n > MaxDeviceSide {
		return 0, sideError(name + " " + shown + " is out of range; enter a number" + rng + ".")
	}
	return int(n), nil
}

type sideError string

func (e sideError) Error() string { return string(e) }

// DeviceBarHTML is #preview-device: one toggle button per device, the custom width × height
// inputs (Custom only) holding the applied size, Rotate (not for desktop), the size shown and
// note (a refused custom size's ParseSide message; "" for none) as an alert.
func DeviceBarHTML(d Device, note string) HTML {
	var b Builder
	for _, k := range []struct{ kind, label string }{{DeviceDesktop, "Desktop"}, {DevicePhone, "Phone"}, {DeviceTablet, "Tablet"}, {DeviceCustom, "Custom"}} {
		pressed := "false"
		if d.Kind == k.kind || (k.kind == DeviceDesktop && d.Kind == "") {
			pressed = "true"
		}
		b.Elem("button", k.label, A("type", "button"), A("data-action", "preview-device"), A("data-device", k.kind),
			A("aria-pressed", pressed), A("id", "device-"+k.kind))
	}
	w, h := d.Size()
	if d.Kind == DeviceCustom {
		b.Open("span", A("class", "device-custom"))
		b.Void("input", A("type", "number"), A("id", "device-width"), A("aria-label", "Custom width in CSS pixels"),
			A("min", strconv.Itoa(MinDeviceSide)), A("max", strconv.Itoa(MaxDeviceSide)), A("value", strconv.Itoa(ClampSide(d.Width))))
		b.Text("×")
		b.Void("input", A("type", "number"), A("id", "device-height"), A("aria-label", "Custom height in CSS pixels"),
			A("min", strconv.Itoa(MinDeviceSide)), A("max", strconv.Itoa(MaxDeviceSide)), A("value", strconv.Itoa(ClampSide(d.Height))))
		b.Elem("button", "Apply", A("type", "button"), A("data-action", "preview-device-custom"), A("id", "device-apply"))
		b.Close("span")
	}
	if w > 0 {
		b.Elem("button", "Rotate", A("type", "button"), A("data-action", "preview-device-rotate"), A("id", "device-rotate"),
			A("aria-pressed", strconv.FormatBool(d.Rotated)), A("aria-label", "Rotate the device"))
		b.Elem("span", strconv.Itoa(w)+" × "+strconv.Itoa(h), A("class", "device-size muted"), A("id", "device-size"))
	}
	if note != "" {
		b.Elem("span", note, A("class", "device-note"), A("id", "device-note"), A("role", "alert"))
	}
	return b.HTML()
}

// AuditViolation is one rule of a preview.audit result as the panel shows it.
type AuditViolation struct {
	ID, Impact, Help, HelpURL string
	Count                     int
	Selectors                 []string
}

// AuditView is the audit panel's state: Running, the result's Revision and Violations (nil
// before the first audit), Truncated, and Err (a failed call's "[CODE] message").
type AuditView struct {
	Running    bool
	Done       bool
	Revision   int64
	Violations []AuditViolation
	Truncated  bool
	Err        string
}

// AuditHTML is #preview-audit: the Run button, the status line and the violations, each with
// its impact, help text, rule id, count, selectors and an "Ask to fix" button (data-arg: its
// index).
func AuditHTML(v AuditView) HTML {
	var b Builder
	label := "Run accessibility audit"
	if v.Done {
		label = "Audit again"
	}
	attrs := []Attr{A("type", "button"), A("data-action", "preview-audit"), A("id", "preview-audit-run")}
	if v.Running {
		attrs = append(attrs, A("disabled", "disabled"))
	}
	b.Elem("button", label, attrs...)
	status := ""
	switch {
	case v.Running:
		status = "Auditing the preview with axe-core…"
	case v.Err != "":
		status = v.Err
	case v.Done && len(v.Violations) == 0:
		status = "No accessibility violations found at revision " + strconv.FormatInt(v.Revision, 10) + "."
	case v.Done:
		n := 0
		for _, x := range v.Violations {
			n += x.Count
		}
		status = strconv.Itoa(len(v.Violations)) + " rule(s) violated by " + strconv.Itoa(n) + " element(s) at revision " + strconv.FormatInt(v.Revision, 10) + "."
		if v.Truncated {
			status += " More rules were left out."
		}
	}
	b.Elem("p", status, A("class", "audit-status"), A("id", "preview-audit-status"), A("role", "status"))
	if len(v.Violations) == 0 {
		return b.HTML()
	}
	b.Open("ul", A("class", "audit-list"), A("aria-label", "Accessibility violations"))
	for i, x := range v.Violations {
		b.Open("li", A("class", "audit-item impact-"+x.Impact), A("data-rule", x.ID))
		b.Elem("span", x.Impact, A("class", "audit-impact"))
		b.Text(" " + x.Help + " ")
		b.Elem("code", x.ID, A("class", "audit-rule"))
		b.Text(" · " + strconv.Itoa(x.Count) + " element(s)")
		if len(x.Selectors) > 0 {
			b.Open("ul", A("class", "audit-selectors"))
			for _, s := range x.Selectors {
				b.Open("li")
				b.Elem("code", s)
				b.Close("li")
			}
			b.Close("ul")
		}
		b.Open("div", A("class", "audit-actions"))
		b.Elem("button", "Ask to fix", A("type", "button"), A("data-action", "audit-ask"), A("data-arg", strconv.Itoa(i)),
			A("aria-label", "Ask to fix "+x.ID))
		if strings.HasPrefix(x.HelpURL, "https://") {
			b.Elem("a", "Rule help", A("href", x.HelpURL), A("target", "_blank"), A("rel", "noopener noreferrer"))
		}
		b.Close("div")
		b.Close("li")
	}
	b.Close("ul")
	return b.HTML()
}
