package surfaceview

// The example table of the palettes: the initial field values of each card, chosen so that
// every card runs as is on the surface's seed (palette_test.go runs every card of both
// catalogs on a fresh headless session with exactly these values). A field not named here
// starts empty (an optional field is then left out of the call; a required enum starts at its
// first value).
var examples = map[string]map[string]string{
	// realtime (wasm/websurface: the three-file seed)
	"web.readFile":   {"path": "index.html"},
	"web.writeFile":  {"path": "notes.txt", "source": "Written from the tool palette.\n"},
	"web.applyPatch": {"path": "index.html", "search": "Try it", "replace": "Start now", "occurrence": "first"},
	"web.setTheme":   {"theme": "emerald"},
	"web.addFeature": {"title": "Offline first", "description": "The page keeps working without a network."},
	"web.updateHero": {"title": "Build in realtime", "subtitle": "Every palette card is one registry call, acknowledged by the preview."},
	// live (wasm/livesurface: the built-in examples, the web starter open)
	"editor.openFile":    {"path": "style.css"},
	"editor.saveFile":    {"path": "index.html"},
	"editor.setDocument": {"source": "<!doctype html>\n<title>Palette</title>\n<h1>Set from the tool palette</h1>\n"},
	"editor.applyPatch":  {"search": "Web starter", "replace": "Live starter", "occurrence": "all"},
	"editor.setScenario": {"scenario": "invalid"},
}

// Example returns the initial field values of tool's card (nil for none). The map is a copy.
func Example(tool string) map[string]string {
	e := examples[tool]
	if e == nil {
		return nil
	}
	out := make(map[string]string, len(e))
	for k, v := range e {
		out[k] = v
	}
	return out
}

// PromptHint is the example prompt the composer's placeholder shows for a surface.
func PromptHint(surface string) string {
	if surface == Live {
		return "switch to the invalid scenario"
	}
	return "make it emerald"
}
