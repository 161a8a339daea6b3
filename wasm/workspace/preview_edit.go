package workspace

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/webcoding/studio/wasm/mcp"
)

// Theme is a preview.setTheme palette: the --accent and --accent-soft colors.
type Theme struct {
	Accent, AccentSoft string
}

// Themes are the four palettes of REFERENCE §2.1 (preview.setTheme).
var Themes = map[string]Theme{
	"violet":  {"#8b5cf6", "#f0eaff"},
	"emerald": {"#10b981", "#e7fbf3"},
	"amber":   {"#f59e0b", "#fff5dc"},
	"rose":    {"#f43f5e", "#ffedf0"},
}

// Preview-edit limits in code points (REFERENCE §4).
const (
	MaxFeatureTitleChars       = 70
	MaxFeatureDescriptionChars = 160
	MaxHeroTitleChars          = 90
	MaxHeroSubtitleChars       = 180
)

// FeatureSlotMarker is the literal comment addFeature inserts before.
const FeatureSlotMarker = "<!-- feature-slot -->"

var (
	accentDecl     = regexp.MustCompile(`(--accent\s*:\s*)#[0-9A-Fa-f]{3,8}(\s*;)`)
	accentSoftDecl = regexp.MustCompile(`(--accent-soft\s*:\s*)#[0-9A-Fa-f]{3,8}(\s*;)`)
	heroTitleOpen  = regexp.MustCompile(`(?i)<h1\b[^>]*\bid\s*=\s*(?:"hero-title"|'hero-title')[^>]*>`)
	heroSubOpen    = regexp.MustCompile(`(?i)<p\b[^>]*\bid\s*=\s*(?:"hero-subtitle"|'hero-subtitle')[^>]*>`)
)

// EscapeHTML escapes & < > " ' as &amp; &lt; &gt; &quot; &#39; (REFERENCE §2.1).
func EscapeHTML(s string) string {
	return htmlEscaper.Replace(s)
}

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")

func invalidArg(field, msg string) *mcp.ToolError {
	return mcp.NewError(mcp.CodeToolValidationFailed, false, map[string]any{"field": field}, "%s", msg)
}

