package preview

// fileTable returns the in-frame file table for the entry's document: every text file of the
// workspace with its original text (run-time fetches see what the user wrote) and every asset
// once. In the preview the markup and CSS name assets by their virtual URLs, so each asset's
// bytes are in the document once, here, and a script that builds a URL from pieces
// ("images/" + n + ".jpg") finds every image (design.md §5.26). Keys are workspace paths.
// A JavaScript file whose references to the page's Location the compiler rewrites
// (locationJS) also carries that text as Run, for a <script src> inserted at run time
// (design.md §5.34).
func (c *compiler) fileTable() map[string]RuntimeFile {
	t := RuntimeFiles(c.ix.files)
	for i := range c.ix.files {
		f := &c.ix.files[i]
		if f.Kind != KindText || f.Language != LangJS {
			continue
		}
		if e, ok := t[f.Path]; ok && e.Text == f.Source {
			if run := c.locationJS(f.Source); run != f.Source {
				e.Run = run
				t[f.Path] = e
			}
		}
	}
	return t
}
