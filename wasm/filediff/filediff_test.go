package filediff

import (
	"strings"
	"testing"
)

func rowsText(rows []Row) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(r.Kind + ":" + r.Text + "\n")
	}
	return b.String()
}

func TestDiffWorkspaces(t *testing.T) {
	before := map[string]Text{
		"a.css":   {Source: "one\ntwo\nthree\nfour\nfive\nsix\nseven\n"},
		"gone.md": {Source: "bye\n"},
		"same.js": {Source: "x\n"},
		"img.png": {Asset: true, Size: 3},
	}
	after := map[string]Text{
		"a.css":   {Source: "one\ntwo\nTHREE\nfour\nfive\nsix\nseven\n"},
		"new.md":  {Source: "hi\nthere"},
		"same.js": {Source: "x\n"},
		"img.png": {Asset: true, Size: 3},
	}
	out, truncated := Workspaces(before, after)
	if truncated || len(out) != 3 {
		t.Fatalf("%d files (truncated %v): %+v", len(out), truncated, out)
	}
	if out[0].Path != "a.css" || out[0].Status != "modified" || out[0].Added != 1 || out[0].Removed != 1 {
		t.Fatalf("a.css %+v", out[0])
	}
	want := "ctx:one\nctx:two\ndel:three\nadd:THREE\nctx:four\nctx:five\n"
	if got := rowsText(out[0].Rows); got != want {
		t.Fatalf("a.css rows:\n%s\nwant:\n%s", got, want)
	}
	if out[1].Path != "gone.md" || out[1].Status != "deleted" || out[1].Removed != 1 || out[2].Path != "new.md" || out[2].Status != "added" || out[2].Added != 2 {
		t.Fatalf("added/deleted %+v %+v", out[1], out[2])
	}
	// An asset that changed is named, not diffed.
	after["img.png"] = Text{Asset: true, Size: 4}
	out, _ = Workspaces(before, after)
	if out[2].Path != "img.png" || out[2].Status != "asset" || len(out[2].Rows) != 0 {
		t.Fatalf("asset %+v", out)
	}
}

func TestDiffWorkspacesBounds(t *testing.T) {
	big := strings.Repeat("line\n", MaxFileLines+1)
	out, _ := Workspaces(map[string]Text{"big.txt": {Source: big}}, map[string]Text{"big.txt": {Source: big + "more\n"}})
	if len(out) != 1 || out[0].Note == "" || len(out[0].Rows) != 0 {
		t.Fatalf("a huge file is summarized: %+v", out)
	}
	var a, b strings.Builder
	for i := 0; i < 400; i++ {
		a.WriteString("old " + strings.Repeat("x", 300) + "\n")
		b.WriteString("new\n")
	}
	out, truncated := Workspaces(map[string]Text{"f": {Source: a.String()}}, map[string]Text{"f": {Source: b.String()}})
	if !truncated || len(out[0].Rows) != MaxLines || out[0].Added != 400 || out[0].Removed != 400 {
		t.Fatalf("bounded rows: %d (truncated %v, +%d -%d)", len(out[0].Rows), truncated, out[0].Added, out[0].Removed)
	}
	if r := []rune(out[0].Rows[0].Text); len(r) != MaxLineChars+1 {
		t.Fatalf("clipped row: %d runes", len(r))
	}
}
