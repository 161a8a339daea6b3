package preview

import (
	"path/filepath"
	"strings"
	"testing"
)

// genWorkspace builds a workspace of n files (n ≥ 5) of about fileBytes each: an index.html
// that links every stylesheet, loads every classic script, roots a module script at every
// module, and shows every asset. A quarter of the files is each kind; stylesheets @import a
// shared base and use url(); modules import one leaf each plus the shared leaf.
func genWorkspace(n, fileBytes int) []File { return genWorkspaceAssets(n, fileBytes, fileBytes*3/4) }

// genWorkspaceAssets is genWorkspace with assets of assetBytes each.
func genWorkspaceAssets(n, fileBytes, assetBytes int) []File {
	k := (n - 1) / 4
	filler := func(prefix string, size int) string {
		var b strings.Builder
		for b.Len() < size {
			b.WriteString(prefix)
		}
		return b.String()
	}
	var page strings.Builder
	page.WriteString("<!doctype html><html><head><title>bench</title>\n")
	files := []File{{}}
	files = append(files, css("css/base.css", filler(".base{color:#123} /* comment */\n", fileBytes)))
	files = append(files, js("js/leaf.js", filler("export const leaf = 'x'; // comment\n", fileBytes)))
	for i := 0; i < k; i++ {
		n := itoa(i)
		files = append(files, css("css/s"+n+".css", "@import 'base.css' screen;\n.bg"+n+"{background:url(../img/a"+n+".png)}\n"+filler(".c"+n+"{margin:0 auto;padding:4px} /* x */\n", fileBytes)))
		page.WriteString(`<link rel="stylesheet" href="css/s` + n + `.css">` + "\n")
	}
	page.WriteString("</head><body>\n")
	for i := 0; i < k; i++ {
		n := itoa(i)
		files = append(files, js("js/c"+n+".js", filler("var s"+n+" = '</script>' + `${1 < 2}`; /* <!-- */ function f(a){ return a / 2; }\n", fileBytes)))
		files = append(files, js("js/m"+n+".js", "import { leaf } from './leaf.js';\nimport('./leaf.js');\n"+filler("export const v = `import './no.js'` + \"x\"; // import './no.js'\n", fileBytes)))
		files = append(files, asset("img/a"+n+".png", "image/png", []byte(filler("\x89PNG", assetBytes))))
		page.WriteString(`<section><img src="img/a` + n + `.png" alt=""><script src="js/c` + n + `.js"></script><script type="module" src="js/m` + n + `.js"></script></section>` + "\n")
	}
	page.WriteString("</body></html>\n")
	files[0] = htmlFile("index.html", page.String())
	return files
}

func inputBytes(files []File) int64 {
	var n int64
	for _, f := range files {
		n += int64(len(f.Source) + len(f.Data))
	}
	return n
}

func benchCompile(b *testing.B, files []File) {
	b.Helper()
	benchCompileOpts(b, files, Options{Revision: 1, Nonce: "bench", Bridge: true, AssetURL: fakeBlobURL})
}

// benchCompileOpts also reports the document size ("doc-bytes").
func benchCompileOpts(b *testing.B, files []File, opts Options) {
	b.Helper()
	b.SetBytes(inputBytes(files))
	b.ReportAllocs()
	b.ResetTimer()
	docBytes := 0
	for i := 0; i < b.N; i++ {
		r := Compile(files, opts)
		if r.Entry == "" {
			b.Fatal("no entry")
		}
		docBytes = len(r.HTML)
	}
	b.ReportMetric(float64(docBytes), "doc-bytes")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(files)), "ns/file")
}

// BenchmarkCompile reports MB/s (input bytes) for the seed, a 200-file ~2 MB workspace, and
// 20 → 200 → 2,000 files of the same shape (ns/file should stay roughly flat: linear growth).
func BenchmarkCompile(b *testing.B) {
	b.Run("seed", func(b *testing.B) {
		benchCompile(b, loadWorkspace(b, filepath.Join("testdata", "seed", "files")))
	})
	b.Run("workspace-200-2MB", func(b *testing.B) {
		benchCompile(b, genWorkspace(201, 10_000))
	})
	// The hosts compile without AssetURL (data: URLs): the seed and a 200-file workspace with
	// 8 MB of assets (50 × 160 KiB) as the studio mounts them (issue 13).
	dataOpts := Options{Revision: 1, Nonce: "bench", Bridge: true}
	b.Run("seed-data-urls", func(b *testing.B) {
		benchCompileOpts(b, loadWorkspace(b, filepath.Join("testdata", "seed", "files")), dataOpts)
	})
	b.Run("workspace-200-8MB-assets", func(b *testing.B) {
		benchCompileOpts(b, genWorkspaceAssets(201, 2_000, 160<<10), dataOpts)
	})
	// A vendored classic script at the import's per-file text limit (2 MiB, docs/design.md
	// §5.44), minified-like: long lines of code with strings and regular expressions.
	b.Run("vendored-script-2MB", func(b *testing.B) {
		var v strings.Builder
		for v.Len() < 2<<20 {
			v.WriteString(`(function(e,t){var n=/[a-z]+\/x/g,r="</div>"+e;t.hl=function(s){return s.replace(n,r)}})(window,{});`)
		}
		benchCompile(b, []File{
			htmlFile("index.html", `<!doctype html><html><head><script src="vendor/hl.js"></script></head><body><p>deck</p></body></html>`),
			js("vendor/hl.js", v.String()),
		})
	})
	for _, n := range []int{20, 200, 2000} {
		b.Run("files-"+itoa(n), func(b *testing.B) {
			benchCompile(b, genWorkspace(n+1, 2_000))
		})
	}
}

// BenchmarkDiagnose measures the diagnostics-only walk on the 200-file workspace.
func BenchmarkDiagnose(b *testing.B) {
	files := genWorkspace(201, 10_000)
	b.SetBytes(inputBytes(files))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Diagnose(files)
	}
}
