package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/webcoding/studio/host/pgstore"
	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/mcp"
	"github.com/webcoding/studio/wasm/workspace"
)

// These run `webcoding call --durable URL` twice, as two commands over one real Redis or
// PostgreSQL server: the idempotency record written by the first is what the second replays.

// serverURL returns the URL in env var name: unset skips locally and fails under CI (the
// convention of host/redisstore and host/pgstore).
func serverURL(t *testing.T, name string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not set but CI is: start the servers with scripts/services.sh", name)
		}
		t.Skipf("%s not set; run: eval \"$(bash scripts/services.sh)\"", name)
	}
	return v
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// pgSchemaURL creates a fresh schema (with pgstore.Schema's table when withTable) and returns
// base with search_path set to it and a password added that the trusting test server ignores
// (so the test can check it is never printed). The schema is dropped afterwards.
func pgSchemaURL(t *testing.T, base, password string, withTable bool) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cfg, err := pgx.ParseConfig(base)
	if err != nil {
		t.Fatal(err)
	}
	admin := pgstore.NewPool(cfg, 1)
	t.Cleanup(admin.Close)
	schema := "webcoding_cli_" + randomHex(6)
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = admin.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE") })
	if withTable {
		if _, err := admin.Exec(ctx, "SET search_path TO "+schema+"; "+pgstore.Schema); err != nil {
			t.Fatal(err)
		}
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	if password != "" {
		u.User = url.UserPassword(u.User.Username(), password)
	}
	return u.String()
}

// idempotentWriteLine is a writeFile line with an idempotencyKey. With session set, the line
// names its own sessionId (so two folders can share records on purpose); without it the CLI
// scopes the key to the --dir folder (siteSession).
func idempotentWriteLine(key, path, source, session string) string {
	meta := map[string]any{"idempotencyKey": key}
	if session != "" {
		meta["sessionId"] = session
	}
	b, _ := json.Marshal(map[string]any{"name": "workspace.writeFile", "arguments": map[string]any{"path": path, "source": source},
		"_meta": meta})
	return string(b)
}

// checkReplayAcrossProcesses: command 1 writes styles.css with an idempotencyKey and does not
// save; command 2, a new process on a fresh copy of the folder, sends the same line. The record
// says the effect lives in command 1's workspace instance, and command 2's styles.css is still
// the seed's, so the replay is TOOL_IDEMPOTENCY_NOT_APPLIED (issue 14: never a success for an
// edit that is not there) — the handler does not run again and nothing is left unsaved.
// Command 3 reuses the key with other arguments and gets TOOL_IDEMPOTENCY_CONFLICT. No output
// shows secret.
func checkReplayAcrossProcesses(t *testing.T, durableURL, secret string) {
	key := "cli-replay-" + randomHex(8)
	// Both commands name one session: the same logical site on two copies of the folder.
	line := idempotentWriteLine(key, "styles.css", newCSS, "shared-site")
	var seedCSS string
	for _, f := range workspace.Seed().Files {
		if f.Path == "styles.css" {
			seedCSS = f.Source
		}
	}
	if seedCSS == "" || seedCSS == newCSS {
		t.Fatal("the seed has no distinct styles.css")
	}
	noSecret := func(streams ...string) {
		t.Helper()
		for _, s := range streams {
			if secret != "" && strings.Contains(s, secret) {
				t.Fatalf("output shows the password:\n%s", s)
			}
		}
	}

	code, out, stderr := runCLIReader(t, strings.NewReader(line+"\n"), "call", "--dir", seedCopy(t), "--durable", durableURL)
	noSecret(out, stderr)
	ls := lines(t, out)
	if code != 0 || len(ls) < 1 || result(t, ls[0]).IsError {
		t.Fatalf("first command: exit %d\n%s%s", code, out, stderr)
	}
	first := result(t, ls[0])

	dir2 := seedCopy(t)
	code, out, stderr = runCLIReader(t, strings.NewReader(line+"\n"+
		`{"name":"workspace.readFile","arguments":{"path":"styles.css"}}`+"\n"+
		`{"name":"workspace.getStatus"}`+"\n"), "call", "--dir", dir2, "--durable", durableURL)
	noSecret(out, stderr)
	ls = lines(t, out)
	if code != 0 || len(ls) != 3 {
		t.Fatalf("second command: exit %d, %d lines\n%s%s", code, len(ls), out, stderr)
	}
	second := result(t, ls[0])
	if errCode(second) != mcp.CodeToolIdempotencyNotApplied {
		t.Fatalf("second command: want TOOL_IDEMPOTENCY_NOT_APPLIED for an edit that is not in its workspace:\nfirst  %s\nsecond %s", first.StructuredContent, ls[0])
	}
	var read struct {
		Source string `json:"source"`
	}
	if r := result(t, ls[1]); r.IsError || json.Unmarshal(r.StructuredContent, &read) != nil || read.Source != seedCSS {
		t.Fatalf("the handler ran again in the second command: styles.css is %q (%s)", read.Source, ls[1])
	}
	var status unsaved
	if r := result(t, ls[2]); r.IsError || json.Unmarshal(r.StructuredContent, &status) != nil || status.any() {
		t.Fatalf("the second command's workspace has unsaved changes after a replay: %s", ls[2])
	}
	if got := tree(t, dir2)["styles.css"]; got != seedCSS {
		t.Fatalf("styles.css on disk changed: %q", got)
	}

	other := idempotentWriteLine(key, "styles.css", "/* other */\n", "shared-site")
	code, out, stderr = runCLIReader(t, strings.NewReader(other+"\n"), "call", "--dir", seedCopy(t), "--durable", durableURL)
	noSecret(out, stderr)
	ls = lines(t, out)
	if code != 0 || len(ls) < 1 || errCode(result(t, ls[0])) != mcp.CodeToolIdempotencyConflict {
		t.Fatalf("third command (same key, other arguments): exit %d\n%s%s", code, out, stderr)
	}
}

