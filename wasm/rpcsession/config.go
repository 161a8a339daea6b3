package rpcsession

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/memstore"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/registry"
)

// Config is the session configuration a host sends with session/configure (and the zero
// value New starts with). JSON shape:
//
//	{"pageSize"?: 2, "allowedTools"?: ["a", ...], "validation"?: "strict"|"warn"|"silent",
//	 "policy"?: "default"|"allow"|"deny"|"fail", "approval"?: ApprovalConfig,
//	 "ready"?: bool, "ownerId"?: "…", "catalog"?: "studio"|"realtime"|"demo"|"conformance",
//	 "durable"?: DurableConfig, "revisionAfter"?: 0}
//
// Keys are matched exactly; unknown keys are refused.
type Config struct {
	PageSize     int            `json:"pageSize,omitempty"`
	AllowedTools []string       `json:"allowedTools,omitempty"` // nil: all tools; [] : none
	Validation   string         `json:"validation,omitempty"`
	Policy       string         `json:"policy,omitempty"`
	Approval     ApprovalConfig `json:"approval,omitempty"`
	Ready        *bool          `json:"ready,omitempty"`
	OwnerID      string         `json:"ownerId,omitempty"`
	Catalog      string         `json:"catalog,omitempty"`
	Durable      *DurableConfig `json:"durable,omitempty"`
	// RevisionAfter is the highest workspace revision an earlier instance of this core handed
	// out, for a host that lost that instance (a wasmhost reset) and configures a fresh one:
	// the session's workspace starts above it (workspace.Options.After), so a client never
	// sees a revision number twice and a stale expectedRevision from before the reset cannot
	// match. 0 (the default): the core's own rule (studio.Ports). Negative is refused.
	RevisionAfter int64 `json:"revisionAfter,omitempty"`
}

// DurableConfig turns on durable idempotency for calls with an idempotencyKey (REFERENCE §6,
// registry.Options.Durable). JSON shape:
//
//	{"backend": "memory", "leaseMs"?: 300000}
//
// backend names a store built inside the module: "memory" (records live as long as this
// session configuration; each session/configure starts an empty store). Test builds may add
// names (RegisterDurableBackend); any other name is refused. leaseMs is the claim lease in
// milliseconds, 1..MaxDurableLeaseMs (default registry.DefaultDurableLease, 5 min). A host
// that supplies its own backend (studio.Ports.Durable: IndexedDB, Redis, PostgreSQL through
// host functions) uses it for every session whatever backend says; leaseMs still applies.
type DurableConfig struct {
	Backend string `json:"backend"`
	LeaseMs *int64 `json:"leaseMs,omitempty"`
}

// MaxDurableLeaseMs bounds DurableConfig.LeaseMs: 24 hours, the durable retention
// (REFERENCE §4).
const MaxDurableLeaseMs = 24 * 60 * 60 * 1000

var (
	durableMu       sync.RWMutex
	durableBackends = map[string]func() durable.Backend{
		"memory": func() durable.Backend { return memstore.New() },
	}
)

// RegisterDurableBackend adds a backend name to those DurableConfig accepts. It is for test
// builds (the conformance tag adds failing backends); it panics on a blank or taken name or a
// nil constructor.
func RegisterDurableBackend(name string, f func() durable.Backend) {
	durableMu.Lock()
	defer durableMu.Unlock()
	if strings.TrimSpace(name) == "" || f == nil || durableBackends[name] != nil {
		panic(fmt.Sprintf("rpcsession: RegisterDurableBackend(%q): blank, nil or already registered", name))
	}
	durableBackends[name] = f
}

