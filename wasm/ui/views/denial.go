package views

import (
	"strconv"
	"strings"
)

// DenialSummary rewrites a run summary's registry message for the calls the user denied
// during the run: "Tool "x" was denied by policy." becomes shown[x] ("Denied by you." or
// "Denied: you cancelled the run."). REFERENCE §3.2/§8 has one code for every deny decision
// (TOOL_POLICY_DENIED); the chat says who denied.
func DenialSummary(summary string, shown map[string]string) string {
	for name, msg := range shown {
		summary = strings.ReplaceAll(summary, "Tool "+strconv.Quote(name)+" was denied by policy.", msg)
	}
	return summary
}
