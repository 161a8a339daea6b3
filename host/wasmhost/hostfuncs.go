package wasmhost

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// HostModuleName is the import module of every studio host function.
const HostModuleName = "webcoding"

// hostFuncs are the functions of the "webcoding" host module. To add one: append an entry here
// (Fn is a Go func whose first two parameters are context.Context and api.Module, followed by
// the wasm parameters as int32/uint32/int64/uint64/float32/float64), declare the matching
// //go:wasmimport in wasm/adapters/hostcall, and reach the calling Host with hostFrom(ctx).
// Strings cross as (ptr, len uint32) into guest memory: read them with readString during the
// call, never keep the pointer.
var hostFuncs = []struct {
	Name string
	Fn   any
}{
	// log(level i32, ptr u32, len u32): one diagnostic line to Options.Log.
	{"log", hostLog},
	// The functions below answer through (buf u32, cap u32, out u32): the result bytes go
	// into buf, their length into out[0] (u32 LE); a successful result longer than cap is
	// parked, out[1] = its ticket and the status is 7 (statusTooLarge). They return a status
	// (folder.go: 0 ok, 1 stale, 2 missing, 3 permission, 4 escapes, 5 failed, 6 none); an
	// error's result bytes are its message.
	//
	// info(buf, cap, out): {"folder":{"name","scopeId"}|null,"downloads":bool,"http":bool,
	// "durable":bool}.
	{"info", hostInfo},
	// folder_permission(buf, cap, out): the folder's permission state as text.
	{"folder_permission", hostFolderPermission},
	// folder_tree(buf, cap, out): [{"path","size"}...] (host/folder.DirFolder.ReadTree).
	{"folder_tree", hostFolderTree},
	// folder_read(path, pathLen, buf, cap, out): the file's bytes.
	{"folder_read", hostFolderRead},
	// folder_write(path, pathLen, data, dataLen, buf, cap, out): atomic replace.
	{"folder_write", hostFolderWrite},
	// folder_delete(path, pathLen, buf, cap, out): remove; an absent file is success.
	{"folder_delete", hostFolderDelete},
	// download(name, nameLen, mime, mimeLen, data, dataLen, buf, cap, out): write into
	// Options.DownloadsDir under the name's last segment.
	{"download", hostDownload},
	// http_do(req, reqLen, buf, cap, out): one HTTP request for the guest (http.go,
	// Options.HTTP); the host adds Authorization and refuses origins not allowed.
	{"http_do", hostHTTPDo},
	// durable_read(req, reqLen, buf, cap, out), durable_cas(req, reqLen, rec, recLen, buf,
	// cap, out), durable_list(req, reqLen, buf, cap, out): Options.Durable (durable.go);
	// records cross as durable.EncodeRecord bytes; status 11 = invalid record.
	{"durable_read", hostDurableRead},
	{"durable_cas", hostDurableCAS},
	{"durable_list", hostDurableList},
	// result_take(ticket, buf, cap) → status: copy a parked result (exactly its length) into
	// buf and forget it.
	{"result_take", hostResultTake},
}

func instantiateHostModule(ctx context.Context, rt wazero.Runtime) error {
	b := rt.NewHostModuleBuilder(HostModuleName)
	for _, f := range hostFuncs {
		b = b.NewFunctionBuilder().WithFunc(f.Fn).Export(f.Name)
	}
	// poll(): the cancellation point of an instrumented module (poll.go).
	b = b.NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(hostPoll), nil, nil).Export(pollImport)
	if _, err := b.Instantiate(ctx); err != nil {
		return fmt.Errorf("wasmhost: instantiate host module %q: %w", HostModuleName, err)
	}
	return nil
}

type hostKey struct{}

// hostFrom returns the Host whose call is running on ctx (host functions run on the context
// of the export call or instantiation that reached them), or nil.
func hostFrom(ctx context.Context) *Host {
	h, _ := ctx.Value(hostKey{}).(*Host)
	return h
}

// readString copies size bytes at ptr out of guest memory.
func readString(m api.Module, ptr, size uint32) (string, bool) {
	b, ok := m.Memory().Read(ptr, size)
	if !ok {
		return "", false
	}
	return string(b), true
}

func hostLog(ctx context.Context, m api.Module, level int32, ptr, size uint32) {
	h := hostFrom(ctx)
	if h == nil {
		return
	}
	msg, ok := readString(m, ptr, size)
	if !ok {
		msg = fmt.Sprintf("(log message out of guest memory: ptr=%d len=%d)", ptr, size)
	}
	msg = strings.ToValidUTF8(msg, "\uFFFD")
	msg = strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(msg)
	h.logf("module %s: %s", slog.Level(level), msg)
}
