package registry

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/webcoding/studio/wasm/audit"
	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/provider"
	"github.com/webcoding/studio/wasm/schema"
)

// Handler runs one validated tool call. It returns the structured result (any value that
// encoding/json serializes to a JSON object, or a json.RawMessage holding one) or an error.
// Return a *mcp.ToolError to report a coded failure; any other error becomes
// TOOL_EXECUTION_FAILED. ctx carries the caller's cancellation and the call's timeout.
type Handler func(ctx context.Context, call *Call) (any, error)

// Tool is a tool as registered: its MCP definition and its handler.
type Tool struct {
	Name         string
	Title        string
	Description  string
	InputSchema  json.RawMessage // JSON Schema 2020-12; required
	OutputSchema json.RawMessage // optional; when set, results are validated against it
	Annotations  mcp.ToolAnnotations
	Handler      Handler
}

// ValidationMode selects what happens when arguments fail the input schema.
type ValidationMode string

const (
	// ValidationStrict refuses the call with TOOL_VALIDATION_FAILED (the default; the studio
	// always runs strict).
	ValidationStrict ValidationMode = "strict"
	// ValidationWarn dispatches anyway and reports the issues through Options.Warn.
	ValidationWarn ValidationMode = "warn"
	// ValidationSilent dispatches anyway.
	ValidationSilent ValidationMode = "silent"
)

// Defaults and limits (REFERENCE §4).
const (
	DefaultPageSize              = 100
	MaxPageSize                  = 1000
	DefaultIdempotencyRetention  = 5 * time.Minute
	DefaultIdempotencyMaxEntries = 1000
)

// Options configure a Registry. The zero value is usable: default page size, every tool
// allowed, DefaultPolicy with no approver (agent-mode mutations get TOOL_APPROVAL_REQUIRED),
// strict validation, no observer, the wall clock.
type Options struct {
	// PageSize is the number of tools per tools/list page (default 100, at most 1,000).
	PageSize int
	// AllowedTools, when non-nil, is the allowlist applied to both discovery and execution.
	AllowedTools []string
	// Policy decides allow/ask/deny per call (default DefaultPolicy(nil)).
	Policy Policy
	// Validation selects strict (default), warn or silent argument validation.
	Validation ValidationMode
	// Warn receives argument issues in ValidationWarn mode.
	Warn func(name string, issues []schema.Issue)
	// Observer receives every lifecycle event (started, completed, failed) synchronously on
	// the calling goroutine; it must not block.
	Observer func(audit.ToolCallEvent)
	// OwnerID names the executing owner in provenance records (default "webcoding").
	OwnerID string
	// Clock returns the current time (default time.Now).
	Clock func() time.Time
	// Ready, when set, is consulted before each handler runs; a non-nil error yields
	// TOOL_REGISTRY_NOT_READY (retryable) with that error's text.
	Ready func() error
	// IdempotencyRetention is how long a settled idempotent execution is replayed (default
	// 5 min); IdempotencyMaxEntries bounds the settled entries kept (default 1,000).
	IdempotencyRetention  time.Duration
	IdempotencyMaxEntries int

	// Durable, when set, makes every call with an idempotencyKey claim the durable record
	// OperationKey(sessionId, tool, key) before its handler runs and record the outcome after
	// it (REFERENCE §3.1, §6; see durable.go). Nil: in-memory idempotency only.
	Durable *durable.Store
	// DurableOwnerID is the owner id of durable claims (default OwnerID + ":" + 12 random hex
	// digits, so each registry is its own owner).
	DurableOwnerID string
	// DurableLease is the lease of a durable claim (default DefaultDurableLease, 5 min).
	DurableLease time.Duration
	// Effects, when set, locates the effect of each mutating idempotent call so that a replay
	// of its key is checked against the caller's workspace (effects.go). Nil: replays are
	// trusted as recorded.
	Effects Effects
}

// MinIdempotencyRetention is the smallest IdempotencyRetention Validate accepts: 1 s.
const MinIdempotencyRetention = time.Second

