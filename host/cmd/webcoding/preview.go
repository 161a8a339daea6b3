package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
)

func init() {
	register(&command{
		Name:    "preview",
		Usage:   "[--dir DIR] [--out FILE] [--module PATH] [--host-timeout D]",
		Summary: `compile the preview document; print {"entry","revision","diagnostics","bytes"}`,
		Run:     runPreview,
	})
	register(&command{
		Name:    "export",
		Usage:   "(--out FILE | --zip FILE) [--dir DIR] [--module PATH] [--host-timeout D]",
		Summary: `write the standalone HTML export (CSS/JS inlined, assets as data: URLs) to FILE, or with --zip the whole workspace as a ZIP; print {"out","bytes","diagnostics"} or {"zip","bytes","files"}`,
		Run:     runExport,
	})
}

// runPreview compiles the workspace (--dir, else the seed) with preview/compile — the preview
// compiler of REFERENCE §5, bridge and headless nonce included — and prints one line
// {"entry","revision","diagnostics":[...],"bytes"} (bytes: the document's length in bytes).
// With --out the compiled document is written to FILE.
//
// Errors (exit 1): the module cannot start or refuses the compile; FILE cannot be written.
func runPreview(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("preview", e)
	ws := addWorkspaceFlags(fs, false)
	outFile := fs.String("out", "", "write the compiled HTML document to `FILE`")
	hf := addHostFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkTarget("--out", *outFile); err != nil {
		return err
	}
	if err := ws.checkDir(); err != nil {
		return err
	}
	ws.apply(hf)
	raw, err := sessionMethod(ctx, e, hf, "preview/compile")
	if err != nil {
		return err
	}
	var res struct {
		Entry       json.RawMessage `json:"entry"`
		Revision    json.RawMessage `json:"revision"`
		Diagnostics json.RawMessage `json:"diagnostics"`
		Bytes       json.RawMessage `json:"bytes"`
		HTML        *string         `json:"html"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || res.HTML == nil || res.Entry == nil || res.Revision == nil || res.Diagnostics == nil || res.Bytes == nil {
		return fmt.Errorf("preview/compile: the module answered something that is not a compile result: %v: %.200q", err, raw)
	}
	if *outFile != "" {
		if err := writeFileAtomic(*outFile, []byte(*res.HTML)); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
	}
	line, err := marshal(struct {
		Entry       json.RawMessage `json:"entry"`
		Revision    json.RawMessage `json:"revision"`
		Diagnostics json.RawMessage `json:"diagnostics"`
		Bytes       json.RawMessage `json:"bytes"`
	}{res.Entry, res.Revision, res.Diagnostics, res.Bytes})
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(append(line, '\n'))
	return err
}

// runExport writes the standalone HTML export of the workspace (preview/export) to --out and
// prints {"out": FILE, "bytes": N, "diagnostics": [...]}: diagnostics are preview/compile's
// for the same workspace (REFERENCE §5.4: missing, blocked or unsupported references the
// export leaves as they are), each also written to stderr as one warning line.
//
// With --zip FILE instead of --out, it writes the whole workspace as a ZIP archive
// (workspace/archive) and prints {"zip": FILE, "bytes": N, "files": N} (transfer.go).
//
// Errors: exit 2 without --out or --zip, with both, when FILE is a symbolic link (dangling or
// not) or a directory, or when FILE resolves inside --dir (it would write into the workspace's
// own files); FILE is written atomically (temporary file + rename: a failed write keeps the old
// file); exit 1 when the module cannot start, the workspace has
// no HTML entry (the core refuses the export), or FILE cannot be written.
func runExport(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("export", e)
	ws := addWorkspaceFlags(fs, false)
	outFile := fs.String("out", "", "the HTML `FILE` to write (outside --dir; --out or --zip is required)")
	zipFile := fs.String("zip", "", "instead of --out: write the whole workspace as a ZIP `FILE` (workspace/archive; outside --dir)")
	hf := addHostFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *outFile == "" && *zipFile == "" {
		return usagef("--out FILE is required (or --zip FILE)")
	}
	if *outFile != "" && *zipFile != "" {
		return usagef("--out and --zip cannot be combined: run export once for each")
	}
	if ws.dir != "" && *zipFile != "" && within(ws.dir, *zipFile) {
		return usagef("--zip %s is inside --dir %s: the archive would be written into the workspace's own files; choose a file outside it", *zipFile, ws.dir)
	}
	if ws.dir != "" && within(ws.dir, *outFile) {
		return usagef("--out %s is inside --dir %s: the export would be written into the workspace's own files; choose a file outside it", *outFile, ws.dir)
	}
	for _, t := range []struct{ flag, file string }{{"--out", *outFile}, {"--zip", *zipFile}} {
		if err := checkTarget(t.flag, t.file); err != nil {
			return err
		}
	}
	if err := ws.checkDir(); err != nil {
		return err
	}
	ws.apply(hf)
	h, err := e.newHost(ctx, e, hf)
	if err != nil {
		return err
	}
	defer h.Close(context.WithoutCancel(ctx))
	c := &rpcClient{h: h}
	if *zipFile != "" { // transfer.go
		return writeZip(ctx, e, c, *zipFile)
	}
	compiled, err := rpcMethod(ctx, c, "preview/compile")
	if err != nil {
		return err
	}
	var comp struct {
		Diagnostics []previewDiagnostic `json:"diagnostics"`
	}
	if err := json.Unmarshal(compiled, &comp); err != nil || comp.Diagnostics == nil {
		return fmt.Errorf("preview/compile: the module answered something that is not a compile result: %v: %.200q", err, compiled)
	}
	raw, err := rpcMethod(ctx, c, "preview/export")
	if err != nil {
		return err
	}
	var res struct {
		HTML *string `json:"html"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || res.HTML == nil {
		return fmt.Errorf("preview/export: the module answered something that is not {html}: %v", err)
	}
	if err := writeFileAtomic(*outFile, []byte(*res.HTML)); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	for _, d := range comp.Diagnostics {
		fmt.Fprintf(e.stderr, "webcoding export: warning: %s\n", d)
	}
	line, err := marshal(struct {
		Out         string              `json:"out"`
		Bytes       int                 `json:"bytes"`
		Diagnostics []previewDiagnostic `json:"diagnostics"`
	}{*outFile, len(*res.HTML), comp.Diagnostics})
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(append(line, '\n'))
	return err
}

// previewDiagnostic is one preview compiler diagnostic (REFERENCE §5.4), as preview/compile
// answers it.
type previewDiagnostic struct {
	Kind          string `json:"kind"`
	SourcePath    string `json:"sourcePath"`
	RequestedPath string `json:"requestedPath"`
	Message       string `json:"message"`
}

// String is the diagnostic as one stderr line: "SOURCE: KIND REQUESTED: MESSAGE", control
// characters quoted.
func (d previewDiagnostic) String() string {
	return fmt.Sprintf("%s: %s %s: %s", clean(d.SourcePath), clean(d.Kind), strconv.Quote(d.RequestedPath), clean(d.Message))
}

// clean quotes s when it holds anything but printable characters, so a workspace file cannot
// write terminal controls to stderr.
func clean(s string) string {
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// within reports whether path resolves to dir or somewhere under it, following symbolic links
// of what exists (path itself need not exist).
func within(dir, path string) bool {
	d, err := resolve(dir)
	if err != nil {
		return false
	}
	p, err := resolve(path)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// checkTarget refuses (usage error, exit 2) an output FILE that is a symbolic link — dangling
// or not, its target could lie inside the workspace or anywhere else — or an existing
// directory. An empty file is no target and passes.
func checkTarget(flag, file string) error {
	if file == "" {
		return nil
	}
	fi, err := os.Lstat(file)
	if err != nil {
		return nil // absent: written fresh
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return usagef("%s %s is a symbolic link: the CLI never writes through a link; name a regular file", flag, file)
	}
	if fi.IsDir() {
		return usagef("%s %s is a directory; name a file", flag, file)
	}
	return nil
}

// writeFileAtomic writes data to file through a temporary file in the same directory, synced
// and renamed over file (mode 0644), so a failed write leaves any existing file as it was and
// a symbolic link at file is replaced, never followed. Errors: the directory is not writable,
// the write, sync or rename fails (the temporary file is removed).
func writeFileAtomic(file string, data []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// resolve makes p absolute and resolves symbolic links in its longest existing prefix.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for cur := abs; ; {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(real, rest), nil
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// sessionMethod starts a host and calls one parameterless session method ({} params).
func sessionMethod(ctx context.Context, e *env, hf *hostFlags, method string) (json.RawMessage, error) {
	h, err := e.newHost(ctx, e, hf)
	if err != nil {
		return nil, err
	}
	defer h.Close(context.WithoutCancel(ctx))
	return rpcMethod(ctx, &rpcClient{h: h}, method)
}

// rpcMethod calls one parameterless session method ({} params) on c; a JSON-RPC error is an
// error naming the method.
func rpcMethod(ctx context.Context, c *rpcClient, method string) (json.RawMessage, error) {
	raw, rerr, err := c.call(ctx, method, []byte(`{}`))
	if err != nil {
		return nil, err
	}
	if rerr != nil {
		return nil, fmt.Errorf("%s: the core answered %v", method, rerr)
	}
	return raw, nil
}
