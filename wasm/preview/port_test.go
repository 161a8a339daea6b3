package preview

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestAckBoard(t *testing.T) {
	var b AckBoard
	if _, err := b.Await(context.Background(), 1, 10*time.Millisecond); !errors.Is(err, ErrAckTimeout) {
		t.Fatalf("empty board: %v", err)
	}
	done := make(chan Ack)
	go func() {
		a, err := b.Await(context.Background(), 5, time.Minute)
		if err != nil {
			t.Error(err)
		}
		done <- a
	}()
	b.Publish(Ack{Revision: 4, Status: "synced"})
	select {
	case a := <-done:
		t.Fatalf("woke for an older revision: %+v", a)
	case <-time.After(20 * time.Millisecond):
	}
	b.Publish(Ack{Revision: 6, Status: "synced"})
	if a := <-done; a.Revision != 6 {
		t.Fatalf("got %+v", a)
	}
	if b.Publish(Ack{Revision: 2}) {
		t.Fatal("an older ack replaced a newer one")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Await(ctx, 9, time.Minute); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancel: %v", err)
	}
}
