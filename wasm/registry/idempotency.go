package registry

import (
	"container/list"
	"encoding/json"
	"github.com/webcoding/studio/wasm/audit"
	"sync"
	"time"

	"github.com/webcoding/studio/wasm/mcp"
)

// idempotency is the in-memory idempotency registry of REFERENCE §6.6: the same key and
// argument fingerprint share one execution (also after the first caller timed out), a different
// fingerprint is a conflict, and settled entries expire after retention and are evicted
// least-recently-used beyond maxEntries. Pending entries are never evicted.
type idempotency struct {
	mu        sync.Mutex
	entries   map[string]*execution
	settled   *list.List // of *execution, least recently used first
	retention time.Duration
	max       int
	clock     func() time.Time
}

// execution is one shared handler run. done is closed once out is final.
type execution struct {
	key         string
	fingerprint string
	done        chan struct{}
	out         outcome
	settledAt   time.Time
	elem        *list.Element
}

// outcome is what a handler run produced, before per-caller budget and toolCallId.
type outcome struct {
	sc      json.RawMessage       // success: structuredContent
	err     *mcp.ToolError        // failure
	aborted bool                  // the run ended without a result anyone can rely on
	state   audit.ProvenanceState // provenance state of the run itself
	effect  *Effect               // success of a mutating call: where its effect lives (Options.Effects)
	replay  *mcp.Replay           // set on a replayed success whose effect was checked
}

func newIdempotency(retention time.Duration, max int, clock func() time.Time) *idempotency {
	return &idempotency{entries: map[string]*execution{}, settled: list.New(), retention: retention, max: max, clock: clock}
}

// claim returns the execution for key: owner is true when the caller must run it; conflict is
// true when key is held under another fingerprint.
func (m *idempotency) claim(key, fingerprint string) (ex *execution, owner, conflict bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pruneLocked()
	if ex = m.entries[key]; ex != nil {
		if ex.fingerprint != fingerprint {
			return ex, false, true
		}
		if ex.elem != nil {
			m.settled.MoveToBack(ex.elem)
		}
		return ex, false, false
	}
	ex = &execution{key: key, fingerprint: fingerprint, done: make(chan struct{})}
	m.entries[key] = ex
	return ex, true, false
}

// settle records the outcome and wakes every waiter.
func (m *idempotency) settle(ex *execution, out outcome) {
	m.mu.Lock()
	ex.out = out
	ex.settledAt = m.clock()
	ex.elem = m.settled.PushBack(ex)
	m.pruneLocked()
	m.mu.Unlock()
	close(ex.done)
}

func (m *idempotency) pruneLocked() {
	now := m.clock()
	for e := m.settled.Front(); e != nil; {
		next := e.Next()
		ex := e.Value.(*execution)
		if now.Sub(ex.settledAt) >= m.retention || m.settled.Len() > m.max {
			m.settled.Remove(e)
			delete(m.entries, ex.key)
		}
		e = next
	}
}

// size reports the entries held, after pruning expired ones.
func (m *idempotency) size() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pruneLocked()
	return len(m.entries)
}
