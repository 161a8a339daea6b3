package preview

import (
	"github.com/webcoding/studio/wasm/jsonstring"
	"strings"

	"github.com/webcoding/studio/wasm/preview/jsscan"
)

// MaxModuleImports is the number of distinct local modules followed per module graph, the
// root excluded. The next new local import is replaced by a data: module throwing
// "JavaScript module import limit exceeded at: X" and reported as module-graph-limit
// (REFERENCE §4, §5.3, §5.4).
const MaxModuleImports = 32

// BootstrapAttr marks a module bootstrap <script>; its value is the root module key.
const BootstrapAttr = "data-workspace-module"

type module struct {
	key    string // module-map key: the specifier, or the inline key for an inline root
	from   string // path relative references resolve against (and diagnostics name)
	source string
}

// moduleBootstrap walks the module graph from one module script (REFERENCE §5.3), records
// diagnostic pass 3, and writes the bootstrap <script>. rootPath is "" for an inline root.
//
// The walk is breadth-first in reference order; each module path is visited once, so cycles
// are fine. For each reference: ignored ("data:", "blob:", …) → kept; external → a data:
// module throwing "External module import blocked: X"; local-looking ("." or "/" first) and a
// workspace JavaScript file → its specifier (new files count against MaxModuleImports);
// local-looking otherwise → a data: module throwing "Missing local module import: X"; bare →
// kept.
func (c *compiler) moduleBootstrap(b *strings.Builder, rootKey, rootPath, rootSource, from string) {
	mods := []module{{rootKey, from, rootSource}}
	inGraph := map[string]string{}
	if rootPath != "" {
		inGraph[rootPath] = rootKey
	}
	followed := 0
	out := make([]string, 0, 1)
	for i := 0; i < len(mods); i++ {
		m := mods[i]
		var sb strings.Builder
		if !c.diagOnly {
			sb.Grow(len(m.source) + 256)
		}
		last := 0
		for _, r := range jsscan.FindRefs(m.source) {
			v := r.Value
			req := trimRef(v)
			repl := ""
			switch classify(v) {
			case refIgnored:
				continue
			case refExternal:
				c.diags.external(passModules, labelModuleImport, m.from, req)
				repl = dataModule("External module import blocked: " + req)
			default:
				if !(strings.HasPrefix(req, ".") || strings.HasPrefix(req, "/") || strings.HasPrefix(req, "\\")) {
					c.diags.add(passModules, DiagUnsupportedModule, labelModuleImport, m.from, req,
						"Bare module specifier is unavailable in the standalone preview: "+req)
					continue
				}
				p, ok := resolvePath(v, m.from)
				var f *File
				if ok {
					f = c.ix.text(p, LangJS)
				}
				switch {
				case f == nil:
					if !ok || c.ix.get(p) == nil {
						c.diags.missing(passModules, labelModuleImport, m.from, req)
					}
					repl = dataModule("Missing local module import: " + req)
				case inGraph[p] != "":
					repl = inGraph[p]
				case followed >= MaxModuleImports:
					c.diags.add(passModules, DiagModuleGraphLimit, labelModuleImport, m.from, req,
						"JavaScript module graph limit (32) reached; import was not inspected: "+req)
					repl = dataModule("JavaScript module import limit exceeded at: " + req)
				default:
					followed++
					repl = moduleSpecifier(p)
					inGraph[p] = repl
					mods = append(mods, module{repl, p, f.Source})
				}
			}
			if c.diagOnly {
				continue
			}
			sb.WriteString(m.source[last:r.Start])
			sb.WriteByte(r.Quote)
			sb.WriteString(repl)
			sb.WriteByte(r.Quote)
			last = r.End
		}
		if !c.diagOnly {
			sb.WriteString(m.source[last:])
			out = append(out, sb.String())
		}
	}
	if c.diagOnly {
		return
	}
	b.WriteString("<script ")
	b.WriteString(BootstrapAttr)
	b.WriteString(`="`)
	b.WriteString(escapeAttr(rootKey))
	b.WriteString(`">(function(){"use strict";var modules={`)
	var lit []byte // reused: the module sources can be large
	for i, m := range mods {
		if i > 0 {
			b.WriteByte(',')
		}
		lit = jsonstring.Append(lit[:0], m.key, jsonstring.HTMLSafe)
		b.Write(lit)
		b.WriteByte(':')
		lit = jsonstring.Append(lit[:0], out[i], jsonstring.HTMLSafe)
		b.Write(lit)
	}
	b.WriteString("},root=")
	b.WriteString(jsonString(rootKey))
	b.WriteString(",prefix=")
	b.WriteString(jsonString(ModuleSpecifierPrefix))
	b.WriteString(bootstrapTail)
	b.WriteString(jsonString(bridgeGlobal))
	b.WriteString(bootstrapEnd)
}

// bootstrapTail and bootstrapEnd are the run-time part of a bootstrap script: one Blob URL
// per module, an import map from every workspace specifier to its Blob URL, revocation on
// pagehide, a dynamic import of the root handed to the bridge (if present) and re-thrown
// asynchronously when it rejects, so the window error handler sees it.
const bootstrapTail = `,urls={},imports={},k;` +
	`for(k in modules){if(Object.prototype.hasOwnProperty.call(modules,k)){urls[k]=URL.createObjectURL(new Blob([modules[k]],{type:"text/javascript"}));if(k.indexOf(prefix)===0)imports[k]=urls[k];}}` +
	`var map=document.createElement("script");map.type="importmap";map.textContent=JSON.stringify({imports:imports});` +
	`(document.head||document.documentElement).appendChild(map);` +
	`window.addEventListener("pagehide",function(){for(var u in urls)URL.revokeObjectURL(urls[u]);});` +
	`var p=import(urls[root]);var bridge=window[`

const bootstrapEnd = `];if(bridge&&typeof bridge.track==="function")bridge.track(p);` +
	`p.catch(function(e){setTimeout(function(){throw e;},0);});})();</script>`

// dataModule returns a data: JavaScript module whose evaluation throws Error(message).
func dataModule(message string) string {
	return "data:text/javascript," + encodeURIComponent("throw new Error("+jsonString(message)+");")
}
