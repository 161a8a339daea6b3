package jsscan

import "testing"

func TestFindImportMetaURL(t *testing.T) {
	src := "const a = import.meta.url; // import.meta.url\n" +
		"const b = 'import.meta.url' + `${import . meta . url}` + x.import.meta.url + import.meta.urls + import.meta.resolve;\n" +
		"new URL('./w.js', import.meta.url)"
	got := FindImportMetaURL(src)
	var texts []string
	for _, s := range got {
		texts = append(texts, src[s[0]:s[1]])
	}
	want := []string{"import.meta.url", "import . meta . url", "import.meta.url"}
	if len(texts) != len(want) {
		t.Fatalf("got %q, want %q", texts, want)
	}
	for i := range want {
		if texts[i] != want[i] {
			t.Errorf("span %d = %q, want %q", i, texts[i], want[i])
		}
	}
}
