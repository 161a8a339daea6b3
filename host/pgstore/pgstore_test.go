package pgstore_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/webcoding/studio/host/pgstore"
	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/durabletest"
)

// pgURL returns WEBCODING_POSTGRES_URL. Unset: skip locally, fail under CI (CI must not
// silently skip the real-server contract run).
func pgURL(tb testing.TB) string {
	tb.Helper()
	url := os.Getenv("WEBCODING_POSTGRES_URL")
	if url == "" {
		if os.Getenv("CI") != "" {
			tb.Fatal("WEBCODING_POSTGRES_URL is not set but CI is: start PostgreSQL with scripts/services.sh")
		}
		tb.Skip("WEBCODING_POSTGRES_URL not set; run: eval \"$(scripts/services.sh)\"")
	}
	return url
}

// newPool returns a pool whose search_path is a fresh schema holding pgstore.Schema; the schema
// is dropped afterwards.
func newPool(tb testing.TB, url string) *pgstore.Pool {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var r [6]byte
	_, _ = rand.Read(r[:])
	schema := "webcoding_test_" + hex.EncodeToString(r[:])
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		tb.Fatalf("WEBCODING_POSTGRES_URL: %v", err)
	}
	admin := pgstore.NewPool(cfg.Copy(), 1)
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		tb.Fatalf("create schema on %s: %v", url, err)
	}
	cfg.RuntimeParams["search_path"] = schema
	pool := pgstore.NewPool(cfg, 8)
	if _, err := pool.Exec(ctx, pgstore.Schema); err != nil {
		tb.Fatalf("apply schema: %v", err)
	}
	tb.Cleanup(func() {
		pool.Close()
		_, _ = admin.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close()
	})
	return pool
}

func TestContract(t *testing.T) {
	url := pgURL(t)
	durabletest.Run(t, func(t *testing.T) durable.Backend { return pgstore.New(newPool(t, url)) })
}

// Without the schema the backend fails as ErrBackend; it never creates the table itself.
func TestNoAutomaticMigration(t *testing.T) {
	url := pgURL(t)
	ctx := context.Background()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	cfg.RuntimeParams["search_path"] = "webcoding_no_such_schema"
	pool := pgstore.NewPool(cfg, 1)
	defer pool.Close()
	b := pgstore.New(pool)
	s, _ := durable.New(b, durable.Options{})
	_, err = s.Claim(ctx, "k", "fp", "o", time.Second)
	if !durable.Retryable(err) {
		t.Fatalf("claim without schema = %v, want retryable ErrBackend", err)
	}
}
