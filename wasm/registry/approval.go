package registry

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/webcoding/studio/wasm/audit"
)

// Approval is the snapshot of one pending approval (REFERENCE §8): what a person sees on an
// approval card. It never holds argument values other than the bounded safe preview of
// "path" and "theme".
type Approval struct {
	ID                  string    `json:"id"`
	Method              string    `json:"method"`
	ToolCallID          string    `json:"toolCallId"`
	SessionID           string    `json:"sessionId,omitempty"`
	Name                string    `json:"name"`
	Description         string    `json:"description"`
	Source              string    `json:"source"`
	Mode                string    `json:"mode"`
	ArgumentKeys        []string  `json:"argumentKeys"`
	SafeArgumentPreview string    `json:"safeArgumentPreview"`
	CreatedAt           time.Time `json:"createdAt"`
	// RunID names the prompt run the call belongs to (WithRun), "" outside a run. Every
	// approval of one run has the same RunID; ApproveRun approves them together.
	RunID string `json:"runId,omitempty"`
	// Arguments are the call's validated arguments, for the in-process UI only (the
	// approval card's local diff). They are never serialized (approvals/list, events and
	// exports leave them out) and must not be logged or traced.
	Arguments json.RawMessage `json:"-"`
}

// Run is the scope of one prompt run (an agent/run or provider loop): the calls made with a
// context from WithRun share it. ApproveRun ("Approve all for this run") marks it, and every
// later approval of the same run is then allowed without a card. The mark lives only in the
// run's context value: it is never persisted and ends with the run, so later runs ask again.
type Run struct {
	id       string
	allowAll atomic.Bool
}

type runKey struct{}

var runSeq atomic.Int64

// WithRun returns ctx carrying a fresh run scope whose id is "<label>#<n>" (n counts the
// scopes of the process). Call it once per prompt run, around the whole run.
func WithRun(ctx context.Context, label string) context.Context {
	r := &Run{id: label + "#" + strconv.FormatInt(runSeq.Add(1), 10)}
	return context.WithValue(ctx, runKey{}, r)
}

// RunFrom returns the run scope of ctx, or nil outside a run.
func RunFrom(ctx context.Context) *Run {
	r, _ := ctx.Value(runKey{}).(*Run)
	return r
}

// ID is the run's id ("" for a nil run).
func (r *Run) ID() string {
	if r == nil {
		return ""
	}
	return r.id
}

// ErrApprovalNotFound is returned by Resolve for an id that is not pending.
var ErrApprovalNotFound = errors.New("registry: no pending approval with that id")

// ApprovalQueue is an Approver that holds calls until a person resolves them. It is safe for
// concurrent use. Snapshots list the newest approval first.
type ApprovalQueue struct {
	mu      sync.Mutex
	clock   func() time.Time
	pending map[string]*pendingApproval
	subs    map[int]func([]Approval)
	nextSub int
}

type pendingApproval struct {
	snap     Approval
	run      *Run
	decision chan Decision
}

// NewApprovalQueue returns an empty queue; clock may be nil (time.Now).
func NewApprovalQueue(clock func() time.Time) *ApprovalQueue {
	if clock == nil {
		clock = time.Now
	}
	return &ApprovalQueue{clock: clock, pending: map[string]*pendingApproval{}, subs: map[int]func([]Approval){}}
}

// Approve enqueues the call and waits for Resolve, ApproveRun, DenyAll or ctx. A call cancelled
// while waiting is removed from the queue and returns ctx's error. A call whose run (WithRun)
// was approved with ApproveRun is allowed at once, without a card.
func (q *ApprovalQueue) Approve(ctx context.Context, req PolicyRequest) (Decision, error) {
	run := RunFrom(ctx)
	if run != nil && run.allowAll.Load() {
		return Allow, nil
	}
	desc := req.Tool.Description
	if desc == "" {
		desc = "No description provided."
	}
	source := req.Source
	if source == "" {
		source = "model"
	}
	p := &pendingApproval{decision: make(chan Decision, 1), snap: Approval{
		Method: "tools/call", ToolCallID: req.ToolCallID, SessionID: req.SessionID, Name: req.Tool.Name,
		Description: desc, Source: source, Mode: req.Mode, ArgumentKeys: argumentKeys(req.Arguments),
		SafeArgumentPreview: audit.SafeArgumentPreview(req.Arguments),
		RunID:               run.ID(), Arguments: append(json.RawMessage(nil), req.Arguments...),
	}, run: run}
	q.mu.Lock()
	if run != nil && run.allowAll.Load() { // ApproveRun ran meanwhile (it marks under q.mu)
		q.mu.Unlock()
		return Allow, nil
	}
	id := req.ToolCallID
	for n := 2; q.pending[id] != nil; n++ {
		id = req.ToolCallID + "#" + strconv.Itoa(n)
	}
	p.snap.ID = id
	p.snap.CreatedAt = q.clock()
	q.pending[id] = p
	q.mu.Unlock()
	q.notify()
	select {
	case d := <-p.decision:
		return d, nil
	case <-ctx.Done():
		q.remove(id)
		return Deny, ctx.Err()
	}
}

