package livesurface

import "github.com/webcoding/studio/wasm/workspace"

// RootName is the root name of the built-in examples workspace (live reference, section 2.7:
// the original's showcase workspace); a linked folder's workspace takes the folder's name.
const RootName = "live-editor-examples"

// ExampleWorkspace is the exampleId of a document whose file is not one of the built-in
// examples (a file of a linked folder, or style.css / script.js).
const ExampleWorkspace = "workspace"

// Example is one built-in example (live reference, section 2.7): its id, label and file. Every
// example gets a preview: the web starter runs in execute mode, the others are shown as a
// text projection that never runs their code (the original mounted a live recipe instead of
// the preview for "usecase", so every editor mutation on it timed out).
type Example struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	File  string `json:"file"`
}

// Examples returns the five built-in examples in the original's order (a fresh slice).
func Examples() []Example {
	return []Example{
		{"pipeline", "Action pipeline", "checkout-action.ts"},
		{"tools", "ToolContext", "ui-tools.tsx"},
		{"store", "Store selector", "cart-store.ts"},
		{"usecase", "Usecase boundary", "access-request-recipe.tsx"},
		{"web", "Web starter", IndexPath},
	}
}

// Files of the web starter; a document on one of them previews in execute mode.
const (
	IndexPath  = "index.html"
	StylePath  = "style.css"
	ScriptPath = "script.js"
)

