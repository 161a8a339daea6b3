package workspace

// SeedRootName is the seed workspace's root name and repository id (REFERENCE §1).
const SeedRootName = "canvas-landing"

const seedIndexHTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Canvas Landing</title>
    <link rel=stylesheet href=styles.css>
  </head>
  <body>
    <header class="hero">
      <p class="eyebrow">Canvas</p>
      <h1 id="hero-title">Sketch, ship and share in one canvas</h1>
      <p id="hero-subtitle">A small landing page you can reshape with plain HTML, CSS and JavaScript.</p>
      <button id="hero-button" type="button">Start building</button>
    </header>
    <main>
      <section class="features" aria-label="Features">
        <article class="feature-card">
          <strong>Live preview</strong>
          <span>Every change renders in the sandboxed preview as soon as it is saved.</span>
        </article>
        <article class="feature-card">
          <strong>Offline first</strong>
          <span>Your files stay in the browser until you save them to a folder.</span>
        </article>
        <!-- feature-slot -->
      </section>
      <p class="cta"><span id="cta-copy">Press the button to get started.</span></p>
    </main>
    <script src="app.js"></script>
  </body>
</html>
`

const seedStylesCSS = `:root {
  --accent: #8b5cf6;
  --accent-soft: #f0eaff;
  --ink: #1f1933;
  --paper: #ffffff;
  font-family: system-ui, sans-serif;
}

body {
  margin: 0;
  color: var(--ink);
  background: var(--paper);
}

.hero {
  padding: 4rem 1.5rem 3rem;
  background: var(--accent-soft);
  text-align: center;
}

.eyebrow {
  color: var(--accent);
  font-weight: 600;
  letter-spacing: 0.08em;
  text-transform: uppercase;
}

#hero-button {
  padding: 0.75rem 1.5rem;
  border: 0;
  border-radius: 999px;
  color: #fff;
  background: var(--accent);
  font: inherit;
  cursor: pointer;
}

.features {
  display: grid;
  gap: 1rem;
  grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr));
  max-width: 60rem;
  margin: 2rem auto;
  padding: 0 1.5rem;
}

.feature-card {
  display: grid;
  gap: 0.5rem;
  padding: 1.25rem;
  border: 1px solid var(--accent-soft);
  border-radius: 1rem;
}

.cta {
  text-align: center;
}
`

const seedAppJS = `const button = document.querySelector("#hero-button");
const copy = document.querySelector("#cta-copy");
let clicks = 0;

button.addEventListener("click", () => {
  clicks += 1;
  copy.textContent = "You pressed the button " + clicks + (clicks === 1 ? " time." : " times.");
  button.textContent = "Keep building";
});
`

const seedReadme = `# Canvas Landing

A four-file starter page for the Web Coding Studio.

- index.html: the page (hero, feature cards, call to action)
- styles.css: theme tokens (--accent, --accent-soft) and layout
- app.js: the hero button's click handler
`

// Seed returns the built-in 4-file workspace "canvas-landing" of REFERENCE §1: index.html
// (active), styles.css, app.js and README.md, in that order. Each call returns new File
// values. Reset and the first hydration of an empty Repository import it.
func Seed() Snapshot {
	return Snapshot{
		Metadata: Metadata{RootName: SeedRootName, ActivePath: "index.html"},
		Files: []*File{
			NewTextFile("index.html", seedIndexHTML),
			NewTextFile("styles.css", seedStylesCSS),
			NewTextFile("app.js", seedAppJS),
			NewTextFile("README.md", seedReadme),
		},
	}
}
