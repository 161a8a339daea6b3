// Package pgstore is the PostgreSQL implementation of durable.Backend (REFERENCE §6.2,
// SPEC §2.5), on github.com/jackc/pgx/v5.
//
// # Schema
//
// Schema is the explicit DDL: one table durable_operations(key text COLLATE "C" primary key,
// incarnation, revision, record). Nothing here creates or migrates it; operators (and the tests)
// apply Schema themselves. The key uses the "C" collation so that ORDER BY and the keyset
// comparison are byte-wise, the same order as every other backend.
//
// # Statements
//
// Every CompareAndSet is one statement, correct under READ COMMITTED without explicit locks:
//   - insert-if-absent: INSERT … ON CONFLICT (key) DO NOTHING (a concurrent inserter waits for
//     the winner and then inserts nothing);
//   - update or delete: UPDATE/DELETE … WHERE key = $1 AND incarnation = … AND revision = …
//     (a concurrent writer's row version is re-checked against the WHERE clause after the lock
//     wait, so exactly one writer per fence succeeds).
//
// Read is one SELECT; ListPage is a keyset SELECT … WHERE key > $cursor ORDER BY key LIMIT n+1.
// The record column holds the JSON encoding (durable.EncodeRecord) as text, byte for byte, and
// is decoded strictly on every read; a row whose columns disagree with its record is a
// validation error, never repaired.
//
// Every pgx error is translated to a *durable.BackendError (durable.ErrBackend) here; no driver
// error leaves the package (STYLE §7). Tests run durabletest.Run against a real server named
// by WEBCODING_POSTGRES_URL (see scripts/services.sh).
//
// Owns: durable.Backend on PostgreSQL (schema, the one-statement compare-and-set, keyset pages).
//
// Must never: let a driver error leave the package, or repair a record that does not decode.
package pgstore
