package workspace

import (
	"slices"
	"testing"
)

// TestImportMediaAndFonts: issue 13 item 5 — audio, video and font files are assets with
// per-type limits; over the limit a clear too-large entry names the limit (never a silent drop).
func TestImportMediaAndFonts(t *testing.T) {
	list := []ImportEntry{
		entry("a.mp3", 600<<10, nil), entry("b.wav", 10, nil), entry("c.ogg", 10, nil),
		entry("d.mp4", 2<<20, nil), entry("e.webm", 10, nil), entry("f.eot", 10, nil),
		entry("g.m4a", 10, nil), entry("h.ogv", 10, nil), entry("i.vtt", 10, nil),
		entry("big.mp4", MaxImportMediaBytes+1, nil),
		entry("big.woff2", MaxImportAssetBytes+1, nil),
	}
	imp, err := ImportFiles(ctx, "site", slices.Values(list))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range imp.Files {
		got = append(got, f.Path+":"+f.Kind+":"+f.MimeType)
	}
	want := []string{"a.mp3:asset:audio/mpeg", "b.wav:asset:audio/wav", "c.ogg:asset:audio/ogg",
		"d.mp4:asset:video/mp4", "e.webm:asset:video/webm", "f.eot:asset:application/vnd.ms-fontobject",
		"g.m4a:asset:audio/mp4", "h.ogv:asset:video/ogg", "i.vtt:text:text/plain"}
	if !slices.Equal(got, want) {
		t.Errorf("accepted %v\nwant %v", got, want)
	}
	wantSkip := []Skipped{
		{Path: "big.mp4", Reason: SkipTooLarge, Message: "larger than 8 MB (the limit for video files)"},
		{Path: "big.woff2", Reason: SkipTooLarge, Message: "larger than 4 MB (the limit for font files)"},
	}
	if !slices.Equal(imp.Skipped, wantSkip) {
		t.Errorf("skipped %v\nwant %v", imp.Skipped, wantSkip)
	}
}
