package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
)

// writeZip writes the workspace as a ZIP archive (the core's workspace/archive: sorted paths,
// fixed timestamps, the current unsaved state) to file and prints {"zip": FILE, "bytes": N,
// "files": N} on stdout (export --zip).
//
// Errors: a JSON-RPC error of the core (a workspace over the archive limits), an answer that
// is not an archive result, or FILE that cannot be written.
func writeZip(ctx context.Context, e *env, c *rpcClient, file string) error {
	raw, err := rpcMethod(ctx, c, "workspace/archive")
	if err != nil {
		return err
	}
	var res struct {
		Base64 *string `json:"base64"`
		Files  int     `json:"files"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || res.Base64 == nil {
		return fmt.Errorf("workspace/archive: the module answered something that is not an archive: %v: %.200q", err, raw)
	}
	data, err := base64.StdEncoding.DecodeString(*res.Base64)
	if err != nil {
		return fmt.Errorf("workspace/archive: the archive is not base64: %w", err)
	}
	if err := writeFileAtomic(file, data); err != nil {
		return fmt.Errorf("--zip: %w", err)
	}
	line, err := marshal(struct {
		Zip   string `json:"zip"`
		Bytes int    `json:"bytes"`
		Files int    `json:"files"`
	}{file, len(data), res.Files})
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(append(line, '\n'))
	return err
}
