//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/ui/surfaceview"
)

// The tool palette: one card per tools/list entry, its form generated from the inputSchema
// (surfaceview.FieldsFromSchema, defaults from surfaceview.Example), Run = one tools/call in
// direct mode as the page, the result (structuredContent or the typed error) under the card.

// setField records a field's value as typed (no redraw: the field already shows it).
func (a *app) setField(tool, name, value string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, c := range a.st.cards {
		if c.def.Name != tool {
			continue
		}
		for i := range c.fields {
			if c.fields[i].Name == name {
				c.fields[i].Value = value
			}
		}
	}
}

// runCard runs tool with its card's current values.
func (a *app) runCard(ctx context.Context, tool string) {
	a.mu.Lock()
	var c *card
	for _, x := range a.st.cards {
		if x.def.Name == tool {
			c = x
		}
	}
	if c == nil || c.running {
		a.mu.Unlock()
		return
	}
	fields := append([]surfaceview.Field(nil), c.fields...)
	c.running = true
	a.mu.Unlock()
	a.markDirty()
	a.flushDraft(ctx) // typed text lands before the card's call
	res := &surfaceview.CardResult{}
	args, err := surfaceview.Arguments(fields)
	if err == nil {
		var raw json.RawMessage
		raw, err = a.call(ctx, tool, args, nil)
		res.JSON = jsonIndent(raw)
	}
	if err != nil {
		res.IsError = true
		var te *mcp.ToolError
		if errors.As(err, &te) {
			res.Code, res.Message, res.Retryable = string(te.Code), te.Message, te.Retryable
			if te.Details != nil {
				if d, err := json.Marshal(te.Details); err == nil {
					res.JSON = jsonIndent(d)
				}
			}
		} else {
			res.Code, res.Message = "INVALID_INPUT", err.Error()
		}
	}
	a.mu.Lock()
	c.running, c.result = false, res
	a.mu.Unlock()
	a.requestRefresh()
	a.markDirty()
}

// paletteView is the cards as the view draws them.
func paletteView(cards []*card) []surfaceview.ToolCard {
	out := make([]surfaceview.ToolCard, len(cards))
	for i, c := range cards {
		var hints []string
		if an := c.def.Annotations; an != nil {
			if an.ReadOnlyHint {
				hints = append(hints, "read-only")
			}
			if an.DestructiveHint {
				hints = append(hints, "destructive")
			}
			if an.IdempotentHint {
				hints = append(hints, "idempotent")
			}
		}
		out[i] = surfaceview.ToolCard{Name: c.def.Name, Description: c.def.Description, Hints: hints,
			Fields: append([]surfaceview.Field(nil), c.fields...), Running: c.running, Result: c.result}
	}
	return out
}