// SetTheme rewrites the first --accent and --accent-soft color declarations of the
// stylesheet ("styles.css", else the first CSS file) to the theme's colors (REFERENCE §2.1
// preview.setTheme). An unchanged source adds no revision (Changed false). Result.Path is the
// stylesheet.
//
// # Errors
//   - TOOL_VALIDATION_FAILED: theme not violet/emerald/amber/rose
//   - WORKSPACE_REVISION_CONFLICT (retryable): stale call.ExpectedRevision
//   - PREVIEW_TARGET_NOT_FOUND: {target:"stylesheet"}; {target:"theme-tokens", path}
//   - WORKSPACE_SOURCE_LIMIT: the result exceeds MaxSourceChars
func (m *Manager) SetTheme(ctx context.Context, call Call, theme string) (Result, error) {
	t, ok := Themes[theme]
	if !ok {
		return Result{}, invalidArg("theme", "theme must be one of violet, emerald, amber, rose.")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.guard(call, ""); err != nil {
		return Result{}, err
	}
	i := m.find("styles.css")
	if i < 0 {
		for j, f := range m.files {
			if f.Language == "css" && f.Kind != KindAsset {
				i = j
				break
			}
		}
	}
	if i < 0 {
		return Result{}, PreviewTargetNotFound("stylesheet", "")
	}
	f := m.files[i]
	a, s := accentDecl.FindStringSubmatchIndex(f.Source), accentSoftDecl.FindStringSubmatchIndex(f.Source)
	if a == nil && s == nil {
		return Result{}, PreviewTargetNotFound("theme-tokens", f.Path)
	}
	src := replaceFirst(f.Source, accentDecl, t.Accent)
	src = replaceFirst(src, accentSoftDecl, t.AccentSoft)
	return m.previewWrite(ctx, call, i, src)
}

// replaceFirst replaces the color of re's first match (group 1 and 2 are kept).
func replaceFirst(src string, re *regexp.Regexp, color string) string {
	loc := re.FindStringSubmatchIndex(src)
	if loc == nil {
		return src
	}
	return src[:loc[3]] + color + src[loc[4]:]
}

func (m *Manager) previewWrite(ctx context.Context, call Call, i int, src string) (Result, error) {
	p := m.files[i].Path
	if src == m.files[i].Source {
		return Result{Path: p, ActivePath: m.active, Revision: m.revision}, nil
	}
	if err := checkSource("Source", src); err != nil {
		return Result{}, err
	}
	rev := m.setSource(ctx, call, i, src)
	return Result{Path: p, ActivePath: m.active, Revision: rev, Changed: true}, nil
}

func (m *Manager) htmlEntryIndex() (int, error) {
	e := htmlEntry(m.files)
	if e == "" {
		return -1, PreviewTargetNotFound("html-entry", "")
	}
	return m.find(e), nil
}

// AddFeature inserts an <article class="feature-card"> with the escaped title in <strong> and
// description in <span> immediately before the "<!-- feature-slot -->" marker of the HTML entry
// (the marker stays, so calls append in order). REFERENCE §2.1 preview.addFeature.
//
// Limits: title 1..70, description 1..160 code points.
//
// # Errors
//   - TOOL_VALIDATION_FAILED: a length out of range
//   - WORKSPACE_REVISION_CONFLICT (retryable)
//   - PREVIEW_TARGET_NOT_FOUND: {target:"html-entry"}; {target:"feature-slot", path}
//   - WORKSPACE_SOURCE_LIMIT
func (m *Manager) AddFeature(ctx context.Context, call Call, title, description string) (Result, error) {
	if err := checkChars("title", title, MaxFeatureTitleChars); err != nil {
		return Result{}, err
	}
	if err := checkChars("description", description, MaxFeatureDescriptionChars); err != nil {
		return Result{}, err
	}
	return m.editHTMLEntry(ctx, call, func(path, src string) (string, error) {
		at := strings.Index(src, FeatureSlotMarker)
		if at < 0 {
			return "", PreviewTargetNotFound("feature-slot", path)
		}
		indent := src[strings.LastIndexByte(src[:at], '\n')+1 : at]
		if strings.TrimLeft(indent, " \t") != "" {
			indent = ""
		}
		card := "<article class=\"feature-card\">\n" +
			indent + "  <strong>" + EscapeHTML(title) + "</strong>\n" +
			indent + "  <span>" + EscapeHTML(description) + "</span>\n" +
			indent + "</article>\n" + indent
		return src[:at] + card + src[at:], nil
	})
}

// UpdateHero replaces the inner HTML of the HTML entry's <h1 id="hero-title"> and
// <p id="hero-subtitle"> (either quote style; up to the first closing tag) with the escaped
// texts (REFERENCE §2.1 preview.updateHero). An unchanged result adds no revision.
//
// A nil subtitle keeps the page's current subtitle: asking for a new headline never erases
// the user's subtitle (REFERENCE requires both; we made subtitle optional so that nothing is
// lost when only a title is given).
//
// Limits: title 1..90, subtitle 1..180 code points.
//
// # Errors
//   - TOOL_VALIDATION_FAILED: a length out of range
//   - WORKSPACE_REVISION_CONFLICT (retryable)
//   - PREVIEW_TARGET_NOT_FOUND: {target:"html-entry"}; {target:"hero-title"|"hero-subtitle", path}
//   - WORKSPACE_SOURCE_LIMIT
func (m *Manager) UpdateHero(ctx context.Context, call Call, title string, subtitle *string) (Result, error) {
	if err := checkChars("title", title, MaxHeroTitleChars); err != nil {
		return Result{}, err
	}
	if subtitle != nil {
		if err := checkChars("subtitle", *subtitle, MaxHeroSubtitleChars); err != nil {
			return Result{}, err
		}
	}
	return m.editHTMLEntry(ctx, call, func(path, src string) (string, error) {
		src, ok := replaceInner(src, heroTitleOpen, "</h1", EscapeHTML(title))
		if !ok {
			return "", PreviewTargetNotFound("hero-title", path)
		}
		if subtitle != nil {
			src, ok = replaceInner(src, heroSubOpen, "</p", EscapeHTML(*subtitle))
			if !ok {
				return "", PreviewTargetNotFound("hero-subtitle", path)
			}
		}
		return src, nil
	})
}

// checkChars is TOOL_VALIDATION_FAILED {field} ("<field> must be 1..<limit> characters.")
// unless s has 1..limit code points.
func checkChars(field, s string, limit int) error {
	if n := CharCount(s); n < 1 || n > limit {
		return invalidArg(field, fmt.Sprintf("%s must be 1..%d characters.", field, limit))
	}
	return nil
}

// editHTMLEntry takes the lock and, once call's guard passes, rewrites the HTML entry: edit
// gets its path and source and returns the new source (or the error of the call), which
// previewWrite stores (no revision when unchanged).
func (m *Manager) editHTMLEntry(ctx context.Context, call Call, edit func(path, src string) (string, error)) (Result, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.guard(call, ""); err != nil {
		return Result{}, err
	}
	i, err := m.htmlEntryIndex()
	if err != nil {
		return Result{}, err
	}
	src, err := edit(m.files[i].Path, m.files[i].Source)
	if err != nil {
		return Result{}, err
	}
	return m.previewWrite(ctx, call, i, src)
}

// replaceInner replaces the text between open's first match and the next closing tag.
func replaceInner(src string, open *regexp.Regexp, closing, inner string) (string, bool) {
	loc := open.FindStringIndex(src)
	if loc == nil {
		return src, false
	}
	end := indexFoldASCII(src[loc[1]:], closing)
	if end < 0 {
		return src, false
	}
	return src[:loc[1]] + inner + src[loc[1]+end:], true
}

// indexFoldASCII is strings.Index ignoring ASCII letter case, with byte offsets into s.
func indexFoldASCII(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}