func TestCallDurableRedisReplaysAcrossProcesses(t *testing.T) {
	checkReplayAcrossProcesses(t, serverURL(t, "WEBCODING_REDIS_URL"), "")
}

func TestCallDurablePostgresReplaysAcrossProcesses(t *testing.T) {
	const secret = "Pg-S3cret-not-shown"
	checkReplayAcrossProcesses(t, pgSchemaURL(t, serverURL(t, "WEBCODING_POSTGRES_URL"), secret, true), secret)
}

// A backend that does not answer stops the command with exit 1 before any call: unreachable
// Redis, and PostgreSQL without the table (the message shows the SQL to create it). Neither
// shows the password.
func TestCallDurableBackendDownStopsTheCommand(t *testing.T) {
	const secret = "R3dis-S3cret-not-shown"
	f := &fakeHost{}
	code, out, stderr := runCLI(t, f, `{"name":"a"}`+"\n", "call", "--durable", "redis://alice:"+secret+"@127.0.0.1:1/0")
	if code != exitHost || out != "" || len(f.requests) != 0 || !strings.Contains(stderr, "redis://127.0.0.1") || !strings.Contains(stderr, "does not answer") {
		t.Fatalf("unreachable redis: exit %d, stdout %q, %d requests, stderr %q", code, out, len(f.requests), stderr)
	}
	if strings.Contains(stderr, secret) || strings.Contains(stderr, "alice") {
		t.Fatalf("stderr shows credentials: %s", stderr)
	}

	base := serverURL(t, "WEBCODING_POSTGRES_URL")
	const pgSecret = "Pg-S3cret-not-shown"
	u := pgSchemaURL(t, base, pgSecret, false)
	f = &fakeHost{}
	code, out, stderr = runCLI(t, f, `{"name":"a"}`+"\n", "call", "--durable", u)
	if code != exitHost || out != "" || len(f.requests) != 0 || !strings.Contains(stderr, "CREATE TABLE IF NOT EXISTS durable_operations") {
		t.Fatalf("postgres without the table: exit %d, stdout %q, %d requests, stderr %q", code, out, len(f.requests), stderr)
	}
	if strings.Contains(stderr, pgSecret) {
		t.Fatalf("stderr shows the password: %s", stderr)
	}
}

