package trace

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/mcp"
)

// CallSummary is the safe one-line summary of a finished call (REFERENCE §8): the error code
// for a failure (followed by " · applied…" when its details say the change landed anyway,
// SPEC §2.13), otherwise by tool —
//
//	workspace.getStatus, workspace.listFiles   "<n> files · revision r"
//	workspace.reset                            "reset <root> · <n> files"
//	workspace.saveAll, workspace.saveCheckpoint "<n> saved · <m> deleted"
//	workspace.reloadFolder                     "<n> files reloaded · <k> skipped"
//	workspace.applyPatch                       "<path> · <n> replacements"
//	workspace.renameFile                       "a → b"
//	workspace.disconnectFolder                 "<filesystem mode>"
//	preview.setTheme                           "theme x"
//	preview.getStatus                          "status x"
//	preview.refresh                            "preview x"
//	anything else                              "<path> · revision r", "revision r" or ""
//
// It reads only counts, paths, names and revisions of structuredContent — never sources,
// search/replace text or messages.
func CallSummary(name string, res *mcp.CallToolResult) string {
	if res == nil {
		return "no result"
	}
	if res.IsError {
		if res.Error != nil && mcp.ValidCode(res.Error.Code) {
			return string(res.Error.Code) + appliedNote(res)
		}
		return "failed"
	}
	m := decodeObject(res.StructuredContent)
	if m == nil {
		return ""
	}
	rev := func() string {
		if r, ok := number(m["revision"]); ok {
			return "revision " + strconv.FormatInt(r, 10)
		}
		return ""
	}
	switch name {
	case "workspace.getStatus":
		n, _ := number(m["fileCount"])
		return join(plural(n, "file"), rev())
	case "workspace.listFiles":
		files, _ := m["files"].([]any)
		return join(plural(int64(len(files)), "file"), rev())
	case "workspace.reset":
		n, _ := number(m["fileCount"])
		return join("reset "+str(m["rootName"]), plural(n, "file"))
	case "workspace.saveAll", "workspace.saveCheckpoint":
		saved, _ := m["savedPaths"].([]any)
		deleted, _ := m["deletedPaths"].([]any)
		return strconv.Itoa(len(saved)) + " saved · " + strconv.Itoa(len(deleted)) + " deleted"
	case "workspace.reloadFolder":
		n, _ := number(m["fileCount"])
		skipped, _ := m["skipped"].([]any)
		return plural(n, "file") + " reloaded · " + strconv.Itoa(len(skipped)) + " skipped"
	case "workspace.applyPatch":
		n, _ := number(m["replacements"])
		return join(str(m["path"]), plural(n, "replacement"))
	case "workspace.renameFile":
		return str(m["fromPath"]) + " → " + str(m["toPath"])
	case "workspace.disconnectFolder":
		if fs, ok := m["filesystem"].(map[string]any); ok {
			return str(fs["mode"])
		}
	case "preview.setTheme":
		return "theme " + str(m["theme"])
	case "preview.getStatus":
		return "status " + str(m["status"])
	case "preview.refresh":
		return "preview " + str(m["preview"])
	}
	if p := str(m["path"]); p != "" {
		return join(p, rev())
	}
	return rev()
}

// appliedNote is the part of a failure's summary that says its change landed anyway (error
// details {applied: true, revision}, SPEC §2.13): " · applied, then cancelled while waiting for
// the preview · revision r" for TOOL_CANCELLED, " · applied · revision r" for any other code,
// "" when nothing was applied. It reads only the two detail fields.
func appliedNote(res *mcp.CallToolResult) string {
	var sc struct {
		Details struct {
			Applied  bool     `json:"applied"`
			Revision *float64 `json:"revision"`
		} `json:"details"`
	}
	if len(res.StructuredContent) == 0 || json.Unmarshal(res.StructuredContent, &sc) != nil || !sc.Details.Applied {
		return ""
	}
	note := " · applied"
	if res.Error.Code == mcp.CodeToolCancelled {
		note = " · applied, then cancelled while waiting for the preview"
	}
	if r, ok := number(ptrValue(sc.Details.Revision)); ok {
		note += " · revision " + strconv.FormatInt(r, 10)
	}
	return note
}

func ptrValue(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

// agentSummary is the summary of a finished agent.request row: "<n> tool call(s)", "<tool>
// failed · <CODE>", "<CODE>" (a provider failure before or between calls) or "cancelled".
func agentSummary(r *Row, res *mcp.CallToolResult) string {
	var sc struct {
		ToolCalls  *int   `json:"toolCalls"`
		FailedTool string `json:"failedTool"`
	}
	if res != nil && len(res.StructuredContent) > 0 {
		_ = json.Unmarshal(res.StructuredContent, &sc)
	}
	if sc.ToolCalls != nil && *sc.ToolCalls >= 0 {
		r.ToolCount = *sc.ToolCalls
	}
	switch {
	case r.Status == StatusCancelled:
		return "cancelled"
	case r.Status == StatusFailed && sc.FailedTool != "":
		return bound(sc.FailedTool) + " failed" + prefixed(" · ", r.ErrorCode)
	case r.Status == StatusFailed && r.ErrorCode != "":
		return r.ErrorCode
	case r.Status == StatusFailed:
		return "failed"
	}
	if r.ToolCount == 1 {
		return "1 tool call"
	}
	return strconv.Itoa(r.ToolCount) + " tool calls"
}

func prefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}

func number(v any) (int64, bool) {
	f, ok := v.(float64)
	if !ok || f != f || f > 1<<53 || f < -(1<<53) {
		return 0, false
	}
	return int64(f), true
}

func str(v any) string {
	s, _ := v.(string)
	if utf8.RuneCountInString(s) > 160 {
		s = string([]rune(s)[:160]) + "…"
	}
	return s
}

func plural(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.FormatInt(n, 10) + " " + word + "s"
}

func join(parts ...string) string {
	var out []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " · ")
}
