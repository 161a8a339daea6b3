package preview

import (
	"strings"
	"testing"
)

// TestMediaAssets: audio, video and font assets (imported as assets by the workspace, issue 13
// item 5) are referenced by their virtual URLs (served from the file table) in the preview and
// inlined as data: URLs in the export, with no "Missing asset".
func TestMediaAssets(t *testing.T) {
	mp3 := asset("media/a.mp3", "audio/mpeg", []byte("ID3"))
	webm := asset("media/v.webm", "video/webm", []byte("WEBM"))
	eot := asset("fonts/f.eot", "application/vnd.ms-fontobject", []byte("EOT"))
	files := []File{
		htmlFile("index.html", `<audio src="media/a.mp3" controls></audio><video><source src="media/v.webm" type="video/webm"></video>`+
			`<style>@font-face{font-family:F;src:url(fonts/f.eot)}</style>`),
		mp3, webm, eot,
	}
	r := Compile(files, bridgeOpts)
	if len(r.Diagnostics) != 0 {
		t.Errorf("diagnostics = %+v", r.Diagnostics)
	}
	out := withoutBridge(r.HTML)
	for _, want := range []string{`<audio src="` + VirtualURL(mp3.Path) + `" controls>`, `<source src="` + VirtualURL(webm.Path) + `"`, `url("` + VirtualURL(eot.Path) + `")`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	exp, err := Export(files)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<audio src="` + DataURL(mp3) + `" controls>`, `<source src="` + DataURL(webm) + `"`, `url("` + DataURL(eot) + `")`} {
		if !strings.Contains(exp, want) {
			t.Errorf("export lacks %s:\n%s", want, exp)
		}
	}
}
