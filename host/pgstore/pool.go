package pgstore

import (
	"context"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// DefaultMaxConns is Pool's default connection limit.
const DefaultMaxConns = 4

// Pool is a small connection pool over pgx.Conn that implements DB: at most MaxConns
// connections, dialled lazily, each used by one statement at a time and returned afterwards
// (a Query's connection returns when its Rows is closed). Connections that broke are dropped.
// It exists so the backend needs nothing beyond the pgx module itself; any DB works in its
// place (for example a *pgxpool.Pool).
type Pool struct {
	cfg  *pgx.ConnConfig
	sem  chan struct{}
	mu   sync.Mutex
	idle []*pgx.Conn
	shut bool
}

var _ DB = (*Pool)(nil)

// NewPool returns a pool dialling cfg, with at most maxConns connections (0 = DefaultMaxConns).
// It does not dial until first used.
func NewPool(cfg *pgx.ConnConfig, maxConns int) *Pool {
	if maxConns <= 0 {
		maxConns = DefaultMaxConns
	}
	return &Pool{cfg: cfg, sem: make(chan struct{}, maxConns)}
}

func (p *Pool) acquire(ctx context.Context) (*pgx.Conn, error) {
	select {
	case p.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return c, nil
	}
	p.mu.Unlock()
	c, err := pgx.ConnectConfig(ctx, p.cfg)
	if err != nil {
		<-p.sem
		return nil, err
	}
	return c, nil
}

func (p *Pool) release(c *pgx.Conn) {
	p.mu.Lock()
	if c.IsClosed() || c.PgConn().IsBusy() || p.shut {
		p.mu.Unlock()
		_ = c.Close(context.Background())
	} else {
		p.idle = append(p.idle, c)
		p.mu.Unlock()
	}
	<-p.sem
}

// Close closes the idle connections; connections in use close when released.
func (p *Pool) Close() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.shut = nil, true
	p.mu.Unlock()
	for _, c := range idle {
		_ = c.Close(context.Background())
	}
}

// Exec runs one statement on a pooled connection.
func (p *Pool) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	c, err := p.acquire(ctx)
	if err != nil {
		return pgconn.CommandTag{}, err
	}
	defer p.release(c)
	return c.Exec(ctx, sql, args...)
}

// Query runs one query; the connection returns to the pool when the Rows is closed.
func (p *Pool) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	c, err := p.acquire(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := c.Query(ctx, sql, args...)
	if err != nil {
		p.release(c)
		return nil, err
	}
	return &pooledRows{Rows: rows, release: func() { p.release(c) }}, nil
}

// QueryRow runs one query whose first row is scanned by Row.Scan; the connection returns to the
// pool after Scan.
func (p *Pool) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return rowFunc(func(dest ...any) error {
		c, err := p.acquire(ctx)
		if err != nil {
			return err
		}
		defer p.release(c)
		return c.QueryRow(ctx, sql, args...).Scan(dest...)
	})
}

type rowFunc func(dest ...any) error

func (f rowFunc) Scan(dest ...any) error { return f(dest...) }

type pooledRows struct {
	pgx.Rows
	once    sync.Once
	release func()
}

func (r *pooledRows) Close() {
	r.Rows.Close()
	r.once.Do(r.release)
}
