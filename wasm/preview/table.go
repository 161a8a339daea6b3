package preview

// fileTable returns the in-frame file table for the entry's document: every text file of the
// workspace with its original text (run-time fetches see what the user wrote) and every asset
// once. In the preview the markup and CSS name assets by their virtual URLs, so each asset's
// bytes are in the document once, here, and a script that builds a URL from pieces
// ("images/" + n + ".jpg") finds every image (design.md §5.26). Keys are workspace paths.
func (c *compiler) fileTable() map[string]RuntimeFile {
	return RuntimeFiles(c.ix.files)
}
