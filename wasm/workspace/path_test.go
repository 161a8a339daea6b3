package workspace

import (
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

func TestNormalizePath(t *testing.T) {
	ok := []struct{ in, want string }{
		{"index.html", "index.html"},
		{"./src//app.js", "src/app.js"},
		{`css\site.css`, "css/site.css"},
		{"/abs/./x.md/", "abs/x.md"},
		{"a/.../b", "a/.../b"},
		{"..a/b..", "..a/b.."},
	}
	for _, c := range ok {
		got, err := NormalizePath(c.in)
		if err != nil || got != c.want {
			t.Errorf("NormalizePath(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	bad := []struct{ in, reason string }{
		{"a\x00b", PathReasonNUL},
		{"../x", PathReasonParentTraversal},
		{`a\..\b`, PathReasonParentTraversal},
		{"a/b/..", PathReasonParentTraversal},
		{"", PathReasonEmpty},
		{"././/", PathReasonEmpty},
		{`\`, PathReasonEmpty},
	}
	for _, c := range bad {
		_, err := NormalizePath(c.in)
		wantErr(t, err, mcp.CodeWorkspacePathInvalid, false, map[string]any{"path": c.in, "reason": c.reason})
	}
}

func FuzzNormalizePath(f *testing.F) {
	for _, s := range []string{"index.html", "../x", `a\..\b`, "a\x00", "./././", "a//b", `\\server\share`, "a/./b/", "..", "...", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := NormalizePath(in)
		if err != nil {
			if mcp.ToolErrorOf(err).Code != mcp.CodeWorkspacePathInvalid {
				t.Fatalf("code %s", mcp.ToolErrorOf(err).Code)
			}
			d := mcp.ToolErrorOf(err).Details.(map[string]any)
			if d["path"] != in {
				t.Fatalf("details path %q != input", d["path"])
			}
			return
		}
		if out == "" || strings.ContainsAny(out, "\\\x00") {
			t.Fatalf("bad output %q", out)
		}
		for _, s := range strings.Split(out, "/") {
			if s == "" || s == "." || s == ".." {
				t.Fatalf("bad segment in %q", out)
			}
		}
		again, err := NormalizePath(out)
		if err != nil || again != out {
			t.Fatalf("not idempotent: %q → %q, %v", out, again, err)
		}
	})
}

// FuzzCreatablePathIsImportable: the workspace never holds a path the importer would skip.
// Whatever CreateFile accepts, importing a file at that path keeps it (same path), so a save
// can only write files the workspace could have loaded.
func FuzzCreatablePathIsImportable(f *testing.F) {
	for _, s := range []string{"a.js", ".env", ".git/config", "node_modules/x/i.js", "a/.b/c.css",
		"x\\node_modules\\y.js", "./a//b.txt", "a..b/c.md", "..", "a/./.b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		n, err := normalizeNewPath(p)
		imp, ierr := ImportFiles(ctx, "r", entries(map[string]string{p: "x"}))
		imported := ierr == nil && len(imp.Files) == 1
		if err != nil {
			if mcp.ToolErrorOf(err).Code != mcp.CodeWorkspacePathInvalid {
				t.Fatalf("%q: %v", p, err)
			}
			if imported {
				t.Fatalf("%q refused (%v) but the importer keeps it", p, err)
			}
			return
		}
		if !imported || imp.Files[0].Path != n {
			t.Fatalf("%q accepted as %q but the importer gives %+v %v", p, n, imp, ierr)
		}
	})
}
