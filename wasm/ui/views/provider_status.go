package views

import "strconv"

// Provider settings texts (issue 16; docs/design.md §5.16).

// CatalogCount is the settings dialog's catalog line for a loaded catalog: tools is the
// number of models that say they call tools, unknown the number whose catalog says nothing
// about tools (local servers list bare ids), free how many of both are free, shown how many
// the list shows, skipped the malformed entries left out. A model is only called
// "tool-capable" when its catalog says so, e.g.
//
//	"3 tool-capable models (2 free) · showing 3"
//	"15 models, tools unknown (0 free) · showing 15"
//	"2 tool-capable models and 4 with tools unknown (0 free) · showing 6 · 1 malformed entry skipped"
func CatalogCount(tools, unknown, free, shown, skipped int) string {
	var s string
	switch {
	case unknown == 0:
		s = strconv.Itoa(tools) + " " + plural(tools, "tool-capable model", "tool-capable models")
	case tools == 0:
		s = strconv.Itoa(unknown) + " " + plural(unknown, "model", "models") + ", tools unknown"
	default:
		s = strconv.Itoa(tools) + " " + plural(tools, "tool-capable model", "tool-capable models") + " and " + strconv.Itoa(unknown) + " with tools unknown"
	}
	s += " (" + strconv.Itoa(free) + " free) · showing " + strconv.Itoa(shown)
	if skipped > 0 {
		s += " · " + strconv.Itoa(skipped) + " " + plural(skipped, "malformed entry", "malformed entries") + " skipped"
	}
	return s
}

// KeyStatus is the settings dialog's key line for the provider the dialog shows (the preset
// selected there, not only what was saved): label is the preset's label, origin the endpoint's
// origin ("" when the endpoint is not valid yet), model the model id, hasKey whether a key is
// in the key field, keyOptional whether the endpoint is on this computer
// (openrouter.KeyOptional), memory whether browser storage is blocked.
func KeyStatus(label, origin, model string, hasKey, keyOptional, memory bool) string {
	var s string
	switch {
	case hasKey && origin != "":
		s = "A key is set for " + origin + "; prompts run through " + label + " (" + model + ")."
	case hasKey:
		s = "A key is set; prompts run through " + label + " (" + model + ") once the endpoint is valid."
	case keyOptional:
		s = "A server on this computer needs no key; prompts run through " + label + " (" + model + ")."
	default:
		s = label + " needs a key here; without one, prompts run through the local agent."
	}
	if memory {
		s += " Browser storage is blocked: settings last for this tab only."
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
