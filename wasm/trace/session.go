package trace

// SessionLabel is the selector's and the export's text for a session id ("" = direct calls
// from the UI).
func SessionLabel(s string) string {
	if s == "" {
		return "UI (direct)"
	}
	return s
}