// The example texts, written for this project after the roles the live reference (section
// 2.7) gives them. They are shown and edited, never run (except the web starter's three files).
const (
	examplePipeline = `// Action pipeline: two prioritized blocking handlers for one action.
type CheckoutPayload = { cartId: string; total: number };

export function registerCheckout(register: (name: string, handler: Handler, priority: number) => void) {
  // Runs first: refuse an empty or negative cart before anything is reserved.
  register("checkout", async (payload: CheckoutPayload, control) => {
    if (!payload.cartId || payload.total <= 0) {
      control.abort("The cart is empty.");
    }
  }, 100);

  // Runs second: reserve the stock; a failed reservation aborts the pipeline.
  register("checkout", async (payload: CheckoutPayload, control) => {
    const ok = await reserveStock(payload.cartId);
    if (!ok) control.abort("The stock could not be reserved.");
  }, 50);
}

export function CheckoutButton({ dispatch }: { dispatch: Dispatch }) {
  return <button onClick={() => dispatch("checkout", { cartId: "c-1", total: 42 })}>Submit order</button>;
}
`
	exampleTools = `// ToolContext: one tool with a schema, a handler and a button that calls it.
export const setThemeTool = {
  name: "set_theme",
  description: "Switch the page theme.",
  inputSchema: {
    type: "object",
    properties: { theme: { type: "string", enum: ["light", "dark"] } },
    required: ["theme"],
    additionalProperties: false,
  },
  handler: async ({ theme }: { theme: "light" | "dark" }) => {
    document.documentElement.dataset.theme = theme;
    return { theme };
  },
};

export function ThemeButton({ callTool }: { callTool: CallTool }) {
  return <button onClick={() => callTool("set_theme", { theme: "dark" })}>Dark theme</button>;
}
`
	exampleStore = `// Store selector: a cart store, a derived total and a coupon update.
type Item = { id: string; price: number; quantity: number };
type CartState = { items: Item[]; coupon: number };

export const cartStore = createStore<CartState>({
  items: [{ id: "tea", price: 4, quantity: 2 }],
  coupon: 0,
});

export const selectTotal = (state: CartState) =>
  Math.max(0, state.items.reduce((sum, item) => sum + item.price * item.quantity, 0) - state.coupon);

export function applyCoupon(amount: number) {
  cartStore.update((state) => ({ ...state, coupon: amount }));
}
`
	exampleUsecase = `// Usecase boundary: contract, runtime, facade and recipe as separate layers.
export interface AccessRequestContract {
  request(resource: string, reason: string): Promise<{ ticket: string }>;
}

export function createAccessRuntime(api: AccessApi): AccessRequestContract {
  return {
    async request(resource, reason) {
      const ticket = await api.open({ resource, reason });
      return { ticket };
    },
  };
}

export function useAccessRequest(runtime: AccessRequestContract) {
  return (resource: string) => runtime.request(resource, "Requested from the recipe");
}

export function AccessRequestRecipe({ runtime }: { runtime: AccessRequestContract }) {
  const request = useAccessRequest(runtime);
  return <button onClick={() => request("reports")}>Request access</button>;
}
`
	exampleIndexHTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Web starter</title>
    <link rel="stylesheet" href="./style.css">
    <script src="./script.js" defer></script>
  </head>
  <body>
    <main class="card">
      <h1>Web starter</h1>
      <p>Edit index.html, style.css or script.js; the preview runs them.</p>
      <button id="counter" type="button">Clicked 0 times</button>
    </main>
  </body>
</html>
`
	exampleStyleCSS = `:root {
  --accent: #2563eb;
  font-family: system-ui, sans-serif;
}

body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f4f6fb; }
.card { padding: 2rem; border-radius: 1rem; background: #ffffff; box-shadow: 0 8px 24px rgb(0 0 0 / 0.08); }
#counter { padding: 0.6rem 1.2rem; border: 0; border-radius: 999px; color: #ffffff; background: var(--accent); font: inherit; }
`
	exampleScriptJS = `const button = document.getElementById("counter");
let clicks = 0;
button?.addEventListener("click", () => {
  clicks += 1;
  button.textContent = "Clicked " + clicks + (clicks === 1 ? " time" : " times");
});
`
)

// Seed returns the built-in examples workspace: the five example files plus style.css and
// script.js, index.html active (the original's fresh-browser hydration picks it).
func Seed() workspace.Snapshot {
	return workspace.Snapshot{
		Metadata: workspace.Metadata{RootName: RootName, ActivePath: IndexPath},
		Files: []*workspace.File{
			workspace.NewTextFile("checkout-action.ts", examplePipeline),
			workspace.NewTextFile("ui-tools.tsx", exampleTools),
			workspace.NewTextFile("cart-store.ts", exampleStore),
			workspace.NewTextFile("access-request-recipe.tsx", exampleUsecase),
			workspace.NewTextFile(IndexPath, exampleIndexHTML),
			workspace.NewTextFile(StylePath, exampleStyleCSS),
			workspace.NewTextFile(ScriptPath, exampleScriptJS),
		},
	}
}

// exampleIDFor is the exampleId of path: the matching example in the examples workspace, else
// ExampleWorkspace.
func exampleIDFor(path string, examples bool) string {
	if examples {
		for _, e := range Examples() {
			if e.File == path {
				return e.ID
			}
		}
	}
	return ExampleWorkspace
}

// Scenarios: a document field, not code (live reference, section 2.7).
const (
	ScenarioSuccess = "success"
	ScenarioInvalid = "invalid"
	ScenarioBlocked = "blocked"
)

// ScenarioNames returns the three scenarios in schema order.
func ScenarioNames() []string { return []string{ScenarioSuccess, ScenarioInvalid, ScenarioBlocked} }

// RunEvent is one event of the safe runner: a step and whether it passed.
type RunEvent struct {
	Step   string `json:"step"`
	Passed bool   `json:"passed"`
}

// SafeRun returns the safe runner's fixed event list for scenario (live reference, section
// 2.7): a canned simulation that never executes the document. An unknown scenario gives nil.
//
//	success → validation passed, policy guard passed, business operation completed, audit log recorded
//	invalid → validation rejected, dispatch aborted on the invalid payload
//	blocked → validation passed, policy guard blocked, dispatch aborted by the guard
func SafeRun(scenario string) []RunEvent {
	switch scenario {
	case ScenarioSuccess:
		return []RunEvent{{"validation passed", true}, {"policy guard passed", true},
			{"business operation completed", true}, {"audit log recorded", true}}
	case ScenarioInvalid:
		return []RunEvent{{"validation rejected the payload", false}, {"dispatch aborted on the invalid payload", false}}
	case ScenarioBlocked:
		return []RunEvent{{"validation passed", true}, {"policy guard blocked the call", false}, {"dispatch aborted by the guard", false}}
	}
	return nil
}
