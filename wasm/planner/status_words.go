package planner

import (
	"encoding/json"
	"fmt"
	"strings"
)

// StatusWords says a status result in words (issue 14 item 7: the status recipes show what they
// fetched, not only that a tool ran). tool is ToolGetStatus or ToolPreviewStatus and sc that
// call's structuredContent; ok false for another tool or an unreadable result.
//
//	workspace: "Workspace canvas-landing at revision 7: 5 files, index.html open, 1 unsaved
//	            change (styles.css); saved in this browser (IndexedDB); no folder linked."
//	preview:   "Preview at revision 7: acknowledged (runtime: sandbox iframe)." (or "not
//	            acknowledged yet (runtime: …)", or "error: <message>"); it never says it
//	            refreshed anything.
func StatusWords(tool string, sc json.RawMessage) (string, bool) {
	switch tool {
	case ToolGetStatus:
		var st struct {
			RootName     string   `json:"rootName"`
			ActivePath   string   `json:"activePath"`
			Revision     int64    `json:"revision"`
			FileCount    int      `json:"fileCount"`
			DirtyPaths   []string `json:"dirtyPaths"`
			DeletedPaths []string `json:"deletedPaths"`
			StorageMode  string   `json:"storageMode"`
			StorageError string   `json:"storageError"`
			Filesystem   struct {
				FolderLinked bool   `json:"folderLinked"`
				Permission   string `json:"permission"`
			} `json:"filesystem"`
		}
		if json.Unmarshal(sc, &st) != nil {
			return "", false
		}
		var b strings.Builder
		fmt.Fprintf(&b, "Workspace %s at revision %d: %d file%s", st.RootName, st.Revision, st.FileCount, plural(st.FileCount))
		if st.ActivePath != "" {
			fmt.Fprintf(&b, ", %s open", st.ActivePath)
		}
		if n := len(st.DirtyPaths) + len(st.DeletedPaths); st.Filesystem.FolderLinked && n > 0 {
			fmt.Fprintf(&b, ", %d change%s not yet written to the folder (%s)", n, plural(n), strings.Join(append(append([]string{}, st.DirtyPaths...), st.DeletedPaths...), ", "))
		}
		switch st.StorageMode {
		case "indexed-db":
			b.WriteString("; saved in this browser (IndexedDB)")
		case "memory":
			b.WriteString("; kept in memory only, not saved in this browser")
			if st.StorageError != "" {
				b.WriteString(" (" + st.StorageError + ")")
			}
		default:
			b.WriteString("; storage " + st.StorageMode)
		}
		if st.Filesystem.FolderLinked {
			b.WriteString("; a folder is linked (permission " + st.Filesystem.Permission + ").")
		} else {
			b.WriteString("; no folder linked.")
		}
		return b.String(), true
	case ToolPreviewStatus:
		var st struct {
			Revision int64  `json:"revision"`
			Status   string `json:"status"`
			Message  string `json:"message"`
			Runtime  string `json:"runtime"`
		}
		if json.Unmarshal(sc, &st) != nil {
			return "", false
		}
		what := st.Status
		runtime := ""
		if st.Runtime != "" {
			runtime = " (runtime: " + st.Runtime + ")"
		}
		switch st.Status {
		case "synced":
			what = "acknowledged" + runtime
		case "waiting":
			what = "not acknowledged yet" + runtime
		case "error":
			what = "error: " + st.Message
		}
		return fmt.Sprintf("Preview at revision %d: %s.", st.Revision, what), true
	}
	return "", false
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
