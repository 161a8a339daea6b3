//go:build wasip1 && hosttest

package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"time"

	"github.com/webcoding/studio/wasm/adapters/hostcall"
	"github.com/webcoding/studio/wasm/workspace"
)

// Test-only behaviour of the entry, compiled in only with the "hosttest" build tag (SPEC §2.17:
// shipped builds never contain it). host/wasmhost's tests use it to exercise paths the core
// cannot reach on purpose. Requests start with "#hosttest:", which is not JSON, so they can never
// collide with a real request:
//
//	#hosttest:echo<bytes>     answers <bytes> unchanged (byte-exact round trip)
//	#hosttest:log:<msg>       logs <msg> through webcoding.log at level 4, answers "logged"
//	#hosttest:spin            loops forever without calling anything (CPU-bound hang)
//	#hosttest:sleep           sleeps for an hour (blocked in poll_oneoff)
//	#hosttest:panic           panics on the handle goroutine
//	#hosttest:exit            exits the module with status 3
//	#hosttest:time            answers the guest wall clock (RFC 3339, nanoseconds)
//	#hosttest:folder<json>    runs one FolderAdapter method on the host's folder through the
//	                          hostcall adapter (see folderOp); answers folderResult JSON
func init() {
	intercept = func(req []byte) ([]byte, bool) {
		s, ok := strings.CutPrefix(string(req), "#hosttest:")
		if !ok {
			return nil, false
		}
		switch {
		case strings.HasPrefix(s, "echo"):
			return req[len("#hosttest:echo"):], true
		case strings.HasPrefix(s, "log:"):
			hostcall.Log(4, s[len("log:"):])
			return []byte("logged"), true
		case s == "spin":
			for n := 0; ; n++ {
				if n < 0 {
					break
				}
			}
			return []byte("unreachable"), true
		case s == "sleep":
			time.Sleep(time.Hour)
			return []byte("slept"), true
		case s == "panic":
			panic("hosttest panic")
		case s == "exit":
			os.Exit(3)
		case strings.HasPrefix(s, "folder"):
			return folderOp([]byte(s[len("folder"):])), true
		case s == "time":
			return []byte(time.Now().Format(time.RFC3339Nano)), true
		}
		return nil, false
	}
}

// folderOp is one FolderAdapter call requested by a host test: {"op": "info" | "permission" |
// "tree" | "read" | "write" | "delete", "path"?, "data"? (base64)}.
type folderReq struct {
	Op   string `json:"op"`
	Path string `json:"path"`
	Data []byte `json:"data"`
}

// folderResult answers a folderOp. Err is "" on success, else one of "stale", "missing",
// "permission", "escapes", "none" (no folder) or "other", with Message the error text.
type folderResult struct {
	Err        string       `json:"err,omitempty"`
	Message    string       `json:"message,omitempty"`
	Name       string       `json:"name,omitempty"`
	ScopeID    string       `json:"scopeId,omitempty"`
	Permission string       `json:"permission,omitempty"`
	Data       []byte       `json:"data,omitempty"`
	Entries    []folderFile `json:"entries,omitempty"`
}

type folderFile struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
	Data []byte `json:"data"`
}

func folderOp(raw []byte) []byte {
	var req folderReq
	res := folderResult{}
	ctx := context.Background()
	if err := json.Unmarshal(raw, &req); err != nil {
		res.Err, res.Message = "other", err.Error()
	} else if folder == nil {
		res.Err = "none"
	} else {
		var err error
		switch req.Op {
		case "info":
			res.Name, res.ScopeID = folder.Name(), folder.ScopeID()
		case "permission":
			res.Permission = string(folder.Permission(ctx))
		case "tree":
			var entries []workspace.ImportEntry
			entries, err = folder.ReadTree(ctx)
			for _, e := range entries {
				var b []byte
				if b, err = e.Read(ctx); err != nil {
					break
				}
				res.Entries = append(res.Entries, folderFile{Path: e.Path, Size: e.Size, Data: b})
			}
		case "read":
			res.Data, err = folder.ReadFile(ctx, req.Path)
		case "write":
			err = folder.WriteFile(ctx, req.Path, req.Data)
		case "delete":
			err = folder.DeleteFile(ctx, req.Path)
		default:
			err = errors.New("unknown op " + req.Op)
		}
		if err != nil {
			res.Message = err.Error()
			switch {
			case errors.Is(err, workspace.ErrFolderStale):
				res.Err = "stale"
			case errors.Is(err, workspace.ErrFolderFileMissing):
				res.Err = "missing"
			case errors.Is(err, workspace.ErrFolderPermission):
				res.Err = "permission"
			case errors.Is(err, workspace.ErrFolderPathEscapes):
				res.Err = "escapes"
			case errors.Is(err, workspace.ErrFolderNotAFile):
				res.Err = "not-a-file"
			default:
				res.Err = "other"
			}
		}
	}
	b, _ := json.Marshal(res)
	return b
}