// Validate refuses options set to unusable values (issue 14 item 11) instead of New silently
// taking the defaults for them: a negative PageSize or one above MaxPageSize, a negative
// IdempotencyRetention or one below MinIdempotencyRetention, a negative
// IdempotencyMaxEntries, a negative DurableLease, an unknown Validation mode. Zero means "not
// set" and takes the default. The error names the option, the value and the bound.
func (o Options) Validate() error {
	switch {
	case o.PageSize < 0 || o.PageSize > MaxPageSize:
		return fmt.Errorf("registry: PageSize is %d; it must be 1..%d (or 0 for the default %d)", o.PageSize, MaxPageSize, DefaultPageSize)
	case o.IdempotencyRetention < 0 || (o.IdempotencyRetention != 0 && o.IdempotencyRetention < MinIdempotencyRetention):
		return fmt.Errorf("registry: IdempotencyRetention is %v; it must be at least %v (or 0 for the default %v)", o.IdempotencyRetention, MinIdempotencyRetention, DefaultIdempotencyRetention)
	case o.IdempotencyMaxEntries < 0:
		return fmt.Errorf("registry: IdempotencyMaxEntries is %d; it must be at least 1 (or 0 for the default %d)", o.IdempotencyMaxEntries, DefaultIdempotencyMaxEntries)
	case o.DurableLease < 0:
		return fmt.Errorf("registry: DurableLease is %v; it must be positive (or 0 for the default %v)", o.DurableLease, DefaultDurableLease)
	}
	switch o.Validation {
	case "", ValidationStrict, ValidationWarn, ValidationSilent:
	default:
		return fmt.Errorf("registry: Validation is %q; it must be strict, warn or silent", o.Validation)
	}
	return nil
}

// Registry is the ToolContext. See the package documentation for the call pipeline.
type Registry struct {
	opts    Options
	mu      sync.RWMutex
	tools   []*entry // registration order = tools/list order
	byName  map[string]*entry
	allowed map[string]bool // nil: all
	names   *provider.NameMap
	idem    *idempotency
	seq     atomic.Uint64
	idBase  string
}

type entry struct {
	def    mcp.Tool
	handle Handler

	// The schemas compile on first use (compiled): a session build registers every tool of
	// its catalog, and the first build of a page would otherwise pay for tools it never
	// calls (docs/design.md §5.14; compiling is cheap since §5.45, but still work). Tests
	// compile every catalog's schemas with Registry.Check.
	once       sync.Once
	in, out    *schema.Schema
	compileErr error
}

// compiled returns the entry's input and output schemas (out nil when the tool declares
// none), compiling them on the first call; later calls return the same values.
func (e *entry) compiled() (in, out *schema.Schema, err error) {
	e.once.Do(func() {
		if e.in, e.compileErr = schema.Compile(e.def.Name+".input", e.def.InputSchema); e.compileErr != nil {
			return
		}
		if len(e.def.OutputSchema) > 0 {
			e.out, e.compileErr = schema.Compile(e.def.Name+".output", e.def.OutputSchema)
		}
	})
	return e.in, e.out, e.compileErr
}

