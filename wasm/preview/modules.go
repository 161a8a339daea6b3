package preview

import (
	"encoding/base64"
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"github.com/webcoding/studio/wasm/preview/jsscan"
)

// MaxModuleImports is the number of distinct local modules followed per module script, the
// root excluded (modules already in the document's graph are reused and not counted). The
// next new local import is replaced by a data: module throwing "JavaScript module import limit
// exceeded at: X" and reported as module-graph-limit (REFERENCE §4, §5.3, §5.4).
const MaxModuleImports = 32

// ImportMapAttr marks the one import map the compiler emits (right after the bridge).
const ImportMapAttr = "data-workspace-importmap"

// moduleGraph is the document's one module graph: every workspace module any module script
// reaches, in discovery order, keyed by virtual URL in the emitted import map.
type moduleGraph struct {
	order []string // virtual URLs in discovery order
	// computed is set when some module has an import(expr) with a computed argument: every
	// workspace JavaScript file is then mapped (allModules), since any may be asked for.
	computed bool
	target   map[string]string // virtual URL → data: URL of the rewritten module
	byPath   map[string]string // workspace path → specifier written into importing modules
	page     pageImportMap     // the entry's own import map(s)
}

// pageImportMap is the merged import map of the entry's <script type="importmap"> elements:
// its "imports", and its "scopes" resolved to workspace path prefixes (first definition of a
// key wins, as browsers merge import maps; HTML "merge existing and new import maps").
type pageImportMap struct {
	specMap
	scopes []importScope // most specific (longest prefix) first
}

// specMap is one specifier map: keys in sorted order of first definition, and their targets.
type specMap struct {
	keys    []string
	targets map[string]string
}

// importScope is one "scopes" entry: the workspace path (or path prefix, ending in "/") its
// key names, resolved against the entry page, and its specifier map.
type importScope struct {
	prefix string
	specMap
}

// merge adds the entries of m whose keys are new.
func (s *specMap) merge(m map[string]string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if s.targets == nil {
		s.targets = map[string]string{}
	}
	for _, k := range keys {
		if _, dup := s.targets[k]; !dup {
			s.targets[k] = m[k]
			s.keys = append(s.keys, k)
		}
	}
}

// add merges the JSON text of one page import map of the entry page entryPath; invalid JSON is
// ignored (as the browser ignores it, reporting an error on the console). A scope whose key is
// not a workspace URL (another origin) can match no workspace module and is left out.
func (m *pageImportMap) add(text, entryPath string) {
	var v struct {
		Imports map[string]string            `json:"imports"`
		Scopes  map[string]map[string]string `json:"scopes"`
	}
	if json.Unmarshal([]byte(text), &v) != nil {
		return
	}
	m.merge(v.Imports)
	for key, specs := range v.Scopes {
		prefix, ok := scopePrefix(key, entryPath)
		if !ok {
			continue
		}
		i := slices.IndexFunc(m.scopes, func(s importScope) bool { return s.prefix == prefix })
		if i < 0 {
			m.scopes = append(m.scopes, importScope{prefix: prefix})
			i = len(m.scopes) - 1
		}
		m.scopes[i].merge(specs)
	}
	sort.SliceStable(m.scopes, func(i, j int) bool { return len(m.scopes[i].prefix) > len(m.scopes[j].prefix) })
}

// scopePrefix resolves a scope key against the entry page: "lib/" → "lib/", "/" → "", "./a.js"
// → "a.js"; ok is false for a key outside the workspace.
func scopePrefix(key, entryPath string) (string, bool) {
	if !strings.HasSuffix(key, "/") {
		return resolvePath(key, entryPath)
	}
	p, ok := resolvePath(key+"x", entryPath)
	if !ok {
		return "", false
	}
	return strings.TrimSuffix(p, "x"), true
}

