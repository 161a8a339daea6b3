package chats

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Backend is the storage port: opaque bytes under string keys. The browser's is
// wasm/adapters/idb.Chats (IndexedDB); MemBackend serves tests and memory mode. Every error
// is returned, never swallowed (a full quota is the browser's text).
type Backend interface {
	Get(ctx context.Context, key string) ([]byte, bool, error)
	Put(ctx context.Context, key string, value []byte) error
	Delete(ctx context.Context, key string) error
	// Keys returns the keys that start with prefix, in ascending byte order.
	Keys(ctx context.Context, prefix string) ([]string, error)
}

// ErrSecret is Save's refusal when a secret would still be in the stored bytes after
// scrubbing (it never is for a secret of printable ASCII; the check is the guarantee).
var ErrSecret = errors.New("chats: the record still holds a secret after scrubbing; not stored")

// Redacted replaces a secret in stored text.
const Redacted = "[redacted]"

// MinSecretLen is the shortest secret Save scrubs (shorter strings would match ordinary
// text).
const MinSecretLen = 8

// Store keeps the conversations of every workspace in a Backend, under Key(workspace, id).
// Secrets, when set, returns the strings that must never be stored (the API keys); Save
// scrubs them. Calls are serialized.
type Store struct {
	Backend Backend
	Secrets func() []string

	mu sync.Mutex
}

// Key is the backend key of a conversation: workspace, NUL, id. A workspace name has no
// control character (ValidWorkspace), so the prefix of one workspace never matches another.
func Key(workspace, id string) string { return workspace + "\x00" + id }

// Save bounds r (Bound), encodes it, replaces every secret (in its raw and JSON-escaped
// forms) with Redacted, checks that the bytes decode (Decode) and hold no secret, writes
// them, and then deletes the workspace's oldest conversations beyond MaxConversations. A
// record that fails a check is not written.
func (s *Store) Save(ctx context.Context, r Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r.V = FormatVersion
	if err := ValidWorkspace(r.Workspace); err != nil {
		return fmt.Errorf("chats: %w", err)
	}
	raw, err := Encode(r)
	if err != nil {
		return fmt.Errorf("chats: encode: %w", err)
	}
	raw, err = s.scrub(raw)
	if err != nil {
		return err
	}
	if _, err := Decode(raw); err != nil {
		return err
	}
	if err := s.Backend.Put(ctx, Key(r.Workspace, r.ID), raw); err != nil {
		return fmt.Errorf("chats: store: %w", err)
	}
	keys, err := s.Backend.Keys(ctx, r.Workspace+"\x00")
	if err != nil {
		return fmt.Errorf("chats: list: %w", err)
	}
	for len(keys) > MaxConversations {
		if err := s.Backend.Delete(ctx, keys[0]); err != nil {
			return fmt.Errorf("chats: prune: %w", err)
		}
		keys = keys[1:]
	}
	return nil
}

func (s *Store) scrub(raw []byte) ([]byte, error) {
	if s.Secrets == nil {
		return raw, nil
	}
	for _, sec := range s.Secrets() {
		if len(strings.TrimSpace(sec)) < MinSecretLen {
			continue
		}
		esc, _ := json.Marshal(sec) // the form the secret takes inside a JSON string
		forms := [][]byte{[]byte(sec), esc[1 : len(esc)-1]}
		for _, f := range forms {
			raw = bytes.ReplaceAll(raw, f, []byte(Redacted))
		}
		for _, f := range forms {
			if bytes.Contains(raw, f) {
				return nil, ErrSecret
			}
		}
	}
	return raw, nil
}

// Latest returns the newest conversation of workspace (by id, which sorts by creation),
// ok false when there is none. A stored record Decode refuses is returned as its
// *DecodeError (the caller says so and starts a new conversation; the record is left as is).
func (s *Store) Latest(ctx context.Context, workspace string) (Record, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ValidWorkspace(workspace); err != nil {
		return Record{}, false, fmt.Errorf("chats: %w", err)
	}
	keys, err := s.Backend.Keys(ctx, workspace+"\x00")
	if err != nil {
		return Record{}, false, fmt.Errorf("chats: list: %w", err)
	}
	if len(keys) == 0 {
		return Record{}, false, nil
	}
	raw, ok, err := s.Backend.Get(ctx, keys[len(keys)-1])
	if err != nil || !ok {
		return Record{}, false, err
	}
	r, err := Decode(raw)
	if err != nil {
		return Record{}, false, err
	}
	if r.Workspace != workspace {
		return Record{}, false, refuse("workspace", "stored under another workspace's key")
	}
	return r, true, nil
}

// Count returns how many conversations workspace keeps.
func (s *Store) Count(ctx context.Context, workspace string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys, err := s.Backend.Keys(ctx, workspace+"\x00")
	return len(keys), err
}

// MemBackend is an in-memory Backend (tests; a page whose storage is blocked).
type MemBackend struct {
	mu sync.Mutex
	m  map[string][]byte
}

// Get returns a copy of the value under key.
func (b *MemBackend) Get(_ context.Context, key string) ([]byte, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	v, ok := b.m[key]
	return append([]byte(nil), v...), ok, nil
}

// Put stores a copy of value under key.
func (b *MemBackend) Put(_ context.Context, key string, value []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil {
		b.m = map[string][]byte{}
	}
	b.m[key] = append([]byte(nil), value...)
	return nil
}

// Delete removes key.
func (b *MemBackend) Delete(_ context.Context, key string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.m, key)
	return nil
}

// Keys returns the keys with prefix, sorted.
func (b *MemBackend) Keys(_ context.Context, prefix string) ([]string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for k := range b.m {
		if strings.HasPrefix(k, prefix) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out, nil
}

// Bytes returns every stored value (tests scan them).
func (b *MemBackend) Bytes() [][]byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out [][]byte
	for _, v := range b.m {
		out = append(out, append([]byte(nil), v...))
	}
	return out
}
