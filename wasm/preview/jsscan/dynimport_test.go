package jsscan

import "testing"

func TestFindDynamicImports(t *testing.T) {
	src := "import('./lit.js'); import(`./${n}.js`); import(dir + '/x.js', {with: {type: 'json'}}); " +
		"import(f(a, b)); x.import(y); // import(z)\n'import(q)'; import(\"./a.js\" + s)"
	var got []string
	for _, d := range FindDynamicImports(src) {
		got = append(got, src[d.ArgStart:d.ArgEnd])
	}
	want := []string{"`./${n}.js`", "dir + '/x.js'", "f(a, b)", `"./a.js" + s`}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %q, want %q", i, got[i], want[i])
		}
	}
}
