package workspace

import (
	"strings"
	"sync"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

func TestSetTheme(t *testing.T) {
	m, _, _ := newManager(t)
	r := must(m.SetTheme(ctx, tool("preview.setTheme"), "emerald"))(t)
	css := source(t, m, "styles.css")
	if !r.Changed || r.Path != "styles.css" || r.Revision != 3 ||
		!strings.Contains(css, "--accent: #10b981;") || !strings.Contains(css, "--accent-soft: #e7fbf3;") {
		t.Fatalf("%+v\n%s", r, css[:80])
	}
	r = must(m.SetTheme(ctx, tool("preview.setTheme"), "emerald"))(t)
	if r.Changed || r.Revision != 3 {
		t.Fatal("unchanged theme must not add a revision")
	}
	for name, th := range Themes {
		must(m.SetTheme(ctx, tool("t"), name))(t)
		if css := source(t, m, "styles.css"); !strings.Contains(css, "--accent: "+th.Accent+";") || !strings.Contains(css, "--accent-soft: "+th.AccentSoft+";") {
			t.Fatalf("%s not applied", name)
		}
	}
	_, err := m.SetTheme(ctx, tool("t"), "teal")
	wantErr(t, err, mcp.CodeToolValidationFailed, false, nil)

	must(m.ImportUpload(ctx, tool("i"), "x", entries(map[string]string{"index.html": "", "b/theme.css": ":root{--accent:#fff;}", "a.js": ""})))(t)
	r = must(m.SetTheme(ctx, tool("t"), "rose"))(t)
	if r.Path != "b/theme.css" || source(t, m, "b/theme.css") != ":root{--accent:#f43f5e;}" {
		t.Fatalf("first CSS file: %+v %q", r, source(t, m, "b/theme.css"))
	}
	must(m.WriteFile(ctx, tool("w"), "b/theme.css", "body{color:red}"))(t)
	_, err = m.SetTheme(ctx, tool("t"), "rose")
	wantErr(t, err, mcp.CodePreviewTargetNotFound, false, map[string]any{"target": "theme-tokens", "path": "b/theme.css"})
	must(m.ImportUpload(ctx, tool("i"), "x", entries(map[string]string{"index.html": ""})))(t)
	_, err = m.SetTheme(ctx, tool("t"), "rose")
	wantErr(t, err, mcp.CodePreviewTargetNotFound, false, map[string]any{"target": "stylesheet"})
}

func TestAddFeature(t *testing.T) {
	m, _, _ := newManager(t)
	must(m.AddFeature(ctx, tool("preview.addFeature"), "Fast & <small>", `Say "hi" it's`))(t)
	must(m.AddFeature(ctx, tool("preview.addFeature"), "Second", "two"))(t)
	html := source(t, m, "index.html")
	first := `<strong>Fast &amp; &lt;small&gt;</strong>`
	i, j, k := strings.Index(html, first), strings.Index(html, "<strong>Second</strong>"), strings.Index(html, FeatureSlotMarker)
	if i < 0 || j < i || k < j || !strings.Contains(html, `<span>Say &quot;hi&quot; it&#39;s</span>`) {
		t.Fatalf("cards not inserted in order before the marker:\n%s", html)
	}
	if strings.Count(html, `class="feature-card"`) != 4 {
		t.Fatal("want 4 cards")
	}
	_, err := m.AddFeature(ctx, tool("f"), strings.Repeat("t", 71), "d")
	wantErr(t, err, mcp.CodeToolValidationFailed, false, nil)
	_, err = m.AddFeature(ctx, tool("f"), "t", "")
	wantErr(t, err, mcp.CodeToolValidationFailed, false, nil)
	must(m.WriteFile(ctx, tool("w"), "index.html", "<p>no slot</p>"))(t)
	_, err = m.AddFeature(ctx, tool("f"), "t", "d")
	wantErr(t, err, mcp.CodePreviewTargetNotFound, false, map[string]any{"target": "feature-slot", "path": "index.html"})
	must(m.ImportUpload(ctx, tool("i"), "x", entries(map[string]string{"a.css": ""})))(t)
	_, err = m.AddFeature(ctx, tool("f"), "t", "d")
	wantErr(t, err, mcp.CodePreviewTargetNotFound, false, map[string]any{"target": "html-entry"})
}

func TestUpdateHero(t *testing.T) {
	m, _, _ := newManager(t)
	r := must(m.UpdateHero(ctx, tool("preview.updateHero"), "Hello <World>", ptr("Sub & title")))(t)
	html := source(t, m, "index.html")
	if !r.Changed || !strings.Contains(html, `<h1 id="hero-title">Hello &lt;World&gt;</h1>`) || !strings.Contains(html, `<p id="hero-subtitle">Sub &amp; title</p>`) {
		t.Fatalf("%s", html)
	}
	r = must(m.UpdateHero(ctx, tool("preview.updateHero"), "Hello <World>", ptr("Sub & title")))(t)
	if r.Changed {
		t.Fatal("same hero must not add a revision")
	}
	must(m.WriteFile(ctx, tool("w"), "index.html", `<H1 class=x id='hero-title'>a<b>c</b></H1><p id="hero-sub">`))(t)
	_, err := m.UpdateHero(ctx, tool("h"), "T", ptr("S"))
	wantErr(t, err, mcp.CodePreviewTargetNotFound, false, map[string]any{"target": "hero-subtitle", "path": "index.html"})
	must(m.WriteFile(ctx, tool("w"), "index.html", `<h2 id="hero-title">x</h2>`))(t)
	_, err = m.UpdateHero(ctx, tool("h"), "T", ptr("S"))
	wantErr(t, err, mcp.CodePreviewTargetNotFound, false, map[string]any{"target": "hero-title", "path": "index.html"})
	must(m.WriteFile(ctx, tool("w"), "index.html", `<h1 data-x="1" id='hero-title'>İİ old</H1><p id='hero-subtitle'>old</p>`))(t)
	must(m.UpdateHero(ctx, tool("h"), "T", ptr("S")))(t)
	if got := source(t, m, "index.html"); got != `<h1 data-x="1" id='hero-title'>T</H1><p id='hero-subtitle'>S</p>` {
		t.Fatalf("%q", got)
	}
	_, err = m.UpdateHero(ctx, tool("h"), strings.Repeat("x", 91), ptr("S"))
	wantErr(t, err, mcp.CodeToolValidationFailed, false, nil)
}

// TestConcurrentUse hammers the manager from several goroutines (run with -race).
func TestConcurrentUse(t *testing.T) {
	m, folder := linked(t)
	var wg sync.WaitGroup
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 40; i++ {
				switch (g + i) % 6 {
				case 0:
					m.WriteFile(ctx, tool("w"), "app.js", strings.Repeat("a", i))
				case 1:
					m.Status(ctx)
					m.ListFiles()
				case 2:
					m.Undo(ctx, tool("u"))
				case 3:
					m.SaveAll(ctx, tool("s"), SaveOptions{})
				case 4:
					m.SetPreviewStatus(m.Revision(), PreviewSynced, "")
				case 5:
					m.ApplyPatch(ctx, tool("p"), "app.js", "a", "b", OccurrenceAll)
				}
			}
		}(g)
	}
	wg.Wait()
	last := m.Revision()
	if _, err := m.WriteFile(ctx, tool("w"), "app.js", "final"); err != nil || m.Revision() != last+1 {
		t.Fatalf("manager unusable after concurrent use: %v", err)
	}
	must(m.SaveAll(ctx, tool("s"), SaveOptions{}))(t)
	if c, _ := folder.Content("app.js"); c != "final" {
		t.Fatalf("folder has %q", c)
	}
}

func ptr(s string) *string { return &s }

// TestUpdateHeroTitleOnlyKeepsSubtitle: a title-only update never erases the subtitle.
func TestUpdateHeroTitleOnlyKeepsSubtitle(t *testing.T) {
	m, _, _ := newManager(t)
	must(m.UpdateHero(ctx, tool("preview.updateHero"), "First", ptr("Keep this subtitle")))(t)
	must(m.UpdateHero(ctx, tool("preview.updateHero"), "Only the title", nil))(t)
	html := source(t, m, "index.html")
	if !strings.Contains(html, `<h1 id="hero-title">Only the title</h1>`) || !strings.Contains(html, `<p id="hero-subtitle">Keep this subtitle</p>`) {
		t.Fatalf("%s", html)
	}
}
