package preview

import (
	"strings"
	"testing"
)

// TestFileTable: text files are in the table with their original text; an asset is in it when
// no markup/CSS references it statically or a script names it — so a statically referenced
// asset appears once in the document (as its data: URL).
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
	table := c.fileTable(c.inlineScripts.String())
	if _, ok := table["static.png"]; ok {
		t.Error("a statically referenced asset no script names is in the table (it would appear twice)")
	}
	for _, p := range []string{"both.png", "runtime-only.png", "sprites/x.gif"} {
		if table[p].B64 == "" {
			t.Errorf("%s missing from the table: %+v", p, table[p])
		}
	}
	if table["m.js"].Text != files[1].Source || !strings.HasPrefix(table["data.json"].Type, "application/json") || !strings.HasPrefix(table["index.html"].Type, "text/html") {
		t.Errorf("text entries wrong: %+v", table)
	}
	if n := strings.Count(doc, DataURL(files[3])); n != 1 {
		t.Errorf("static.png appears %d times in the document", n)
	}
}
