package preview

import "testing"

func TestResolvePath(t *testing.T) {
	cases := []struct {
		raw, from string
		want      string
		ok        bool
	}{
		{"styles.css", "index.html", "styles.css", true},
		{" ./styles.css?v=1#x ", "index.html", "styles.css", true},
		{"../img/a.png", "css/main.css", "img/a.png", true},
		{"../../../a.png", "css/main.css", "a.png", true},
		{"/img/a.png", "deep/er/x.css", "img/a.png", true},
		{"./././a//b/./c.js", "src/m.js", "src/a/b/c.js", true},
		{"card%20file.js", "src/main.js", "src/card file.js", true},
		{"a%2Fb.js", "", "a/b.js", true},
		{"%E2%82%AC.png", "", "€.png", true},
		{"%E0%A4%A.png", "", "", false},
		{"%ZZ.js", "", "", false},
		{"%C3.png", "", "", false},
		{"", "index.html", "", false},
		{"#top", "index.html", "", false},
		{"?q", "index.html", "", false},
		{"/", "index.html", "", false},
		{"..", "index.html", "", false},
		{"data:text/css,a{}", "index.html", "", false},
		{"https://x.example/a.css", "index.html", "", false},
		{"//x.example/a.css", "index.html", "", false},
		{"\\\\x.example/a.css", "index.html", "", false},
		{"mailto:a@b", "index.html", "", false},
		{"c:/x.css", "index.html", "", false},
	}
	for _, c := range cases {
		got, ok := resolvePath(c.raw, c.from)
		if got != c.want || ok != c.ok {
			t.Errorf("resolvePath(%q, %q) = %q, %v; want %q, %v", c.raw, c.from, got, ok, c.want, c.ok)
		}
	}
}

func TestClassify(t *testing.T) {
	cases := map[string]refClass{
		"":                   refIgnored,
		"  ":                 refIgnored,
		"#a":                 refIgnored,
		"data:x":             refIgnored,
		"DATA:x":             refIgnored,
		"blob:null/1":        refIgnored,
		"javascript:void(0)": refIgnored,
		"https://a":          refExternal,
		"HTTP://a":           refExternal,
		"//a":                refExternal,
		"/\\a":               refExternal,
		"ftp:x":              refExternal,
		"a.css":              refLocal,
		"./a:b.css":          refLocal,
		"/a.css":             refLocal,
		"1ab:c":              refLocal,
		"react":              refLocal,
	}
	for in, want := range cases {
		if got := classify(in); got != want {
			t.Errorf("classify(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestModuleSpecifier(t *testing.T) {
	cases := map[string]string{
		"app.js":              ModuleSpecifierPrefix + "app.js",
		"src/card file.js":    ModuleSpecifierPrefix + "src/card%20file.js",
		"a/it's#1?.js":        ModuleSpecifierPrefix + "a/it%27s%231%3F.js",
		"ü/ñ.js":              ModuleSpecifierPrefix + "%C3%BC/%C3%B1.js",
		"x/(a)!~*_-.js":       ModuleSpecifierPrefix + "x/(a)!~*_-.js",
		"quote\"back\\.js":    ModuleSpecifierPrefix + "quote%22back%5C.js",
		"percent%20name.js":   ModuleSpecifierPrefix + "percent%2520name.js",
		"new\nline/\t tab.js": ModuleSpecifierPrefix + "new%0Aline/%09%20tab.js",
	}
	for in, want := range cases {
		if got := VirtualURL(in); got != want {
			t.Errorf("VirtualURL(%q) = %q, want %q", in, got, want)
		}
	}
}
