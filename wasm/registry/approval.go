package registry

import (
	"context"
	"errors"
	"sort"
	"strconv"
	"strings"
	"sync"
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
	decision chan Decision
}

// NewApprovalQueue returns an empty queue; clock may be nil (time.Now).
func NewApprovalQueue(clock func() time.Time) *ApprovalQueue {
	if clock == nil {
		clock = time.Now
	}
	return &ApprovalQueue{clock: clock, pending: map[string]*pendingApproval{}, subs: map[int]func([]Approval){}}
}

// Approve enqueues the call and waits for Resolve, DenyAll or ctx. A call cancelled while
// waiting is removed from the queue and returns ctx's error.
func (q *ApprovalQueue) Approve(ctx context.Context, req PolicyRequest) (Decision, error) {
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
	}}
	q.mu.Lock()
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
