package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportZip: export --zip writes the linked folder's workspace as a ZIP whose entries
// equal the folder's files byte for byte (an asset included), twice the same bytes; --zip
// inside --dir and --zip with --out are usage errors that write nothing.
func TestExportZip(t *testing.T) {
	dir := seedCopy(t)
	asset := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR not really")
	if err := os.MkdirAll(filepath.Join(dir, "img"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "img", "logo.png"), asset, 0o644); err != nil {
		t.Fatal(err)
	}
	want := tree(t, dir)
	out1 := filepath.Join(t.TempDir(), "site.zip")
	code, out, stderr := runCLIReader(t, strings.NewReader(""), "export", "--dir", dir, "--zip", out1)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Zip          string `json:"zip"`
		Bytes, Files int
	}
	data, err := os.ReadFile(out1)
	if json.Unmarshal([]byte(out), &res) != nil || res.Zip != out1 || err != nil || res.Bytes != len(data) || res.Files != len(want) {
		t.Fatalf("stdout %s (file: %v, %d bytes)", out, err, len(data))
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if len(zr.File) != len(want) {
		t.Fatalf("%d entries, want %d", len(zr.File), len(want))
	}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		if w, ok := want[f.Name]; !ok || w != string(b) {
			t.Errorf("%s: in folder %v, bytes equal %v", f.Name, ok, w == string(b))
		}
	}
	out2 := filepath.Join(t.TempDir(), "again.zip")
	if code, _, stderr := runCLIReader(t, strings.NewReader(""), "export", "--dir", dir, "--zip", out2); code != 0 {
		t.Fatalf("second export: %s", stderr)
	}
	if again, _ := os.ReadFile(out2); !bytes.Equal(again, data) {
		t.Error("two archives of the same folder differ")
	}
	for _, args := range [][]string{
		{"export", "--dir", dir, "--zip", filepath.Join(dir, "x.zip")},
		{"export", "--dir", dir, "--zip", filepath.Join(t.TempDir(), "y.zip"), "--out", filepath.Join(t.TempDir(), "y.html")},
	} {
		if code, out, stderr := runCLIReader(t, strings.NewReader(""), args...); code != exitUsage || out != "" || stderr == "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, stderr)
		}
	}
	if got := tree(t, dir); len(got) != len(want) {
		t.Errorf("the folder changed: %d files, want %d", len(got), len(want))
	}
}
