package preview

import (
	"encoding/base64"
	"path"
	"strings"
)

// fileTable returns the in-frame file table for the entry's document: every text file of the
// workspace (original text: run-time fetches see what the user wrote), and every asset when
// static references are shared (c.shared: the preview; the markup and CSS name assets by
// their virtual URLs, so each asset is in the document once, here; design.md §5.26).
// Otherwise (an AssetURL strategy) the assets a script
// may ask for at run time — an asset no markup or CSS references statically, or one whose file
// name occurs in the text of a JavaScript or JSON file or of an inline script of the entry.
// A name counts when it occurs as a whole word of file-name characters; a bare extension
// (".png", as left by `${name}.png`) counts for every asset with that extension.
// Statically referenced assets are already in the document as data: URLs; leaving them out of
// the table keeps each asset once in the document in the common case (an asset both referenced
// statically and named in a script appears twice). Keys are workspace paths.
func (c *compiler) fileTable(scriptText string) map[string]RuntimeFile {
	out := make(map[string]RuntimeFile, len(c.ix.files))
	var words map[string]bool
	if !c.shared {
		var named strings.Builder
		named.WriteString(scriptText)
		for i := range c.ix.files {
			f := &c.ix.files[i]
			if f.Kind != KindAsset && (f.Language == LangJS || f.Language == LangJSON) {
				named.WriteString(f.Source)
			}
		}
		words = nameTokens(named.String())
	}
	for i := range c.ix.files {
		f := &c.ix.files[i]
		if _, dup := out[f.Path]; dup {
			continue
		}
		if f.Kind != KindAsset {
			out[f.Path] = RuntimeFile{Type: MimeTypeOf(*f), Text: f.Source}
			continue
		}
		if _, static := c.assets[f.Path]; static && !c.shared && !words[path.Base(f.Path)] && !words[path.Ext(f.Path)] {
			continue
		}
		out[f.Path] = RuntimeFile{Type: MimeTypeOf(*f), B64: base64.StdEncoding.EncodeToString(f.Data)}
	}
	return out
}

// nameTokens returns the set of maximal runs of file-name characters (ASCII letters, digits,
// ".", "_", "-", "~" and non-ASCII bytes) in s. Linear in len(s).
func nameTokens(s string) map[string]bool {
	set := map[string]bool{}
	start := -1
	for i := 0; i <= len(s); i++ {
		in := i < len(s) && (isAlpha(s[i]) || s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == '_' || s[i] == '-' || s[i] == '~' || s[i] >= 0x80)
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			set[s[start:i]] = true
			start = -1
		}
	}
	return set
}