// call, agent and mcp all open --durable URLs the same way: an unreachable server stops each
// with exit 1 before the host starts, and no message shows the credentials.
func TestDurableURLInEveryCommand(t *testing.T) {
	const secret = "Ev3ry-S3cret-not-shown"
	v := "redis://carol:" + secret + "@127.0.0.1:1/0"
	for _, args := range [][]string{
		{"call", "--durable", v},
		{"agent", "--durable", v, "--approve", "all", "Make it emerald"},
		{"mcp", "--durable", v},
	} {
		f := &fakeHost{}
		code, out, stderr := runCLI(t, f, "", args...)
		if code != exitHost || out != "" || len(f.requests) != 0 || !strings.Contains(stderr, "--durable redis://127.0.0.1: the backend does not answer") {
			t.Errorf("%s: exit %d, stdout %q, %d requests, stderr %q", args[0], code, out, len(f.requests), stderr)
		}
		if strings.Contains(stderr, secret) || strings.Contains(stderr, "carol") {
			t.Errorf("%s: stderr shows credentials: %s", args[0], stderr)
		}
	}
}

// scrubBackend removes the URL's passwords from every backend failure, keeps failures
// matchable as durable.ErrBackend (and context errors as such), and passes validation errors
// and successes through unchanged.
func TestScrubBackend(t *testing.T) {
	secrets := secretsOf("postgres://u:pa55word@db.example/x?password=qu3ry")
	if len(secrets) != 2 {
		t.Fatalf("secretsOf = %q", secrets)
	}
	leaky := &leakyBackend{Backend: nil}
	s := scrubBackend{b: leaky, secrets: secrets}
	ctx := context.Background()

	leaky.err = errors.New("connect postgres://u:pa55word@db.example failed (password=qu3ry)")
	_, _, err := s.Read(ctx, "k")
	if !errors.Is(err, durable.ErrBackend) || strings.Contains(err.Error(), "pa55word") || strings.Contains(err.Error(), "qu3ry") {
		t.Fatalf("read: %v", err)
	}
	leaky.err = durable.BackendFailure("compareAndSet", errors.New("auth pa55word rejected"))
	if _, err := s.CompareAndSet(ctx, "k", nil, nil); !errors.Is(err, durable.ErrBackend) || strings.Contains(err.Error(), "pa55word") {
		t.Fatalf("compareAndSet: %v", err)
	}
	leaky.err = fmt.Errorf("timeout talking to pa55word host: %w", context.DeadlineExceeded)
	if _, _, err := s.ListPage(ctx, "", 5); !errors.Is(err, durable.ErrBackend) || !errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "pa55word") {
		t.Fatalf("listPage: %v", err)
	}
	ve := &durable.ValidationError{Key: "k", Field: "revision", Reason: "must be positive"}
	leaky.err = ve
	if _, _, err := s.Read(ctx, "k"); err != ve {
		t.Fatalf("validation error changed: %v", err)
	}
	leaky.err = nil
	if _, found, err := s.Read(ctx, "k"); err != nil || found {
		t.Fatalf("success changed: %v, %v", found, err)
	}
}

// leakyBackend fails every call with err (nil: an empty backend).
type leakyBackend struct {
	durable.Backend
	err error
}

func (l *leakyBackend) Read(context.Context, string) (durable.Record, bool, error) {
	return durable.Record{}, false, l.err
}

func (l *leakyBackend) CompareAndSet(context.Context, string, *durable.Fence, *durable.Record) (bool, error) {
	return false, l.err
}

func (l *leakyBackend) ListPage(context.Context, string, int) ([]durable.Record, string, error) {
	return nil, "", l.err
}

// TestCallDurableScopesKeysPerFolder: without a sessionId of its own, a key is scoped to the
// --dir folder, so the same key on another folder against the same store runs (and is written)
// instead of replaying the first folder's result.
func TestCallDurableScopesKeysPerFolder(t *testing.T) {
	u := os.Getenv("WEBCODING_REDIS_URL")
	if u == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("WEBCODING_REDIS_URL is not set in CI")
		}
		t.Skip("WEBCODING_REDIS_URL is not set (eval \"$(scripts/services.sh)\")")
	}
	key := "cli-scope-" + randomHex(8)
	line := idempotentWriteLine(key, "styles.css", newCSS, "")
	for i := 0; i < 2; i++ {
		dir := seedCopy(t)
		code, out, stderr := runCLIReader(t, strings.NewReader(line+"\n"), "call", "--dir", dir, "--autosave", "--durable", u)
		if code != 0 || result(t, lines(t, out)[0]).IsError {
			t.Fatalf("command %d: exit %d\n%s%s", i, code, out, stderr)
		}
		if got := tree(t, dir)["styles.css"]; got != newCSS {
			t.Fatalf("command %d: the write did not reach its own folder (a replay from another folder?): %q", i, got)
		}
	}
}
