package trace

import (
	"encoding/json"
	"time"
)

// ExportSchemaVersion names the export format.
const ExportSchemaVersion = "webcoding-trace-export.v1"

// ExportDoc is the export document:
//
//	{"schemaVersion": "webcoding-trace-export.v1", "exportedAt": "…", "session"?: "s",
//	 "total": 40, "omitted": 12, "rows": [ExportRow…]}
//
// rows (oldest first) are every selected row when they fit in MaxExportBytes; otherwise prompt
// runs (agent.request rows with their calls) first, then other rows, then the page's own reads,
// newest first within each, never a row whose parent is left out (fitExport); omitted counts
// the rows of the selection left out.
type ExportDoc struct {
	SchemaVersion string      `json:"schemaVersion"`
	ExportedAt    time.Time   `json:"exportedAt"`
	Session       string      `json:"session,omitempty"`
	Total         int         `json:"total"`
	Omitted       int         `json:"omitted"`
	Rows          []ExportRow `json:"rows"`
}

// Export returns the metadata-only export of the rows f selects (f.Recent is honoured), as
// indented JSON of at most MaxExportBytes bytes. It never contains argument or result text.
func (t *Trace) Export(f Filter, at time.Time) []byte {
	rows := t.Rows(f)
	doc := ExportDoc{SchemaVersion: ExportSchemaVersion, ExportedAt: at.UTC(), Total: len(rows), Rows: []ExportRow{}}
	if f.BySession {
		doc.Session = SessionLabel(f.Session)
	}
	out := make([]ExportRow, len(rows))
	for i, r := range rows {
		out[i] = r.ExportRow
	}
	return fitExport(doc, rows, out)
}

// fitExport picks the rows of the export when they do not all fit in MaxExportBytes. Rows go
// in units — an agent.request row with the calls it brackets, any other row alone — and a
// row whose parent is not in the selection is left out (an export never holds a parentId it
// does not contain). Units are kept by priority, newest first within each: prompt runs
// (agent.request units), then every other row, then the page's own reads (UIRead). The kept
// rows stay in their order; omitted counts the rest.
func fitExport(doc ExportDoc, rows []Row, out []ExportRow) []byte {
	at := make(map[string]int, len(rows))
	for i, r := range rows {
		at[r.TraceID] = i
	}
	// root of each row: follow parentIds (bounded); -1 when a parent is missing.
	root := make([]int, len(rows))
	for i := range rows {
		j, ok := i, true
		for steps := 0; rows[j].ParentID != "" && steps < len(rows); steps++ {
			p, found := at[rows[j].ParentID]
			if !found {
				ok = false
				break
			}
			j = p
		}
		root[i] = -1
		if ok {
			root[i] = j
		}
	}
	type unit struct {
		members []int
		tier    int
		size    int
	}
	units := map[int]*unit{}
	var order []int // unit roots, oldest first
	for i := range rows {
		r := root[i]
		if r < 0 {
			continue
		}
		u := units[r]
		if u == nil {
			tier := 1
			switch {
			case rows[r].Kind == KindAgent:
				tier = 0
			case UIRead(rows[r]):
				tier = 2
			}
			u = &unit{tier: tier}
			units[r] = u
			order = append(order, r)
		}
		b, _ := json.MarshalIndent(out[i], "  ", " ")
		u.members = append(u.members, i)
		u.size += len(b) + 4 // ",\n  " between rows
	}
	budget := MaxExportBytes - len(encode(doc, nil, len(rows)))
	var chosen []int // unit roots in the order they were chosen
	used := 0
	for tier := 0; tier <= 2; tier++ {
		for k := len(order) - 1; k >= 0; k-- {
			if u := units[order[k]]; u.tier == tier && used+u.size <= budget {
				used += u.size
				chosen = append(chosen, order[k])
			}
		}
	}
	for {
		keep := make([]bool, len(rows))
		n := 0
		for _, r := range chosen {
			for _, i := range units[r].members {
				keep[i] = true
				n++
			}
		}
		kept := make([]ExportRow, 0, n)
		for i, k := range keep {
			if k {
				kept = append(kept, out[i])
			}
		}
		b := encode(doc, kept, len(rows)-n)
		if len(b) <= MaxExportBytes || len(chosen) == 0 {
			return b
		}
		chosen = chosen[:len(chosen)-1] // the estimate was short: drop the last unit chosen
	}
}

func encode(doc ExportDoc, rows []ExportRow, omitted int) []byte {
	doc.Omitted = omitted
	if rows == nil {
		rows = []ExportRow{}
	}
	doc.Rows = rows
	b, _ := json.MarshalIndent(doc, "", " ")
	return b
}
