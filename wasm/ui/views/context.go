package views

import (
	"math"
	"strconv"
	"strings"

	. "github.com/webcoding/studio/wasm/ui/markup"
)

// ContextChip is one context chip above the prompt (issue 17): an element picked in the
// preview, a preview runtime error or an accessibility audit violation. Label is its short
// label; Context is exactly the text block the model will receive with the next prompt
// (planner.Attachment.ContextText), shown before sending; Kind is "element", "error" or
// "audit".
type ContextChip struct {
	Kind, Label, Context string
}

// ContextChipsHTML is #context-chips: one removable chip per attachment, each with its
// context block in a closed <details> ("Sent as context"), and nothing without chips. The
// remove buttons carry data-action "remove-chip" and data-index (0-based).
func ContextChipsHTML(chips []ContextChip) HTML {
	if len(chips) == 0 {
		return ""
	}
	var b Builder
	b.Open("ul", A("class", "context-chips-list"), A("aria-label", "Context sent with the next prompt"))
	for i, c := range chips {
		kind := "Element"
		switch c.Kind {
		case "error":
			kind = "Error"
		case "audit":
			kind = "Audit"
		}
		b.Open("li", A("class", "context-chip context-chip-"+c.Kind))
		b.Open("details")
		b.Open("summary")
		b.Elem("span", kind, A("class", "chip-kind"))
		b.Text(" ")
		b.Elem("span", c.Label, A("class", "chip-label"))
		b.Close("summary")
		b.Elem("pre", c.Context, A("class", "chip-context"), A("aria-label", "Sent as context"))
		b.Close("details")
		b.Elem("button", "×", A("type", "button"), A("class", "chip-remove"), A("data-action", "remove-chip"),
			A("data-index", strconv.Itoa(i)), A("aria-label", "Remove context "+c.Label))
		b.Close("li")
	}
	b.Close("ul")
	return b.HTML()
}

// StylesText is a picked element's computed styles for its context chip: "property: value"
// pairs joined by "; " in the order of props (preview.ComputedStyleProps), properties without
// a value left out.
func StylesText(props []string, styles map[string]string) string {
	var parts []string
	for _, p := range props {
		if v := strings.TrimSpace(styles[p]); v != "" {
			parts = append(parts, p+": "+v)
		}
	}
	return strings.Join(parts, "; ")
}

// BoxText is a picked element's box for its context chip, in CSS pixels rounded to whole
// ones: "x 12, y 40, 320×48 px".
func BoxText(x, y, w, h float64) string {
	r := func(f float64) string { return strconv.FormatFloat(math.Round(f), 'f', -1, 64) }
	return "x " + r(x) + ", y " + r(y) + ", " + r(w) + "×" + r(h) + " px"
}
