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

// FuzzFindDynamicImports: argument spans are in order and inside src.
func FuzzFindDynamicImports(f *testing.F) {
	f.Add("import(`./${n}.js`); import(a, b); import((x)); import('lit'); import(")
	f.Fuzz(func(t *testing.T, src string) {
		last := 0
		for _, d := range FindDynamicImports(src) {
			if d.ArgStart < last || d.ArgStart > d.ArgEnd || d.ArgEnd > len(src) {
				t.Fatalf("bad span %+v after %d", d, last)
			}
			last = d.ArgStart
		}
	})
}