func durableBackendNames() []string {
	durableMu.RLock()
	defer durableMu.RUnlock()
	names := make([]string, 0, len(durableBackends))
	for n := range durableBackends {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// DurableStore builds the durable store of a session: over host when non-nil (the host's
// backend wins), else over a fresh backend named by c.Durable.Backend; nil (durable off) when
// host is nil and c.Durable is nil. clock may be nil (time.Now).
//
// # Errors
//   - c.Durable names a backend that is not in this build.
func DurableStore(c Config, host durable.Backend, clock func() time.Time) (*durable.Store, error) {
	b := host
	if b == nil {
		if c.Durable == nil {
			return nil, nil
		}
		durableMu.RLock()
		f := durableBackends[c.Durable.Backend]
		durableMu.RUnlock()
		if f == nil {
			return nil, fmt.Errorf("rpcsession: durable.backend %q is not in this build", c.Durable.Backend)
		}
		b = f()
	}
	var opts durable.Options
	if clock != nil {
		opts.Clock = clock
	}
	return durable.New(b, opts)
}

// ApprovalConfig says who answers an agent-mode call that the default policy puts to
// approval:
//
//   - "none" (default): nobody; the call fails with TOOL_APPROVAL_REQUIRED
//   - "queue": a person, through approvals/list and approvals/resolve (the browser)
//   - "static": the tools named in Tools (or every tool with All) are approved, destructive
//     ones only with AllowDestructive (the CLI's and MCP server's --approve flags)
//   - "scripted": Decisions ("allow"/"deny") answer the approvals in order, then Ask
//     (conformance vectors)
type ApprovalConfig struct {
	Mode             string   `json:"mode,omitempty"`
	All              bool     `json:"all,omitempty"`
	Tools            []string `json:"tools,omitempty"`
	AllowDestructive bool     `json:"allowDestructive,omitempty"`
	Decisions        []string `json:"decisions,omitempty"`
}

var configKeys = []string{"pageSize", "allowedTools", "validation", "policy", "approval", "ready", "ownerId", "catalog", "durable", "revisionAfter"}
var durableKeys = []string{"backend", "leaseMs"}
var approvalKeys = []string{"mode", "all", "tools", "allowDestructive", "decisions"}

// ParseConfig decodes a session/configure params object strictly.
func ParseConfig(raw json.RawMessage) (Config, error) {
	var c Config
	if len(bytes.TrimSpace(raw)) == 0 {
		return c, nil
	}
	m, err := mcp.DecodeObject(raw, configKeys, nil)
	if err != nil {
		return c, fmt.Errorf("rpcsession: session/configure: %w", err)
	}
	if a, ok := m["approval"]; ok {
		if _, err := mcp.DecodeObject(a, approvalKeys, nil); err != nil {
			return c, fmt.Errorf("rpcsession: session/configure approval: %w", err)
		}
	}
	if d, ok := m["durable"]; ok {
		if err := checkDurable(d); err != nil {
			return c, err
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("rpcsession: session/configure: %w", err)
	}
	switch {
	case c.PageSize < 0 || c.PageSize > registry.MaxPageSize:
		return c, fmt.Errorf("rpcsession: pageSize must be 1..%d", registry.MaxPageSize)
	case !oneOf(c.Validation, "", "strict", "warn", "silent"):
		return c, errors.New(`rpcsession: validation must be "strict", "warn" or "silent"`)
	case !oneOf(c.Policy, "", "default", "allow", "deny", "fail"):
		return c, errors.New(`rpcsession: policy must be "default", "allow", "deny" or "fail"`)
	case c.RevisionAfter < 0:
		return c, errors.New("rpcsession: revisionAfter must be 0 or more")
	case !oneOf(c.Approval.Mode, "", "none", "queue", "static", "scripted"):
		return c, errors.New(`rpcsession: approval.mode must be "none", "queue", "static" or "scripted"`)
	}
	for _, d := range c.Approval.Decisions {
		if d != "allow" && d != "deny" {
			return c, errors.New(`rpcsession: approval.decisions must be "allow" or "deny"`)
		}
	}
	return c, nil
}

// checkDurable validates the "durable" member: an object with a known backend name and an
// optional integer leaseMs in 1..MaxDurableLeaseMs.
func checkDurable(raw json.RawMessage) error {
	m, err := mcp.DecodeObject(raw, durableKeys, nil)
	if err != nil {
		return fmt.Errorf("rpcsession: session/configure durable: %w", err)
	}
	var name string
	if b, ok := m["backend"]; !ok || json.Unmarshal(b, &name) != nil {
		return errors.New("rpcsession: durable.backend is required: a string naming the backend")
	}
	known := durableBackendNames()
	if !oneOf(name, known...) {
		return fmt.Errorf("rpcsession: durable.backend %q is not one of %s", name, strings.Join(known, ", "))
	}
	if l, ok := m["leaseMs"]; ok {
		var f float64
		if json.Unmarshal(l, &f) != nil || f != math.Trunc(f) || f < 1 || f > MaxDurableLeaseMs {
			return fmt.Errorf("rpcsession: durable.leaseMs must be an integer 1..%d", MaxDurableLeaseMs)
		}
	}
	return nil
}

func oneOf(s string, list ...string) bool {
	for _, x := range list {
		if s == x {
			return true
		}
	}
	return false
}

// RegistryOptions turns a Config into registry options plus the approval queue (non-nil only
// in "queue" mode). Entries add their own Observer, Clock and catalog.
func RegistryOptions(c Config) (registry.Options, *registry.ApprovalQueue) {
	o := registry.Options{PageSize: c.PageSize, AllowedTools: c.AllowedTools,
		Validation: registry.ValidationMode(c.Validation), OwnerID: c.OwnerID}
	if c.Durable != nil && c.Durable.LeaseMs != nil {
		o.DurableLease = time.Duration(*c.Durable.LeaseMs) * time.Millisecond
	}
	if c.Ready != nil && !*c.Ready {
		o.Ready = func() error { return errors.New("the workspace is still loading") }
	}
	var queue *registry.ApprovalQueue
	var approver registry.Approver
	switch c.Approval.Mode {
	case "queue":
		queue = registry.NewApprovalQueue(nil)
		approver = queue
	case "static":
		tools := map[string]bool{}
		for _, t := range c.Approval.Tools {
			tools[t] = true
		}
		approver = registry.StaticApprover{All: c.Approval.All, Tools: tools, AllowDestructive: c.Approval.AllowDestructive}
	case "scripted":
		approver = &scriptedApprover{decisions: append([]string(nil), c.Approval.Decisions...)}
	}
	switch c.Policy {
	case "allow":
		o.Policy = registry.PolicyFunc(func(context.Context, registry.PolicyRequest) (registry.Decision, error) { return registry.Allow, nil })
	case "deny":
		o.Policy = registry.PolicyFunc(func(context.Context, registry.PolicyRequest) (registry.Decision, error) { return registry.Deny, nil })
	case "fail":
		o.Policy = registry.PolicyFunc(func(context.Context, registry.PolicyRequest) (registry.Decision, error) {
			return 0, errors.New("policy backend unavailable")
		})
	default:
		o.Policy = registry.DefaultPolicy(approver)
	}
	return o, queue
}

// scriptedApprover answers approvals from a fixed list, in order.
type scriptedApprover struct {
	mu        sync.Mutex
	decisions []string
}

func (s *scriptedApprover) Approve(context.Context, registry.PolicyRequest) (registry.Decision, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.decisions) == 0 {
		return registry.Ask, nil
	}
	d := s.decisions[0]
	s.decisions = s.decisions[1:]
	if d == "allow" {
		return registry.Allow, nil
	}
	return registry.Deny, nil
}
