//go:build js && wasm

package idb

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/webcoding/studio/wasm/durable"
)

// LazyDurable is the durable.Backend of the IndexedDB database Name (OpenDurable), opened on
// first use so a page does not wait for it at start; the open gets 15 s. When the open fails,
// every call fails with durable.BackendFailure("open", …) (the registry then reports the store
// as failed, never a completed call). The studio uses DurableName; each surface page its own
// database. Set Name before first use; safe for concurrent use.
type LazyDurable struct {
	Name string

	once sync.Once
	d    *Durable
	err  error
}

var (
	_ durable.Backend = (*LazyDurable)(nil)
	_ durable.Updater = (*LazyDurable)(nil)
)

func (l *LazyDurable) open() (*Durable, error) {
	l.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		l.d, l.err = OpenDurable(ctx, l.Name)
	})
	if l.d == nil && l.err == nil {
		l.err = fmt.Errorf("durable store %s not opened", l.Name)
	}
	return l.d, l.err
}

// Read implements durable.Backend.
func (l *LazyDurable) Read(ctx context.Context, key string) (durable.Record, bool, error) {
	d, err := l.open()
	if err != nil {
		return durable.Record{}, false, durable.BackendFailure("open", err)
	}
	return d.Read(ctx, key)
}

// CompareAndSet implements durable.Backend.
func (l *LazyDurable) CompareAndSet(ctx context.Context, key string, expected *durable.Fence, next *durable.Record) (bool, error) {
	d, err := l.open()
	if err != nil {
		return false, durable.BackendFailure("open", err)
	}
	return d.CompareAndSet(ctx, key, expected, next)
}

// ListPage implements durable.Backend.
func (l *LazyDurable) ListPage(ctx context.Context, cursor string, limit int) ([]durable.Record, string, error) {
	d, err := l.open()
	if err != nil {
		return nil, "", durable.BackendFailure("open", err)
	}
	return d.ListPage(ctx, cursor, limit)
}

// Update implements durable.Updater.
func (l *LazyDurable) Update(ctx context.Context, key string, decide func(durable.Record, bool) (*durable.Record, error)) error {
	d, err := l.open()
	if err != nil {
		return durable.BackendFailure("open", err)
	}
	return d.Update(ctx, key, decide)
}
