package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/webcoding/studio/wasm/durable"
)

// Schema is the DDL the backend needs, for the current search_path. Apply it once (it is
// idempotent); the backend never runs it itself.
const Schema = `CREATE TABLE IF NOT EXISTS durable_operations (
    key         text COLLATE "C" PRIMARY KEY,
    incarnation text   NOT NULL,
    revision    bigint NOT NULL,
    record      text   NOT NULL
);`

const (
	sqlRead   = `SELECT incarnation, revision, record FROM durable_operations WHERE key = $1`
	sqlInsert = `INSERT INTO durable_operations (key, incarnation, revision, record) VALUES ($1, $2, $3, $4) ON CONFLICT (key) DO NOTHING`
	sqlUpdate = `UPDATE durable_operations SET incarnation = $2, revision = $3, record = $4 WHERE key = $1 AND incarnation = $5 AND revision = $6`
	sqlDelete = `DELETE FROM durable_operations WHERE key = $1 AND incarnation = $2 AND revision = $3`
	sqlAbsent = `SELECT NOT EXISTS (SELECT 1 FROM durable_operations WHERE key = $1)`
	sqlList   = `SELECT key, incarnation, revision, record FROM durable_operations WHERE key > $1 ORDER BY key LIMIT $2`
	sqlPutRaw = `INSERT INTO durable_operations (key, incarnation, revision, record) VALUES ($1, $2, $3, $4)
ON CONFLICT (key) DO UPDATE SET incarnation = EXCLUDED.incarnation, revision = EXCLUDED.revision, record = EXCLUDED.record`
)

// DB is what the backend needs from pgx: Pool, *pgx.Conn, pgx.Tx and *pgxpool.Pool all qualify.
// Each call must run in its own implicit transaction (autocommit) for the READ COMMITTED
// reasoning of the package doc to hold; a pgx.Tx works but holds row locks until it ends.
type DB interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Backend is a durable.Backend over one PostgreSQL database. Safe for concurrent use when db
// is (a pool is; a single *pgx.Conn is not).
type Backend struct{ db DB }

var _ durable.Backend = (*Backend)(nil)

// New returns a Backend over db. The table of Schema must exist.
func New(db DB) *Backend { return &Backend{db: db} }

// Open returns a Backend over a Pool (DefaultMaxConns connections) for url, a postgres:// URL or
// keyword/value DSN (pgx.ParseConfig), and the pool's Close. It neither dials nor applies Schema.
//
// # Errors
//   - *durable.ValidationError (field "url"): url does not parse.
func Open(url string) (*Backend, func(), error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, nil, &durable.ValidationError{Field: "url", Reason: err.Error()}
	}
	pool := NewPool(cfg, 0)
	return New(pool), pool.Close, nil
}

func decodeRow(key, inc string, rev int64, raw string) (durable.Record, error) {
	r, err := durable.DecodeRecord([]byte(raw))
	if err != nil {
		return durable.Record{}, err
	}
	if r.Key != key {
		return durable.Record{}, &durable.ValidationError{Key: key, Field: "key", Reason: fmt.Sprintf("stored record names %q", r.Key)}
	}
	if r.Incarnation != inc {
		return durable.Record{}, &durable.ValidationError{Key: key, Field: "incarnation", Reason: "does not match the row's fence"}
	}
	if r.Revision != rev {
		return durable.Record{}, &durable.ValidationError{Key: key, Field: "revision", Reason: "does not match the row's fence"}
	}
	return r, nil
}

// Read implements durable.Backend with one SELECT.
func (b *Backend) Read(ctx context.Context, key string) (durable.Record, bool, error) {
	var inc, raw string
	var rev int64
	err := b.db.QueryRow(ctx, sqlRead, key).Scan(&inc, &rev, &raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return durable.Record{}, false, nil
	}
	if err != nil {
		return durable.Record{}, false, durable.BackendFailure("read", err)
	}
	r, err := decodeRow(key, inc, rev, raw)
	if err != nil {
		return durable.Record{}, false, err
	}
	return r, true, nil
}

// CompareAndSet implements durable.Backend with one statement (see the package doc).
func (b *Backend) CompareAndSet(ctx context.Context, key string, expected *durable.Fence, next *durable.Record) (bool, error) {
	var raw []byte
	if next != nil {
		if next.Key != key {
			return false, &durable.ValidationError{Key: key, Field: "key", Reason: "next record has another key"}
		}
		var err error
		if raw, err = durable.EncodeRecord(*next); err != nil {
			return false, err
		}
	}
	var (
		tag pgconn.CommandTag
		err error
	)
	switch {
	case expected == nil && next == nil:
		var absent bool
		if err := b.db.QueryRow(ctx, sqlAbsent, key).Scan(&absent); err != nil {
			return false, durable.BackendFailure("compareAndSet", err)
		}
		return absent, nil
	case expected == nil:
		tag, err = b.db.Exec(ctx, sqlInsert, key, next.Incarnation, next.Revision, string(raw))
	case next == nil:
		tag, err = b.db.Exec(ctx, sqlDelete, key, expected.Incarnation, expected.Revision)
	default:
		tag, err = b.db.Exec(ctx, sqlUpdate, key, next.Incarnation, next.Revision, string(raw), expected.Incarnation, expected.Revision)
	}
	if err != nil {
		return false, durable.BackendFailure("compareAndSet", err)
	}
	return tag.RowsAffected() == 1, nil
}

// ListPage implements durable.Backend with one keyset SELECT (limit+1 rows, to know whether
// more follow). limit is clamped to 1..durable.MaxListLimit.
func (b *Backend) ListPage(ctx context.Context, cursor string, limit int) ([]durable.Record, string, error) {
	limit = min(max(limit, 1), durable.MaxListLimit)
	rows, err := b.db.Query(ctx, sqlList, cursor, limit+1)
	if err != nil {
		return nil, "", durable.BackendFailure("listPage", err)
	}
	defer rows.Close()
	type row struct {
		key, inc, raw string
		rev           int64
	}
	var got []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.key, &r.inc, &r.rev, &r.raw); err != nil {
			return nil, "", durable.BackendFailure("listPage", err)
		}
		got = append(got, r)
	}
	if err := rows.Err(); err != nil {
		return nil, "", durable.BackendFailure("listPage", err)
	}
	more := len(got) > limit
	if more {
		got = got[:limit]
	}
	return durable.DecodePage(got, more, func(r row) (durable.Record, error) {
		return decodeRow(r.key, r.inc, r.rev, r.raw)
	})
}

// PutRaw upserts raw as the record text under key without validation, with the row's fence read
// loosely from the bytes (durable.LooseFence). It exists for the contract suite's tampering
// tests (durabletest.RawPutter) and repair tooling; the durable store never calls it. raw must
// be valid UTF-8 without NUL (PostgreSQL text).
func (b *Backend) PutRaw(ctx context.Context, key string, raw []byte) error {
	f := durable.LooseFence(raw)
	if _, err := b.db.Exec(ctx, sqlPutRaw, key, f.Incarnation, f.Revision, string(raw)); err != nil {
		return durable.BackendFailure("putRaw", err)
	}
	return nil
}
