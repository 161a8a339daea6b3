//go:build js && wasm

package idb

import (
	"context"
	"fmt"
	"sync"
	"syscall/js"

	"github.com/hack-pad/go-indexeddb/idb"
)

// ChatsName is the database of the kept conversations (issue 16; wasm/chats): its own
// database, so that no workspace, operation or draft database's upgrade ever touches it, and
// a name that says what it holds (docs/studio-storage.md lists every database of the studio).
const ChatsName = "web-coding-chats"

const (
	chatsStore   = "conversations"
	chatsVersion = 1
)

// Chats is the chats.Backend over the database ChatsName: one object store, out-of-line
// string keys (chats.Key: workspace, NUL, conversation id), each value
// {key, data: the encoded record as a string}. Calls are serialized; every error is
// returned (a full quota is QuotaExceededError's text).
type Chats struct {
	mu sync.Mutex
	db *idb.Database
}

// NewChats returns the backend; the database is opened by the first call.
func NewChats() *Chats { return &Chats{} }

func (c *Chats) open(ctx context.Context) (*idb.Database, error) {
	if c.db != nil {
		return c.db, nil
	}
	db, err := openOneStore(ctx, ChatsName, chatsVersion, chatsStore)
	if err != nil {
		return nil, err
	}
	c.db = db
	return db, nil
}

func (c *Chats) store(ctx context.Context, mode idb.TransactionMode) (*idb.Transaction, *idb.ObjectStore, error) {
	db, err := c.open(ctx)
	if err != nil {
		return nil, nil, err
	}
	t, err := db.Transaction(mode, chatsStore)
	if err != nil {
		c.db = nil
		return nil, nil, fmt.Errorf("idb: chats: %w", err)
	}
	s, err := t.ObjectStore(chatsStore)
	if err != nil {
		return nil, nil, fmt.Errorf("idb: chats: %w", err)
	}
	return t, s, nil
}

// Get returns the bytes stored under key.
func (c *Chats) Get(ctx context.Context, key string) (out []byte, found bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer recoverErr(&err, "read chat")
	_, s, err := c.store(ctx, idb.TransactionReadOnly)
	if err != nil {
		return nil, false, err
	}
	req, err := s.Get(js.ValueOf(key))
	if err != nil {
		return nil, false, fmt.Errorf("idb: read chat: %w", err)
	}
	v, err := req.Await(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("idb: read chat: %w", err)
	}
	if v.Type() != js.TypeObject || v.Get("data").Type() != js.TypeString {
		return nil, false, nil
	}
	return []byte(v.Get("data").String()), true, nil
}

// Put stores value under key in one transaction.
func (c *Chats) Put(ctx context.Context, key string, value []byte) (err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer recoverErr(&err, "keep chat")
	t, s, err := c.store(ctx, idb.TransactionReadWrite)
	if err != nil {
		return err
	}
	o := newObject()
	o.Set("key", key)
	o.Set("data", string(value))
	if _, err := s.PutKey(js.ValueOf(key), o); err != nil {
		return abort(t, "keep chat", err)
	}
	if err := t.Await(ctx); err != nil {
		return fmt.Errorf("idb: keep chat: %w", err)
	}
	return nil
}

// Delete removes key (none stored is not an error).
func (c *Chats) Delete(ctx context.Context, key string) (err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer recoverErr(&err, "delete chat")
	t, s, err := c.store(ctx, idb.TransactionReadWrite)
	if err != nil {
		return err
	}
	if _, err := s.Delete(js.ValueOf(key)); err != nil {
		return abort(t, "delete chat", err)
	}
	if err := t.Await(ctx); err != nil {
		return fmt.Errorf("idb: delete chat: %w", err)
	}
	return nil
}

// Keys returns the keys starting with prefix, ascending. The prefix ends with NUL
// (chats.Key), so the range [prefix, prefix without its NUL + "\x01") holds exactly them;
// IndexedDB orders string keys by UTF-16 code units, which for these keys (one workspace, ids
// of [0-9a-z-]) is the same as byte order.
func (c *Chats) Keys(ctx context.Context, prefix string) (out []string, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer recoverErr(&err, "list chats")
	if prefix == "" || prefix[len(prefix)-1] != 0 {
		return nil, fmt.Errorf("idb: list chats: prefix must end with NUL")
	}
	_, s, err := c.store(ctx, idb.TransactionReadOnly)
	if err != nil {
		return nil, err
	}
	upper := prefix[:len(prefix)-1] + "\x01"
	kr, err := idb.NewKeyRangeBound(js.ValueOf(prefix), js.ValueOf(upper), false, true)
	if err != nil {
		return nil, fmt.Errorf("idb: list chats: %w", err)
	}
	req, err := s.GetAllKeysRange(kr, 0)
	if err != nil {
		return nil, fmt.Errorf("idb: list chats: %w", err)
	}
	keys, err := req.Await(ctx)
	if err != nil {
		return nil, fmt.Errorf("idb: list chats: %w", err)
	}
	for _, k := range keys {
		if k.Type() == js.TypeString {
			out = append(out, k.String())
		}
	}
	return out, nil
}