// New returns an empty Registry.
func New(opts Options) *Registry {
	if opts.PageSize <= 0 {
		opts.PageSize = DefaultPageSize
	}
	if opts.PageSize > MaxPageSize {
		opts.PageSize = MaxPageSize
	}
	if opts.Policy == nil {
		opts.Policy = DefaultPolicy(nil)
	}
	if opts.Validation == "" {
		opts.Validation = ValidationStrict
	}
	if opts.OwnerID == "" {
		opts.OwnerID = "webcoding"
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.IdempotencyRetention <= 0 {
		opts.IdempotencyRetention = DefaultIdempotencyRetention
	}
	if opts.IdempotencyMaxEntries <= 0 {
		opts.IdempotencyMaxEntries = DefaultIdempotencyMaxEntries
	}
	if opts.DurableOwnerID == "" {
		opts.DurableOwnerID = defaultDurableOwner(opts.OwnerID)
	}
	if opts.DurableLease <= 0 {
		opts.DurableLease = DefaultDurableLease
	}
	r := &Registry{opts: opts, byName: map[string]*entry{}}
	if opts.AllowedTools != nil {
		r.allowed = map[string]bool{}
		for _, n := range opts.AllowedTools {
			r.allowed[n] = true
		}
	}
	r.idem = newIdempotency(opts.IdempotencyRetention, opts.IdempotencyMaxEntries, opts.Clock)
	var b [6]byte
	_, _ = rand.Read(b[:])
	r.idBase = "call-" + hex.EncodeToString(b[:]) + "-"
	return r
}

// Register adds a tool. It fails when the name is empty or taken, when the name has no
// reversible provider-legal form or collides with another tool's provider form (SPEC §2.1),
// when the handler is nil, or when a schema is not a JSON object. The schemas are compiled on
// the tool's first call, not here (docs/design.md §5.14): Check compiles them all, and every
// catalog's tests call it, so a schema that does not compile fails a test, not a user.
// Register is for assembly time: callers usually treat its error as a programming error.
func (r *Registry) Register(t Tool) error {
	if t.Name == "" {
		return fmt.Errorf("registry: tool name is empty")
	}
	if t.Handler == nil {
		return fmt.Errorf("registry: tool %q has no handler", t.Name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.byName[t.Name]; dup {
		return fmt.Errorf("registry: tool %q is already registered", t.Name)
	}
	names := make([]string, 0, len(r.tools)+1)
	for _, e := range r.tools {
		names = append(names, e.def.Name)
	}
	nm, err := provider.NewNameMap(append(names, t.Name))
	if err != nil {
		return fmt.Errorf("registry: tool %q: %w", t.Name, err)
	}
	if len(t.InputSchema) == 0 {
		return fmt.Errorf("registry: tool %q has no input schema", t.Name)
	}
	if !jsonObject(t.InputSchema) {
		return fmt.Errorf("registry: tool %q: the input schema is not a JSON object", t.Name)
	}
	if len(t.OutputSchema) > 0 && !jsonObject(t.OutputSchema) {
		return fmt.Errorf("registry: tool %q: the output schema is not a JSON object", t.Name)
	}
	e := &entry{handle: t.Handler}
	ann := t.Annotations
	e.def = mcp.Tool{Name: t.Name, Title: t.Title, Description: t.Description,
		InputSchema: t.InputSchema, OutputSchema: t.OutputSchema, Annotations: &ann}
	r.tools = append(r.tools, e)
	r.byName[t.Name] = e
	r.names = nm
	return nil
}

// jsonObject reports whether raw is one well-formed JSON object (what every tool schema is,
// MCP 2025-06-18 "Tool").
func jsonObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil
}

// Check compiles the schemas of every registered tool that are not compiled yet and returns
// the first failure, naming the tool. Catalog tests call it (docs/design.md §5.14).
func (r *Registry) Check() error {
	r.mu.RLock()
	tools := r.tools
	r.mu.RUnlock()
	for _, e := range tools {
		if _, _, err := e.compiled(); err != nil {
			return fmt.Errorf("registry: tool %q: %w", e.def.Name, err)
		}
	}
	return nil
}

// MustRegister is Register that panics on error (assembly-time programming errors).
func (r *Registry) MustRegister(t Tool) {
	if err := r.Register(t); err != nil {
		panic(err)
	}
}

// Names returns the provider-legal name map of the registered tools.
func (r *Registry) Names() *provider.NameMap {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.names
}

// Definition returns the MCP definition of a registered tool (whether or not allowed).
func (r *Registry) Definition(name string) (mcp.Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.byName[name]
	if !ok {
		return mcp.Tool{}, false
	}
	return e.def, true
}

func (r *Registry) visible() []*entry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.allowed == nil {
		return r.tools
	}
	out := make([]*entry, 0, len(r.tools))
	for _, e := range r.tools {
		if r.allowed[e.def.Name] {
			out = append(out, e)
		}
	}
	return out
}

// cursorPrefix marks studio cursors; the rest is the offset of the next page.
const cursorPrefix = "wcs1:"

// ListTools answers tools/list: one page of the allowed tools in registration order. The
// cursor is opaque (a nextCursor from an earlier page); nextCursor is empty on the last page.
//
// # Errors
//   - TOOL_VALIDATION_FAILED: the cursor was not issued by this registry or is out of range;
//     details {reason: "invalid-cursor"}.
func (r *Registry) ListTools(ctx context.Context, p mcp.ListToolsParams) (*mcp.ListToolsResult, error) {
	tools := r.visible()
	start := 0
	if p.Cursor != "" {
		raw, err := base64.RawURLEncoding.DecodeString(p.Cursor)
		n, err2 := strconv.Atoi(strings.TrimPrefix(string(raw), cursorPrefix))
		if err != nil || err2 != nil || !strings.HasPrefix(string(raw), cursorPrefix) || n <= 0 || n >= len(tools) {
			return nil, mcp.NewError(mcp.CodeToolValidationFailed, false, map[string]any{"reason": "invalid-cursor"},
				"Invalid tools/list cursor: use a nextCursor from an earlier page.")
		}
		start = n
	}
	end := start + r.opts.PageSize
	if end > len(tools) {
		end = len(tools)
	}
	res := &mcp.ListToolsResult{Tools: make([]mcp.Tool, 0, end-start)}
	for _, e := range tools[start:end] {
		res.Tools = append(res.Tools, e.def)
	}
	if end < len(tools) {
		res.NextCursor = base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + strconv.Itoa(end)))
	}
	return res, nil
}

func (r *Registry) newCallID() string {
	return r.idBase + strconv.FormatUint(r.seq.Add(1), 10)
}
