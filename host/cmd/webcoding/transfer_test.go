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

// TestExportRefusesSymlinkTargets: export --zip / --out and preview --out naming a symbolic
// link — dangling into --dir, or pointing at an existing file outside — exit 2 and write
// nothing (the workspace gains no file, the link's target keeps its bytes); a regular existing
// FILE is replaced whole, with no temporary file left beside it.
func TestExportRefusesSymlinkTargets(t *testing.T) {
	dir := seedCopy(t)
	want := tree(t, dir)
	outside := t.TempDir()
	dangling := filepath.Join(outside, "lnk.zip")
	if err := os.Symlink(filepath.Join(dir, "evil.zip"), dangling); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	victim := filepath.Join(outside, "keep.html")
	if err := os.WriteFile(victim, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	toVictim := filepath.Join(outside, "lnk.html")
	if err := os.Symlink(victim, toVictim); err != nil {
		t.Fatal(err)
	}
	danglingHTML := filepath.Join(outside, "lnk2.html")
	if err := os.Symlink(filepath.Join(dir, "evil.html"), danglingHTML); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"export", "--dir", dir, "--zip", dangling},
		{"export", "--dir", dir, "--out", danglingHTML},
		{"export", "--dir", dir, "--out", toVictim},
		{"export", "--dir", dir, "--zip", toVictim},
		{"preview", "--dir", dir, "--out", danglingHTML},
		{"preview", "--dir", dir, "--out", toVictim},
	} {
		code, out, stderr := runCLIReader(t, strings.NewReader(""), args...)
		if code != exitUsage || out != "" || !strings.Contains(stderr, "symbolic link") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, stderr)
		}
	}
	if got := tree(t, dir); len(got) != len(want) {
		t.Errorf("the workspace changed: %d files, want %d", len(got), len(want))
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me" {
		t.Errorf("the link's target was overwritten: %q", b)
	}
	existing := filepath.Join(outside, "old.zip")
	if err := os.WriteFile(existing, []byte("old bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLIReader(t, strings.NewReader(""), "export", "--dir", dir, "--zip", existing); code != 0 {
		t.Fatalf("export over an existing file: exit %d: %s", code, stderr)
	}
	data, _ := os.ReadFile(existing)
	if _, err := zip.NewReader(bytes.NewReader(data), int64(len(data))); err != nil {
		t.Errorf("the replaced file is not the archive: %v", err)
	}
	entries, _ := os.ReadDir(outside)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}
