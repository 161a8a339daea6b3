//go:build js && wasm

package idb

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/webcoding/studio/wasm/chats"
	"github.com/webcoding/studio/wasm/openrouter"
)

// TestChatsBackend runs wasm/chats' Store over real IndexedDB (e2e/browser
// TestIndexedDBRepository runs this binary in Chromium): the key range of one workspace holds
// exactly its conversations (not those of a workspace whose name extends it, nor of a
// non-ASCII one), in creation order; the store keeps chats.MaxConversations; the key never
// reaches the stored bytes.
func TestChatsBackend(t *testing.T) {
	ctx := context.Background()
	secret := "sk-or-v1-idbtest-0123456789abcdef"
	st := &chats.Store{Backend: NewChats(), Secrets: func() []string { return []string{secret} }}
	sys, user, answer := "s", "prompt with "+secret, "ok"
	rec := func(ws string, i int) chats.Record {
		return chats.Record{ID: chats.NewID(1764460800000+int64(i)*1000, 0), Workspace: ws, Created: 1764460800000 + int64(i)*1000,
			Updated: 1764460800000 + int64(i)*1000, Entries: []chats.Entry{{Kind: "user", Text: fmt.Sprint("prompt ", i)}},
			History: []openrouter.Message{{Role: openrouter.RoleSystem, Content: &sys}, {Role: openrouter.RoleUser, Content: &user},
				{Role: openrouter.RoleAssistant, Content: &answer}}}
	}
	ws := fmt.Sprintf("idb-chats-%d", dbCounter.Add(1))
	for i := 0; i < chats.MaxConversations+2; i++ {
		if err := st.Save(ctx, rec(ws, i)); err != nil {
			t.Fatal(err)
		}
	}
	for _, other := range []string{ws + "-2", ws + "é", ws + " "} {
		if err := st.Save(ctx, rec(other, 99)); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := st.Count(ctx, ws); err != nil || n != chats.MaxConversations {
		t.Fatalf("kept %d (%v), want %d", n, err, chats.MaxConversations)
	}
	got, ok, err := st.Latest(ctx, ws)
	if err != nil || !ok || got.Entries[0].Text != fmt.Sprint("prompt ", chats.MaxConversations+1) {
		t.Fatalf("latest %+v %v %v", got.Entries, ok, err)
	}
	keys, err := st.Backend.Keys(ctx, ws+"\x00")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		raw, ok, err := st.Backend.Get(ctx, k)
		if err != nil || !ok {
			t.Fatalf("get %q: %v %v", k, ok, err)
		}
		if bytes.Contains(raw, []byte(secret)) {
			t.Fatalf("the secret is stored under %q", k)
		}
	}
	if _, err := st.Backend.Keys(ctx, ws); err == nil {
		t.Error("a prefix without its NUL was accepted")
	}
}
