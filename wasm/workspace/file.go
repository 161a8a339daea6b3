package workspace

import (
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind of a workspace file: "text" (editable source) or "asset" (opaque bytes such as images
// and fonts). REFERENCE §2.2.
const (
	KindText  = "text"
	KindAsset = "asset"
)

// MaxSourceChars is the one limit on a text file's source, counted in Unicode code points
// (SPEC §2.14). createFile, writeFile, applyPatch (on the patched result), direct editor
// edits, the preview edit helpers and history restore all use it; a breach is
// WORKSPACE_SOURCE_LIMIT with details {limit: 80000}. An imported file over it stays readable
// in full and is flagged OverBudget until a write shrinks it (REFERENCE §4).
const MaxSourceChars = 80_000

// File is one workspace document. Values reachable from the manager are immutable: every
// change builds a new *File, so history checkpoints can share unchanged bodies.
//
// Fields:
//   - Path: normalized relative path ("css/site.css"), see NormalizePath.
//   - Language: "html", "css", "javascript", "json", "markdown", "typescript" or "text" (LanguageFor).
//   - Kind: KindText or KindAsset (binary extensions, IsAssetPath).
//   - MimeType: from the language for text files, from the extension for assets.
//   - Size: for text, the source length in UTF-16 code units (the original's JavaScript string
//     length, REFERENCE §2.1 listFiles); for assets, len(Data) in bytes. Limits are counted
//     in code points instead (MaxSourceChars, SPEC §2.14).
//   - Source: the text (text files only).
//   - Data: the bytes (assets only).
//   - RenamedFrom: the path this file had in the saved baseline before one or more renames,
//     empty when not renamed (REFERENCE §2.1 renameFile).
type File struct {
	Path        string `json:"path"`
	Language    string `json:"language"`
	Kind        string `json:"kind"`
	MimeType    string `json:"mimeType,omitempty"`
	Size        int    `json:"size"`
	Source      string `json:"source,omitempty"`
	Data        []byte `json:"data,omitempty"`
	RenamedFrom string `json:"renamedFrom,omitempty"`
}

// OverBudget reports whether a text file's source is longer than MaxSourceChars code points
// (possible only for imported files).
func (f *File) OverBudget() bool {
	return f.Kind != KindAsset && utf8.RuneCountInString(f.Source) > MaxSourceChars
}

// sameContent reports whether two files hold the same kind and bytes (path ignored).
// bytes returns the file's body as saved to a folder: the asset bytes, or the UTF-8 source.
func (f *File) bytes() []byte {
	if f.Kind == KindAsset {
		return f.Data
	}
	return []byte(f.Source)
}

func sameContent(a, b *File) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.Kind != b.Kind {
		return false
	}
	if a.Kind == KindAsset {
		return string(a.Data) == string(b.Data)
	}
	return a.Source == b.Source
}

// NewTextFile builds a text file for a normalized path: language and MIME type from the
// extension, Size in UTF-16 code units. It does not check MaxSourceChars.
func NewTextFile(p, source string) *File {
	lang := LanguageFor(p)
	return &File{Path: p, Language: lang, Kind: KindText, MimeType: MimeForLanguage(lang),
		Size: UTF16Len(source), Source: source}
}

// NewAssetFile builds an asset file for a normalized path; data is not copied and must not
// be changed afterwards.
func NewAssetFile(p string, data []byte) *File {
	return &File{Path: p, Language: LanguageFor(p), Kind: KindAsset, MimeType: AssetMimeType(p),
		Size: len(data), Data: data}
}

// withPath returns a copy of f at a new path with language and MIME type recomputed.
func (f *File) withPath(p string) *File {
	c := *f
	c.Path = p
	c.Language = LanguageFor(p)
	if c.Kind == KindAsset {
		c.MimeType = AssetMimeType(p)
	} else {
		c.MimeType = MimeForLanguage(c.Language)
	}
	return &c
}

// withSource returns a copy of text file f holding source.
func (f *File) withSource(source string) *File {
	c := *f
	c.Source = source
	c.Size = UTF16Len(source)
	return &c
}

// UTF16Len returns the length of s in UTF-16 code units (JavaScript's string length).
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// CharCount returns the length of s in Unicode code points, the unit of every text limit
// (SPEC §2.14).
func CharCount(s string) int { return utf8.RuneCountInString(s) }

func ext(p string) string { return strings.ToLower(strings.TrimPrefix(path.Ext(p), ".")) }

var languages = map[string]string{
	"css": "css", "htm": "html", "html": "html", "js": "javascript", "mjs": "javascript",
	"json": "json", "md": "markdown", "ts": "typescript", "tsx": "typescript", "txt": "text",
}

// LanguageFor maps a path's extension to its language (REFERENCE §2.2): .css css; .htm/.html
// html; .js/.mjs javascript; .json json; .md markdown; .ts/.tsx typescript; anything else text.
func LanguageFor(p string) string {
	if l, ok := languages[ext(p)]; ok {
		return l
	}
	return "text"
}

// MimeForLanguage maps a language to the text MIME type (REFERENCE §2.2): text/html, text/css,
// text/javascript, application/json, text/markdown, else text/plain.
func MimeForLanguage(lang string) string {
	switch lang {
	case "html":
		return "text/html"
	case "css":
		return "text/css"
	case "javascript":
		return "text/javascript"
	case "json":
		return "application/json"
	case "markdown":
		return "text/markdown"
	}
	return "text/plain"
}

// AssetClass is one kind of binary (asset) file with its import limit.
type AssetClass struct {
	// Name is "image", "font", "audio", "video" or "binary"; it appears in too-large messages.
	Name string
	// MaxBytes is the largest file of this class an import or upload accepts.
	MaxBytes int
	// Types maps each extension (lower case, without the dot) to its MIME type.
	Types map[string]string
}

// AssetClasses are the asset (binary) file types, their MIME types and per-type import limits
// (REFERENCE §2.2 extended by issue 13: audio, video and more font types are assets too). This
// table is the one place these rules live: IsAssetPath, AssetMimeType, AssetLimit,
// TooLargeMessage and the tool descriptions (AssetLimitsText) read it.
var AssetClasses = []AssetClass{
	{Name: "image", MaxBytes: MaxImportAssetBytes, Types: map[string]string{
		"avif": "image/avif", "bmp": "image/bmp", "gif": "image/gif", "ico": "image/x-icon", "jpeg": "image/jpeg",
		"jpg": "image/jpeg", "png": "image/png", "svg": "image/svg+xml", "webp": "image/webp"}},
	{Name: "font", MaxBytes: MaxImportAssetBytes, Types: map[string]string{
		"eot": "application/vnd.ms-fontobject", "otf": "font/otf", "ttf": "font/ttf", "woff": "font/woff", "woff2": "font/woff2"}},
	{Name: "audio", MaxBytes: MaxImportMediaBytes, Types: map[string]string{
		"aac": "audio/aac", "flac": "audio/flac", "m4a": "audio/mp4", "mp3": "audio/mpeg", "oga": "audio/ogg",
		"ogg": "audio/ogg", "opus": "audio/opus", "wav": "audio/wav", "weba": "audio/webm"}},
	{Name: "video", MaxBytes: MaxImportMediaBytes, Types: map[string]string{
		"m4v": "video/mp4", "mov": "video/quicktime", "mp4": "video/mp4", "ogv": "video/ogg", "webm": "video/webm"}},
	{Name: "binary", MaxBytes: MaxImportAssetBytes, Types: map[string]string{
		"pdf": "application/pdf", "wasm": "application/wasm"}},
}

var assetMimes, assetClassOf = func() (map[string]string, map[string]*AssetClass) {
	m, c := map[string]string{}, map[string]*AssetClass{}
	for i := range AssetClasses {
		for e, t := range AssetClasses[i].Types {
			m[e], c[e] = t, &AssetClasses[i]
		}
	}
	return m, c
}()

// IsAssetPath reports whether p has one of the asset extensions of AssetClasses
// (case-insensitive).
func IsAssetPath(p string) bool { _, ok := assetMimes[ext(p)]; return ok }

// AssetLimit returns the largest size in bytes an import or upload accepts for path p and the
// class it comes from: the AssetClasses limit for an asset, MaxImportTextBytes ("text")
// otherwise.
func AssetLimit(p string) (maxBytes int, class string) {
	if c, ok := assetClassOf[ext(p)]; ok {
		return c.MaxBytes, c.Name
	}
	return MaxImportTextBytes, "text"
}

// TooLargeMessage is the message of a SkipTooLarge entry for path p: "larger than 2 MB"
// for text, "larger than N MB (the limit for <class> files)" for an asset.
func TooLargeMessage(p string) string {
	n, class := AssetLimit(p)
	if class == "text" {
		return "larger than " + sizeText(n)
	}
	return "larger than " + sizeText(n) + " (the limit for " + class + " files)"
}

// sizeText writes a limit of n bytes in the words of the import's messages: whole MB from
// 1 MiB on ("2 MB"), whole KB below ("512 KB").
func sizeText(n int) string {
	if n >= 1<<20 {
		return strconv.Itoa(n>>20) + " MB"
	}
	return strconv.Itoa(n>>10) + " KB"
}

// AssetLimitsText states the per-type asset limits for tool descriptions:
// "4 MB per image file (avif, bmp, …), …".
func AssetLimitsText() string {
	var parts []string
	for _, c := range AssetClasses {
		exts := make([]string, 0, len(c.Types))
		for e := range c.Types {
			exts = append(exts, e)
		}
		sort.Strings(exts)
		parts = append(parts, sizeText(c.MaxBytes)+" per "+c.Name+" file ("+strings.Join(exts, ", ")+")")
	}
	return strings.Join(parts, ", ")
}

// ImportLimitsText states every folder-import limit (REFERENCE §4, docs/design.md §5.44) for
// tool descriptions: "200 files, 2,000 scanned entries, 2 MB per text file, 4 MB per image
// file (…), …, 12 MB in total".
func ImportLimitsText() string {
	return thousands(MaxImportFiles) + " files, " + thousands(MaxImportScannedEntries) + " scanned entries, " +
		sizeText(MaxImportTextBytes) + " per text file, " + AssetLimitsText() + ", " + sizeText(MaxImportTotalBytes) + " in total"
}

// AssetMimeType returns the MIME type for an asset path, application/octet-stream when the
// extension is not a known asset extension.
func AssetMimeType(p string) string {
	if m, ok := assetMimes[ext(p)]; ok {
		return m
	}
	return "application/octet-stream"
}

// NotImportedEntries returns the entries of skipped that name a file the folder holds but the
// import left out because of its content or size — reasons SkipTooLarge, SkipNotText and
// SkipTotalLimit — in their order; nil when there are none. Path-rule, duplicate, read-failure
// and summary entries are left out (those files are not part of the workspace's folder view).
func NotImportedEntries(skipped []Skipped) []Skipped {
	var out []Skipped
	for _, s := range skipped {
		switch s.Reason {
		case SkipTooLarge, SkipNotText, SkipTotalLimit:
			if s.Path != "" {
				out = append(out, Skipped{Path: s.Path, Reason: s.Reason, Message: s.Message})
			}
		}
	}
	return out
}

// NotImportedReason says why the file of a NotImportedEntries entry is not in the workspace,
// in the words the preview shows after "<path> is in the folder but was not imported: ".
// The limits come from AssetLimit (AssetClasses, MaxImportTextBytes), as the import applied
// them:
//   - SkipTooLarge: "larger than 2 MB (the import limit for text files)", "larger than
//     8 MB (the import limit for video files)";
//   - SkipNotText: "it is not text (binary or not UTF-8) and its extension is not one of the
//     asset types";
//   - SkipTotalLimit: "the import would have gone over its 12 MB total";
//   - SkipFileLimit (an Imported.LeftOut entry): "the import keeps at most 200 files" (short:
//     a folder over the limit can have ~2,000 of them, each repeated in every compiled page);
//   - SkipScanLimit (an Imported.LeftOut entry past the scan bound): "the folder is larger than
//     the import examines (the first 2,000 entries)";
//   - any other reason: its Message, else the reason itself.
func NotImportedReason(s Skipped) string {
	switch s.Reason {
	case SkipTooLarge:
		n, class := AssetLimit(s.Path)
		return "larger than " + sizeText(n) + " (the import limit for " + class + " files)"
	case SkipNotText:
		return "it is not text (binary or not UTF-8) and its extension is not one of the asset types"
	case SkipTotalLimit:
		return "the import would have gone over its " + sizeText(MaxImportTotalBytes) + " total"
	case SkipFileLimit:
		return "the import keeps at most " + strconv.Itoa(MaxImportFiles) + " files"
	case SkipScanLimit:
		return "the folder is larger than the import examines (the first " + thousands(MaxImportScannedEntries) + " entries)"
	}
	if s.Message != "" {
		return s.Message
	}
	return s.Reason
}

// thousands writes n (≥ 0) with comma thousands separators ("2,000").
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
