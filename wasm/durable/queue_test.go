package durable_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/webcoding/studio/wasm/durable"
)

// broker is an in-process publisher that deduplicates by message id, like a queue with
// idempotent producers. loseNextAck publishes but drops the acknowledgement.
type broker struct {
	mu          sync.Mutex
	published   []order
	acks        map[string]ack
	loseNextAck bool
	rejectSKU   string
}

type order struct{ ID, SKU string }

type ack struct {
	Offset   int    `json:"offset"`
	Accepted bool   `json:"accepted"`
	Error    string `json:"error,omitempty"`
}

func (b *broker) enqueue(_ context.Context, o order) (ack, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if a, ok := b.acks[o.ID]; ok {
		return a, nil
	}
	if o.SKU == b.rejectSKU {
		return ack{Accepted: false, Error: "unknown sku"}, nil
	}
	b.published = append(b.published, o)
	a := ack{Offset: len(b.published), Accepted: true}
	b.acks[o.ID] = a
	if b.loseNextAck {
		b.loseNextAck = false
		return ack{}, errors.New("publish: acknowledgement timed out")
	}
	return a, nil
}

func (b *broker) status(id string) (ack, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	a, ok := b.acks[id]
	return a, ok
}

func (b *broker) count() int { b.mu.Lock(); defer b.mu.Unlock(); return len(b.published) }

func onAck(_ context.Context, a ack) (durable.Outcome, error) {
	if !a.Accepted {
		return durable.Failed("broker rejected the message: "+a.Error, nil), nil
	}
	raw, err := json.Marshal(a)
	return durable.Completed(raw), err
}

func queueReq(b *broker, o order) durable.QueueRequest[order, ack] {
	return durable.QueueRequest[order, ack]{
		Key: "orders/" + o.ID, Fingerprint: "sku=" + o.SKU, Message: o,
		Enqueue: b.enqueue, OnAck: onAck,
	}
}

// TestQueueFixture is the runnable queue fixture of REFERENCE §6.5: publish once, replay without
// a second publish, a broker rejection is failed, a lost acknowledgement stays unknown until a
// status query reconciles it.
func TestQueueFixture(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, nil)
	b := &broker{acks: map[string]ack{}, rejectSKU: "nope"}

	res, err := durable.RunQueue(ctx, f.run, queueReq(b, order{"o1", "apple"}))
	if err != nil || res.Status != durable.StatusCompleted || string(res.Result) != `{"offset":1,"accepted":true}` {
		t.Fatalf("publish = %+v, %v", res, err)
	}
	res, err = durable.RunQueue(ctx, f.run, queueReq(b, order{"o1", "apple"}))
	if err != nil || res.Status != durable.StatusReplayed || string(res.Result) != `{"offset":1,"accepted":true}` || b.count() != 1 {
		t.Fatalf("replay = %+v, %v, published %d", res, err, b.count())
	}
	res, err = durable.RunQueue(ctx, f.run, queueReq(b, order{"o1", "pear"}))
	if err != nil || res.Status != durable.StatusConflict {
		t.Fatalf("same id, other sku = %+v, %v", res, err)
	}

	res, err = durable.RunQueue(ctx, f.run, queueReq(b, order{"o2", "nope"}))
	if err != nil || res.Status != durable.StatusFailed || res.Reason != "broker rejected the message: unknown sku" {
		t.Fatalf("rejected = %+v, %v", res, err)
	}

	b.loseNextAck = true
	res, err = durable.RunQueue(ctx, f.run, queueReq(b, order{"o3", "fig"}))
	if err != nil || res.Status != durable.StatusUnknown || res.Reason != "publish: acknowledgement timed out" {
		t.Fatalf("lost ack = %+v, %v", res, err)
	}
	res, err = durable.RunQueue(ctx, f.run, queueReq(b, order{"o3", "fig"}))
	if err != nil || res.Status != durable.StatusUnknown || b.count() != 2 {
		t.Fatalf("retry of unknown = %+v, %v, published %d (must not publish again)", res, err, b.count())
	}
	rec, err := f.run.Recover(ctx, "orders/o3", func(_ context.Context, rc durable.RecoverContext) (durable.Resolution, error) {
		a, ok := b.status("o3")
		if !ok {
			return durable.Resolution{State: durable.StateFailed, Reason: "broker never saw the message"}, nil
		}
		raw, _ := json.Marshal(a)
		return durable.Resolution{State: durable.StateCompleted, Result: raw}, nil
	}, durable.RecoverOptions{})
	if err != nil || rec.Status != durable.StatusResolved {
		t.Fatalf("recover = %+v, %v", rec, err)
	}
	res, err = durable.RunQueue(ctx, f.run, queueReq(b, order{"o3", "fig"}))
	if err != nil || res.Status != durable.StatusReplayed || string(res.Result) != `{"offset":2,"accepted":true}` || b.count() != 2 {
		t.Fatalf("after reconcile = %+v, %v, published %d", res, err, b.count())
	}

	// An acknowledgement classifier that fails yields unknown, never a guess.
	req := queueReq(b, order{"o4", "kiwi"})
	req.OnAck = func(context.Context, ack) (durable.Outcome, error) {
		return durable.Outcome{}, fmt.Errorf("schema drift")
	}
	res, err = durable.RunQueue(ctx, f.run, req)
	if err != nil || res.Status != durable.StatusUnknown || res.Reason != "acknowledgement classification failed: schema drift" {
		t.Fatalf("classifier error = %+v, %v", res, err)
	}

	for _, bad := range []durable.QueueRequest[order, ack]{
		{Key: "k", Fingerprint: "f", OnAck: onAck},
		{Key: "k", Fingerprint: "f", Enqueue: b.enqueue},
	} {
		if _, err := durable.RunQueue(ctx, f.run, bad); !errors.Is(err, durable.ErrInvalid) {
			t.Fatalf("missing function = %v", err)
		}
	}
}