func argumentKeys(args []byte) []string {
	keys := []string{}
	if m, err := decodeMembers(args); err == nil {
		for k := range m {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// Resolve answers a pending approval: allow true runs the call, false denies it.
func (q *ApprovalQueue) Resolve(id string, allow bool) error {
	q.mu.Lock()
	p := q.pending[id]
	delete(q.pending, id)
	q.mu.Unlock()
	if p == nil {
		return ErrApprovalNotFound
	}
	if allow {
		p.decision <- Allow
	} else {
		p.decision <- Deny
	}
	q.notify()
	return nil
}

// ErrNoRun is returned by ApproveRun for an approval that belongs to no run.
var ErrNoRun = errors.New("registry: the approval belongs to no prompt run")

// ApproveRun is "Approve all for this run": it allows the pending approval id and every other
// pending approval of the same run, and marks the run so that its later calls are allowed
// without a card. It returns how many pending approvals it allowed. The mark is kept only in
// the run's scope (never persisted); other runs, earlier or later, still ask.
//
// # Errors
//   - ErrApprovalNotFound: id is not pending
//   - ErrNoRun: the approval was made outside a run (WithRun); nothing is approved
func (q *ApprovalQueue) ApproveRun(id string) (int, error) {
	q.mu.Lock()
	p := q.pending[id]
	if p == nil {
		q.mu.Unlock()
		return 0, ErrApprovalNotFound
	}
	if p.run == nil {
		q.mu.Unlock()
		return 0, ErrNoRun
	}
	p.run.allowAll.Store(true)
	var allowed []*pendingApproval
	for k, o := range q.pending {
		if o.run == p.run {
			allowed = append(allowed, o)
			delete(q.pending, k)
		}
	}
	q.mu.Unlock()
	for _, o := range allowed {
		o.decision <- Allow
	}
	q.notify()
	return len(allowed), nil
}

// DenyAll denies every pending approval (agent cancel, Escape, unmount) and returns how many
// there were.
func (q *ApprovalQueue) DenyAll() int {
	q.mu.Lock()
	ps := q.pending
	q.pending = map[string]*pendingApproval{}
	q.mu.Unlock()
	for _, p := range ps {
		p.decision <- Deny
	}
	if len(ps) > 0 {
		q.notify()
	}
	return len(ps)
}

// Snapshot lists the pending approvals, newest first (ties broken by id).
func (q *ApprovalQueue) Snapshot() []Approval {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]Approval, 0, len(q.pending))
	for _, p := range q.pending {
		out = append(out, p.snap)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.After(out[j].CreatedAt)
		}
		return strings.Compare(out[i].ID, out[j].ID) > 0
	})
	return out
}

// Subscribe calls fn with a fresh snapshot after every change, until the returned function is
// called. fn runs on the goroutine that made the change and must not block.
func (q *ApprovalQueue) Subscribe(fn func([]Approval)) (unsubscribe func()) {
	q.mu.Lock()
	id := q.nextSub
	q.nextSub++
	q.subs[id] = fn
	q.mu.Unlock()
	return func() {
		q.mu.Lock()
		delete(q.subs, id)
		q.mu.Unlock()
	}
}

func (q *ApprovalQueue) remove(id string) {
	q.mu.Lock()
	_, ok := q.pending[id]
	delete(q.pending, id)
	q.mu.Unlock()
	if ok {
		q.notify()
	}
}

func (q *ApprovalQueue) notify() {
	q.mu.Lock()
	subs := make([]func([]Approval), 0, len(q.subs))
	for _, fn := range q.subs {
		subs = append(subs, fn)
	}
	q.mu.Unlock()
	if len(subs) == 0 {
		return
	}
	snap := q.Snapshot()
	for _, fn := range subs {
		fn(snap)
	}
}
