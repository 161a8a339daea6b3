package trace

import (
	"encoding/json"
	"time"
)

// ExportSchemaVersion names the export format.
const ExportSchemaVersion = "webcoding-trace-export.v1"

// ExportRow is a row without its details: identifiers, status, timing, counts, error code
// and summary (REFERENCE §8: the export drops argumentsText/resultText).
type ExportRow struct {
	TraceID    string    `json:"traceId"`
	ParentID   string    `json:"parentId,omitempty"`
	ToolCallID string    `json:"toolCallId,omitempty"`
	SessionID  string    `json:"sessionId,omitempty"`
	Kind       Kind      `json:"kind"`
	Method     string    `json:"method"`
	Name       string    `json:"name"`
	Source     string    `json:"source,omitempty"`
	Mode       string    `json:"mode,omitempty"`
	Status     Status    `json:"status"`
	StartedAt  time.Time `json:"startedAt"`
	DurationMs *int64    `json:"durationMs,omitempty"`
	ToolCount  int       `json:"toolCount,omitempty"`
	ErrorCode  string    `json:"errorCode,omitempty"`
	Retryable  *bool     `json:"retryable,omitempty"`
	Summary    string    `json:"summary,omitempty"`
}

// ExportDoc is the export document:
//
//	{"schemaVersion": "webcoding-trace-export.v1", "exportedAt": "…", "session"?: "s",
//	 "total": 40, "omitted": 12, "rows": [ExportRow…]}
//
// rows are the newest rows that fit in MaxExportBytes (oldest first); omitted counts the
// older rows of the selection left out.
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
		out[i] = ExportRow{TraceID: r.TraceID, ParentID: r.ParentID, ToolCallID: r.ToolCallID, SessionID: r.SessionID,
			Kind: r.Kind, Method: r.Method, Name: r.Name, Source: r.Source, Mode: r.Mode, Status: r.Status,
			StartedAt: r.StartedAt, DurationMs: r.DurationMs, ToolCount: r.ToolCount, ErrorCode: r.ErrorCode,
			Retryable: r.Retryable, Summary: r.Summary}
	}
	// Keep the newest rows that fit: the smallest start index whose document fits (binary
	// search; the size grows with the number of rows kept; no rows always fits).
	if b := encode(doc, out, 0); len(b) <= MaxExportBytes {
		return b
	}
	lo, hi := 1, len(out)
	best := encode(doc, nil, len(out))
	for lo < hi {
		mid := (lo + hi) / 2
		if b := encode(doc, out[mid:], mid); len(b) <= MaxExportBytes {
			best, hi = b, mid
		} else {
			lo = mid + 1
		}
	}
	return best
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
