//go:build js && wasm

package idb

import (
	"context"
	"fmt"

	"github.com/hack-pad/go-indexeddb/idb"
)

// openOneStore opens database name at version, creating its one object store (out-of-line
// keys, no indexes) on upgrade when it is missing: the shape of the drafts and conversations
// databases. Errors name the database.
func openOneStore(ctx context.Context, name string, version uint, store string) (*idb.Database, error) {
	g, err := indexedDBFactory()
	if err != nil {
		return nil, fmt.Errorf("idb: %w", err)
	}
	f, err := idb.WrapFactory(g)
	if err != nil {
		return nil, fmt.Errorf("idb: %w", err)
	}
	req, err := f.Open(ctx, name, version, func(db *idb.Database, _, _ uint) error {
		names, err := db.ObjectStoreNames()
		if err != nil {
			return err
		}
		for _, n := range names {
			if n == store {
				return nil
			}
		}
		_, err = db.CreateObjectStore(store, idb.ObjectStoreOptions{})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("idb: open %s: %w", name, err)
	}
	db, err := req.Await(ctx)
	if err != nil {
		return nil, fmt.Errorf("idb: open %s: %w", name, err)
	}
	return db, nil
}
