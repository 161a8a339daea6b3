package websurface

import (
	"regexp"
	"strings"

	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/workspace"
)

// Themes are the five web.setTheme palettes (live reference, section 3.4), in schema order.
var ThemeNames = []string{"violet", "emerald", "amber", "rose", "sky"}

// themeColors maps a theme to its --accent and --accent-soft colours.
var themeColors = map[string][2]string{
	"violet":  {"#6d5dfc", "#eeedff"},
	"emerald": {"#0f9f78", "#e7f8f2"},
	"amber":   {"#d97706", "#fff4dc"},
	"rose":    {"#e0527a", "#ffedf2"},
	"sky":     {"#0b83c6", "#e8f6ff"},
}

// Fixed targets of the visual tools: root files, never an entry resolved from the workspace
// (live reference, section 3.4).
const (
	StylePath = "style.css"
	IndexPath = "index.html"
)

var (
	// A declaration "--accent: #hex;" (case-insensitive); --accent-soft is a separate token.
	accentDecl     = regexp.MustCompile(`(?i)(--accent\s*:\s*)#[0-9a-f]{3,8}(\s*;)`)
	accentSoftDecl = regexp.MustCompile(`(?i)(--accent-soft\s*:\s*)#[0-9a-f]{3,8}(\s*;)`)
	// The feature grid's exact opening tag (any whitespace after "section").
	featureGridOpen = regexp.MustCompile(`<section\s+id="feature-grid" class="feature-grid">`)
	heroTitleOpen   = regexp.MustCompile(`(?i)<h1\b[^>]*\bid\s*=\s*"hero-title"[^>]*>`)
	heroSubOpen     = regexp.MustCompile(`(?i)<p\b[^>]*\bid\s*=\s*"hero-subtitle"[^>]*>`)
	heroTitleClose  = regexp.MustCompile(`(?i)</h1\s*>`)
	heroSubClose    = regexp.MustCompile(`(?i)</p\s*>`)
)

// setTheme replaces the first --accent and --accent-soft declarations of src with theme's
// colours. Both must exist: PREVIEW_TARGET_NOT_FOUND {target: "theme-tokens", path, missing}.
func setTheme(path, src, theme string) (string, error) {
	c := themeColors[theme]
	var missing []string
	if accentDecl.FindStringIndex(src) == nil {
		missing = append(missing, "--accent")
	}
	if accentSoftDecl.FindStringIndex(src) == nil {
		missing = append(missing, "--accent-soft")
	}
	if len(missing) > 0 {
		return "", targetNotFound("theme-tokens", path, missing)
	}
	src = replaceColor(src, accentDecl, c[0])
	return replaceColor(src, accentSoftDecl, c[1]), nil
}

func replaceColor(src string, re *regexp.Regexp, color string) string {
	loc := re.FindStringSubmatchIndex(src)
	return src[:loc[3]] + color + src[loc[4]:]
}

// addFeature inserts one feature card (title and description HTML-escaped) before the first
// </section> after the feature grid's opening tag: PREVIEW_TARGET_NOT_FOUND {target:
// "feature-grid", path} when either is missing.
func addFeature(path, src, title, description string) (string, error) {
	loc := featureGridOpen.FindStringIndex(src)
	if loc == nil {
		return "", targetNotFound("feature-grid", path, nil)
	}
	end := strings.Index(src[loc[1]:], "</section>")
	if end < 0 {
		return "", targetNotFound("feature-grid", path, nil)
	}
	at := loc[1] + end
	card := `  <article class="feature-card"><strong>` + workspace.EscapeHTML(title) + `</strong><span>` +
		workspace.EscapeHTML(description) + "</span></article>\n    "
	return src[:at] + card + src[at:], nil
}

// updateHero replaces the inner HTML of h1#hero-title and p#hero-subtitle (other attributes
// allowed) with the escaped texts: PREVIEW_TARGET_NOT_FOUND {target: "hero-title" |
// "hero-subtitle", path} when one is missing.
func updateHero(path, src, title, subtitle string) (string, error) {
	src, ok := replaceInner(src, heroTitleOpen, heroTitleClose, workspace.EscapeHTML(title))
	if !ok {
		return "", targetNotFound("hero-title", path, nil)
	}
	src, ok = replaceInner(src, heroSubOpen, heroSubClose, workspace.EscapeHTML(subtitle))
	if !ok {
		return "", targetNotFound("hero-subtitle", path, nil)
	}
	return src, nil
}

func replaceInner(src string, open, closing *regexp.Regexp, inner string) (string, bool) {
	o := open.FindStringIndex(src)
	if o == nil {
		return src, false
	}
	c := closing.FindStringIndex(src[o[1]:])
	if c == nil {
		return src, false
	}
	return src[:o[1]] + inner + src[o[1]+c[0]:], true
}

// targetNotFound is PREVIEW_TARGET_NOT_FOUND (not retryable), details {target, path,
// missing?}, with a message naming the missing target.
func targetNotFound(target, path string, missing []string) error {
	d := map[string]any{"target": target, "path": path}
	msg := map[string]string{
		"feature-grid":  path + ` has no <section id="feature-grid" class="feature-grid"> with a closing </section>.`,
		"hero-title":    path + ` has no h1 with id="hero-title".`,
		"hero-subtitle": path + ` has no p with id="hero-subtitle".`,
	}[target]
	if len(missing) > 0 {
		d["missing"] = missing
		msg = path + " has no " + strings.Join(missing, " and no ") + " declaration with a hex colour ending in \";\"."
	}
	return mcp.NewError(mcp.CodePreviewTargetNotFound, false, d, "%s", msg)
}