// lookup applies the page's import map to a bare specifier imported by the module at
// workspace path from (the entry page's path for an inline module): the matching scopes, most
// specific first (a scope matches a module it names or, ending in "/", one below it), then
// "imports" (HTML "resolve a module specifier"). scoped reports that a scope supplied the
// target.
func (m *pageImportMap) lookup(spec, from string) (target string, scoped, ok bool) {
	for _, s := range m.scopes {
		if s.prefix == from || (strings.HasSuffix(s.prefix, "/") || s.prefix == "") && strings.HasPrefix(from, s.prefix) {
			if t, ok := s.resolve(spec); ok {
				return t, true, true
			}
		}
	}
	t, ok := m.resolve(spec)
	return t, false, ok
}

// resolve applies one specifier map to a bare specifier: an exact key, else the longest key
// ending in "/" that prefixes it (HTML "resolve an imports match").
func (s *specMap) resolve(spec string) (string, bool) {
	if t, ok := s.targets[spec]; ok {
		return t, true
	}
	best := ""
	for _, k := range s.keys {
		if strings.HasSuffix(k, "/") && strings.HasPrefix(spec, k) && len(k) > len(best) {
			best = k
		}
	}
	if best == "" {
		return "", false
	}
	t := s.targets[best]
	if !strings.HasSuffix(t, "/") {
		return "", false
	}
	return t + spec[len(best):], true
}

