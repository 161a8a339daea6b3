package websurface

import "github.com/webcoding/studio/wasm/workspace"

// RootName is the realtime workspace's root name (live reference, section 3.2).
const RootName = "live-web-coding-demo"

// The three seed files (live reference, section 3.2), written for this project. The visual tools'
// targets: h1#hero-title and p#hero-subtitle (web.updateHero), the feature grid section
// (web.addFeature) and the --accent / --accent-soft tokens of style.css (web.setTheme).
const (
	seedIndexHTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Realtime web coding</title>
    <link rel="stylesheet" href="./style.css">
    <script src="./script.js" defer></script>
  </head>
  <body>
    <p class="eyebrow">Realtime web coding</p>
    <header class="hero">
      <p class="kicker">Three files, one revision</p>
      <h1 id="hero-title">Build a page by calling tools</h1>
      <p id="hero-subtitle">Every web.* call changes this site through the registry, and the preview acknowledges each revision.</p>
      <button id="hero-button" type="button">Try it</button>
    </header>
    <section id="feature-grid" class="feature-grid">
      <article class="feature-card"><strong>Discover</strong><span>web.getWorkspace reports the files and the revision.</span></article>
      <article class="feature-card"><strong>Mutate</strong><span>Writes, patches and visual tools take expectedRevision.</span></article>
      <article class="feature-card"><strong>Render</strong><span>The sandboxed preview acknowledges the new revision.</span></article>
    </section>
    <section class="cta">
      <p id="cta-copy">Ask the agent for a change, or run a palette card.</p>
    </section>
  </body>
</html>
`
	seedStyleCSS = `:root {
  --accent: #6d5dfc;
  --accent-soft: #eeedff;
  --ink: #1d1b2f;
  --muted: #5d5a72;
  --canvas: #ffffff;
  font-family: system-ui, sans-serif;
}

body { margin: 0; color: var(--ink); background: var(--canvas); }
.eyebrow { margin: 0; padding: 0.5rem 1.5rem; color: var(--accent); font-weight: 600; }
.hero { padding: 3rem 1.5rem; background: var(--accent-soft); }
.kicker { color: var(--muted); text-transform: uppercase; letter-spacing: 0.08em; }
#hero-button { padding: 0.6rem 1.2rem; border: 0; border-radius: 999px; color: #fff; background: var(--accent); font: inherit; }
.feature-grid { display: grid; gap: 1rem; padding: 1.5rem; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); }
.feature-card { display: grid; gap: 0.4rem; padding: 1rem; border: 1px solid var(--accent-soft); border-radius: 0.75rem; }
.cta { padding: 1.5rem; color: var(--muted); }

@media (max-width: 520px) {
  .hero { padding: 2rem 1rem; }
}
`
	seedScriptJS = `const button = document.getElementById("hero-button");
const cta = document.getElementById("cta-copy");
button?.addEventListener("click", () => {
  cta.textContent = "The button ran script.js in the preview.";
  button.textContent = "Clicked";
});
`
)

// Seed returns the three-file seed workspace: index.html (active), style.css, script.js.
func Seed() workspace.Snapshot {
	return workspace.Snapshot{
		Metadata: workspace.Metadata{RootName: RootName, ActivePath: "index.html"},
		Files: []*workspace.File{
			workspace.NewTextFile("index.html", seedIndexHTML),
			workspace.NewTextFile("style.css", seedStyleCSS),
			workspace.NewTextFile("script.js", seedScriptJS),
		},
	}
}
