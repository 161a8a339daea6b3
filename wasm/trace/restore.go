package trace

// Restore puts rows kept from an earlier page (wasm/chats: metadata only, issue 16) before
// the rows this trace already has, as finished history: their trace ids (and parent ids) are
// prefixed "kept-" so they never collide with this page's, a row that was still running when
// the page went away becomes cancelled with the summary "interrupted by a reload", and the
// usual bounds (MaxRows, MaxBytes) apply — restored rows are the oldest, so they go first.
// Rows without a trace id or a name are skipped. Argument and result texts are not part of
// ExportRow, so a restored row has none.
func (t *Trace) Restore(rows []ExportRow) {
	t.mu.Lock()
	defer t.mu.Unlock()
	kept := make([]*Row, 0, len(rows))
	for _, er := range rows {
		if er.TraceID == "" || er.Name == "" {
			continue
		}
		r := &Row{ExportRow: er}
		r.TraceID = "kept-" + bound(er.TraceID)
		if er.ParentID != "" {
			r.ParentID = "kept-" + bound(er.ParentID)
		}
		r.ToolCallID, r.SessionID, r.Name = bound(er.ToolCallID), bound(er.SessionID), bound(er.Name)
		r.Method, r.Source, r.Mode, r.ErrorCode = bound(er.Method), bound(er.Source), bound(er.Mode), bound(er.ErrorCode)
		r.Summary = bound(er.Summary)
		if r.Status == StatusRunning || r.Status == "" {
			r.Status, r.Summary = StatusCancelled, "interrupted by a reload"
		}
		kept = append(kept, r)
	}
	if len(kept) == 0 {
		return
	}
	t.rows = append(kept, t.rows...)
	for _, r := range kept {
		t.bytes += r.size()
		t.sessionDelta(r.SessionID, 1)
	}
	t.version++
	t.trim()
}