// moduleScript walks the module graph from one module script (REFERENCE §5.3, issue 13 item
// 2), records diagnostic pass 3, and returns the rewritten text of the root. rootPath is ""
// for an inline module (whose text is rootSource and whose references resolve against the
// entry, from).
//
// Every reached module is rewritten once: its references become virtual URLs
// (VirtualURL(path)) that the document's import map maps to data: URLs, `import.meta.url`
// becomes the module's virtual URL, and "//# sourceURL=<path>" is appended. For each
// reference: ignored ("data:", "blob:", …) → kept; external → a data: module throwing
// "External module import blocked: X"; bare → resolved through the page's own import map
// (local targets are followed like relative references, external targets kept), else kept and
// reported as unsupported; local and a workspace JavaScript, JSON or CSS file → its virtual URL
// (new JavaScript files count against MaxModuleImports); local otherwise → a data: module
// throwing "Missing local module import: X".
func (c *compiler) moduleScript(rootPath, rootSource, from string) string {
	g := &c.mods
	type pending struct{ path, source string }
	var queue []pending
	rootURL := VirtualURL(from)
	if rootPath != "" {
		if _, done := g.byPath[rootPath]; done {
			return ""
		}
		g.byPath[rootPath] = VirtualURL(rootPath)
		queue = append(queue, pending{rootPath, rootSource})
		rootURL = VirtualURL(rootPath)
	}
	followed := 0
	rewrite := func(src, from, selfURL string) string {
		src = c.locationJS(src)
		var sb strings.Builder
		if !c.diagOnly {
			sb.Grow(len(src) + 256)
		}
		type edit struct {
			start, end int
			text       string
		}
		var edits []edit
		for _, r := range jsscan.FindRefs(src) {
			v := r.Value
			req := trimRef(v)
			repl := ""
			switch classify(v) {
			case refIgnored:
				continue
			case refExternal:
				c.diags.external(passModules, labelModuleImport, from, req)
				repl = dataModule(BlockedModuleMessage(req), r.Names)
			default:
				base := from
				if !(strings.HasPrefix(req, ".") || strings.HasPrefix(req, "/") || strings.HasPrefix(req, "\\")) {
					t, scoped, ok := g.page.lookup(req, from)
					if !ok {
						c.diags.add(passModules, DiagUnsupportedModule, labelModuleImport, from, req,
							"Bare module specifier is unavailable in the standalone preview: "+req)
						continue
					}
					if classify(t) != refLocal {
						// External target: the emitted import map keeps the page's entry; the
						// network policy decides at run time.
						if classify(t) == refExternal {
							c.diags.external(passModules, labelModuleImport, from, trimRef(t))
						}
						if !scoped {
							continue
						}
						// A scope's target is written into the module itself: the emitted
						// import map cannot scope by the module's data: URL.
						repl = trimRef(t)
						edits = append(edits, edit{r.Start, r.End, string(r.Quote) + repl + string(r.Quote)})
						continue
					}
					v, base = t, c.entryPath // import map addresses resolve against the document
				}
				p, ok := resolvePath(v, base)
				var f *File
				if ok {
					f = c.ix.get(p)
					if f != nil && (f.Kind == KindAsset || !moduleLanguage(f)) {
						f = nil
					}
				}
				switch {
				case f == nil && ok && c.ix.get(p) == nil && c.ix.notImported[p] != "":
					c.diags.notImported(passModules, labelModuleImport, from, req, p, c.ix.notImported[p])
					repl = dataModule(NotImportedMessage(labelModuleImport, req, p, c.ix.notImported[p]), r.Names)
				case f == nil && ok && c.ix.get(p) == nil && ExcludedPath(p):
					msg := ExcludedMessage(labelModuleImport, req, p)
					c.diags.add(passModules, DiagNotImported, labelModuleImport, from, req, msg)
					repl = dataModule(msg, r.Names)
				case f == nil:
					if !ok || c.ix.get(p) == nil {
						c.diags.missing(passModules, labelModuleImport, from, req)
					}
					repl = dataModule("Missing local module import: "+req, r.Names)
				case g.byPath[p] != "":
					repl = g.byPath[p]
				case f.Language != LangJS:
					repl = VirtualURL(p)
					g.byPath[p] = repl
					if !c.diagOnly {
						mime := "application/json"
						if f.Language == LangCSS {
							mime = "text/css"
						}
						g.add(repl, "data:"+mime+";charset=utf-8;base64,"+base64.StdEncoding.EncodeToString([]byte(f.Source)))
					}
				case followed >= MaxModuleImports:
					c.diags.add(passModules, DiagModuleGraphLimit, labelModuleImport, from, req,
						"JavaScript module graph limit (32) reached; import was not inspected: "+req)
					repl = dataModule("JavaScript module import limit exceeded at: "+req, r.Names)
				default:
					followed++
					repl = VirtualURL(p)
					g.byPath[p] = repl
					queue = append(queue, pending{p, f.Source})
				}
			}
			edits = append(edits, edit{r.Start, r.End, string(r.Quote) + repl + string(r.Quote)})
		}
		if c.diagOnly {
			return ""
		}
		metas := jsscan.FindImportMetaURL(src)
		resolves := jsscan.FindImportMetaResolve(src)
		dyns := jsscan.FindDynamicImports(src)
		if len(dyns) > 0 {
			g.computed = true
		}
		if len(metas) > 0 || len(dyns) > 0 || len(resolves) > 0 {
			var ins []edit // insertions go before replacements at the same offset
			for _, d := range dyns {
				ins = append(ins, edit{d.ArgStart, d.ArgStart, dynamicResolvePrefix}, edit{d.ArgEnd, d.ArgEnd, "," + jsonString(selfURL) + ")"})
			}
			for _, m := range metas {
				edits = append(edits, edit{m[0], m[1], "(" + jsonString(selfURL) + ")"})
			}
			for _, m := range resolves {
				edits = append(edits, edit{m[0], m[1], "(" + metaResolvePrefix + jsonString(selfURL) + "))"})
			}
			edits = append(ins, edits...)
			sort.SliceStable(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
		}
		last := 0
		for _, e := range edits {
			if e.start < last {
				continue
			}
			sb.WriteString(src[last:e.start])
			sb.WriteString(e.text)
			last = e.end
		}
		sb.WriteString(src[last:])
		return sb.String()
	}
	var root string
	if rootPath == "" {
		root = rewrite(rootSource, from, rootURL)
	}
	for i := 0; i < len(queue); i++ {
		m := queue[i]
		out := rewrite(m.source, m.path, VirtualURL(m.path))
		if !c.diagOnly {
			out += "\n//# sourceURL=" + sourceURLPath(m.path) + "\n"
			g.add(VirtualURL(m.path), "data:text/javascript;charset=utf-8;base64,"+base64.StdEncoding.EncodeToString([]byte(out)))
		}
	}
	return root
}

// dynamicResolvePrefix wraps the argument of a computed import(expr): a string starting with
// "./", "../" or "/" is resolved against the importing module's virtual URL (its real base is a
// data: URL), anything else is passed through (bare specifiers go through the import map).
const dynamicResolvePrefix = `(function(s,b){return typeof s==="string"&&/^\.{0,2}\//.test(s)?new URL(s,b).href:s})(`

// metaResolvePrefix (then the module's virtual URL and "))") replaces `import.meta.resolve`:
// the module's real URL is a data: URL, against which "./x.js" or "/js/x.js" cannot resolve
// (TypeError "Failed to resolve module specifier"; Vite's preload helper calls
// import.meta.resolve("/js/chunk.js")), so a string starting with "./", "../" or "/" resolves
// against its virtual URL, as over HTTP; anything else (a bare specifier, a URL) goes to the
// real import.meta.resolve, which reads the document's import map.
const metaResolvePrefix = `(function(b){return function(s){s=String(s);return/^\.{0,2}\//.test(s)?new URL(s,b).href:import.meta.resolve(s)}})(`

// allModules adds every workspace JavaScript file not yet in the graph to it (after a computed
// import(expr)), without diagnostics: these files are only mapped, not known to be loaded.
func (c *compiler) allModules() {
	if !c.mods.computed || c.diagOnly {
		return
	}
	c.diags.muted = true
	defer func() { c.diags.muted = false }()
	for i := range c.ix.files {
		f := &c.ix.files[i]
		if f.Kind == KindAsset || f.Language != LangJS || c.mods.byPath[f.Path] != "" {
			continue
		}
		c.moduleScript(f.Path, f.Source, f.Path)
	}
}

func (g *moduleGraph) add(url, data string) {
	if _, dup := g.target[url]; dup {
		return
	}
	g.target[url] = data
	g.order = append(g.order, url)
}

// moduleLanguage: files a module graph can import (JavaScript, JSON modules, CSS modules).
func moduleLanguage(f *File) bool {
	return f.Language == LangJS || f.Language == LangJSON || f.Language == LangCSS
}

// importMapScript returns the document's import map element: every module of the graph
// (virtual URL → data: URL) and the page's own entries whose targets are not workspace files
// (kept as written), or "" when there is nothing to map. '<' in the JSON is escaped.
func (c *compiler) importMapScript() string {
	g := &c.mods
	var ext []string
	for _, k := range g.page.keys {
		if classify(g.page.targets[k]) != refLocal {
			ext = append(ext, k)
		}
	}
	if len(g.order) == 0 && len(ext) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(`<script type="importmap" ` + ImportMapAttr + `>{"imports":{`)
	n := 0
	for _, k := range ext {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.WriteString(jsonString(k))
		b.WriteByte(':')
		b.WriteString(jsonString(g.page.targets[k]))
	}
	for _, u := range g.order {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.WriteString(jsonString(u))
		b.WriteByte(':')
		b.WriteString(jsonString(g.target[u]))
	}
	b.WriteString("}}</script>")
	return b.String()
}

// sourceURLPath is a workspace path as written after "//# sourceURL=": percent-encoded where a
// character could end the comment or the script element.
func sourceURLPath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = encodeURIComponent(s)
	}
	return strings.Join(segs, "/")
}

// BlockedModuleMessage is the error a module import of another site's URL throws in the
// preview (the page sees it as the importing script's uncaught error; the console and the
// preview status show it): "Module import of https://cdn.example/lib.js was blocked by the
// preview's network policy (modules from other sites are not loaded in the preview)".
func BlockedModuleMessage(url string) string {
	return "Module import of " + url + " was blocked by the preview's network policy (modules from other sites are not loaded in the preview)"
}

// dataModule returns a data: JavaScript module whose evaluation throws Error(message) and
// that exports names (jsscan.Ref.Names, "default" included), so the importing statement links
// and the page sees message — not the browser's "does not provide an export named …" link
// error about this module.
func dataModule(message string, names []string) string {
	var b strings.Builder
	b.WriteString("throw new Error(" + jsonString(message) + ");")
	if len(names) > 0 {
		b.WriteString("var _;export{")
		seen := map[string]bool{}
		for _, n := range names {
			if seen[n] {
				continue
			}
			if len(seen) > 0 {
				b.WriteByte(',')
			}
			seen[n] = true
			b.WriteString("_ as " + jsonString(n))
		}
		b.WriteString("};")
	}
	return "data:text/javascript," + encodeURIComponent(b.String())
}
