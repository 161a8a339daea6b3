package preview

import (
	"strings"
	"testing"
)

// TestFileTable: in the preview every text file is in the table with its original text and
// every asset once, also one that markup and CSS reference and no script names literally (a
// gallery builds "img/" + n + ".jpg"): the markup names it by its virtual URL, so its bytes
// appear once in the document (design.md §5.26).
func TestFileTable(t *testing.T) {
	files := []File{
		htmlFile("index.html", `<img src="static.png"><img src="both.png"><script>new Image().src = "img/both.png"</script><script type=module src=m.js></script>`),
		js("m.js", "fetch('data.json'); const u = `sprites/${n}.gif`;"),
		{Path: "data.json", Language: LangJSON, Kind: KindText, Source: `{"a":1}`},
		asset("static.png", "image/png", []byte("S")),
		asset("both.png", "image/png", []byte("B")),
		asset("runtime-only.png", "image/png", []byte("R")),
		asset("sprites/x.gif", "image/gif", []byte("G")),
	}
	c := newCompiler(files, bridgeOpts, false)
	doc := c.document(c.ix.entry())
	table := c.fileTable()
	for _, p := range []string{"static.png", "both.png", "runtime-only.png", "sprites/x.gif"} {
		if table[p].B64 == "" {
			t.Errorf("%s missing from the table: %+v", p, table[p])
		}
	}
	if table["m.js"].Text != files[1].Source || !strings.HasPrefix(table["data.json"].Type, "application/json") || !strings.HasPrefix(table["index.html"].Type, "text/html") {
		t.Errorf("text entries wrong: %+v", table)
	}
	if n := strings.Count(doc, DataURL(files[3])); n != 0 {
		t.Errorf("static.png appears %d times as a data: URL in the document", n)
	}
	if !strings.Contains(doc, `<img src="`+VirtualURL("static.png")+`">`) {
		t.Errorf("static.png not referenced by its virtual URL:\n%s", withoutBridge(doc))
	}
}
