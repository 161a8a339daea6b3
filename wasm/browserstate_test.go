package wasm

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// browserImmutable are the package-level variables wasm/cmd/browser may keep: tables written
// once (in their declaration or by an init function) and only read afterwards. Everything the
// page changes while it runs lives on the app object (app.go: chatUI, workspaceUI, panelsUI,
// renderUI; docs/design.md §5.28). `var _ I = (*T)(nil)` assertions need no entry.
var browserImmutable = map[string]string{
	// Registries filled by init functions (registerFeature, registerRecovery; the
	// conformance build's init sets conformanceHook) and read-only once main runs.
	"features":        "feature registry (feature.go), appended only by registerFeature from init",
	"recoveryRules":   "recovery rule registry (recovery.go), appended only by registerRecovery from init",
	"conformanceHook": "set by conformance.go's init in conformance builds only",
	// Constant lookup tables.
	"readOnlyTools":   "tool names the UI reads on every refresh (app.go)",
	"scopeLabels":     "catalog scope labels (catalog.go)",
	"chatRestoreKeep": "transcript actions kept when a chat is restored (chats.go)",
	"typingRead":      "tool calls that do not end a typing burst (editor.go)",
	"inspectorTabs":   "the inspector's tab descriptors (inspector.go)",
	"settingsCodes":   "error codes that offer Provider settings (provider.go)",
	"settingKeys":     "localStorage keys of the provider settings (settings.go)",
	"quickOpen":       "the quick-open dialog's element ids and labels (palette.go)",
	"searchBox":       "the search dialog's element ids and labels (palette.go)",
	// Values computed once from constants (sync.OnceValue or an initializer).
	"morph":                "the shim's morph function, looked up once (render.go)",
	"recipesWithFolder":    "recipe chips HTML with the folder recipes (render.go)",
	"recipesWithoutFolder": "recipe chips HTML without them (render.go)",
	"presetOptions":        "the provider select's options HTML (settings.go)",
	"settingsForm":         "the provider settings form HTML (settings.go)",
	// Error values.
	"errClipboard": "trace.go",
}

// browserRegistrars may write a registry; they may be called only from init functions.
var browserRegistrars = map[string]bool{"registerFeature": true, "registerRecovery": true}

// TestBrowserNoMutableGlobals keeps the page's UI state on the app object (issue 15,
// docs/design.md §5.28): every package-level variable of wasm/cmd/browser (all build tags,
// test files excepted) must be in browserImmutable, and none of them may be written outside an
// init function or a registrar called only from init. A state variable added at package level,
// or a table written at run time, fails here.
func TestBrowserNoMutableGlobals(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("cmd", "browser", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no files in cmd/browser: %v", err)
	}
	fset := token.NewFileSet()
	var parsed []*ast.File
	globals := map[string]token.Position{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				for _, id := range s.(*ast.ValueSpec).Names {
					if id.Name == "_" {
						continue
					}
					globals[id.Name] = fset.Position(id.Pos())
					if _, ok := browserImmutable[id.Name]; !ok {
						t.Errorf("%s: package-level var %s: UI state belongs on the app (app.go), or add an immutable table to browserImmutable with a reason (design.md §5.28)",
							fset.Position(id.Pos()), id.Name)
					}
				}
			}
		}
	}
	var stale []string
	for name := range browserImmutable {
		if _, ok := globals[name]; !ok {
			stale = append(stale, name)
		}
	}
	sort.Strings(stale)
	if len(stale) > 0 {
		t.Errorf("browserImmutable lists variables that no longer exist: %v", stale)
	}

	// isGlobal reports whether id names a package-level variable: the parser resolves
	// identifiers declared in the same function or file (id.Obj), so an unresolved name or
	// one resolved to a file-level declaration is the package's.
	isGlobal := func(id *ast.Ident) bool {
		if _, ok := globals[id.Name]; !ok {
			return false
		}
		if id.Obj == nil {
			return true
		}
		pos := fset.Position(id.Obj.Pos())
		return pos == globals[id.Name]
	}
	root := func(e ast.Expr) *ast.Ident {
		for {
			switch x := e.(type) {
			case *ast.Ident:
				return x
			case *ast.SelectorExpr:
				e = x.X
			case *ast.IndexExpr:
				e = x.X
			case *ast.StarExpr:
				e = x.X
			case *ast.ParenExpr:
				e = x.X
			default:
				return nil
			}
		}
	}
	for _, f := range parsed {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			initTime := fn.Recv == nil && (fn.Name.Name == "init" || browserRegistrars[fn.Name.Name])
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				var targets []ast.Expr
				switch x := n.(type) {
				case *ast.AssignStmt:
					targets = x.Lhs
				case *ast.IncDecStmt:
					targets = []ast.Expr{x.X}
				case *ast.UnaryExpr:
					if x.Op == token.AND { // &global hands out a pointer to write through
						targets = []ast.Expr{x.X}
					}
				case *ast.CallExpr:
					if id, ok := x.Fun.(*ast.Ident); ok && browserRegistrars[id.Name] && fn.Name.Name != "init" {
						t.Errorf("%s: %s called from %s: registrars run only from init functions", fset.Position(x.Pos()), id.Name, fn.Name.Name)
					}
				}
				for _, e := range targets {
					if id := root(e); id != nil && isGlobal(id) && !initTime {
						t.Errorf("%s: %s writes package-level %s at run time: move it onto the app (design.md §5.28)",
							fset.Position(e.Pos()), fn.Name.Name, id.Name)
					}
				}
				return true
			})
		}
	}
}

// TestBrowserCallbacksRecover keeps every entry into the page's Go code recoverable (issue 15:
// one panic must not freeze the UI; docs/design.md §5.28): wasm/cmd/browser makes JS
// callbacks with jsbridge.Func and goroutines with jsbridge.Go, which recover and log a
// panic, never with js.FuncOf or a bare go statement — except the render loop, which
// recovers each render itself (views.RenderLoop).
func TestBrowserCallbacksRecover(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("cmd", "browser", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no files in cmd/browser: %v", err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.GoStmt:
				if sel, ok := x.Call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "renderLoop" {
					return true
				}
				t.Errorf("%s: bare go statement: use jsbridge.Go so a panic is recovered and logged", fset.Position(x.Pos()))
			case *ast.SelectorExpr:
				if id, ok := x.X.(*ast.Ident); ok && id.Name == "js" && x.Sel.Name == "FuncOf" {
					t.Errorf("%s: js.FuncOf: use jsbridge.Func so a panic is recovered and logged", fset.Position(x.Pos()))
				}
			}
			return true
		})
	}
}
