package wasmhost

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/redis/go-redis/v9"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"

	"github.com/webcoding/studio/host/pgstore"
	"github.com/webcoding/studio/host/redisstore"
	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/durabletest"
	"github.com/webcoding/studio/wasm/durable/memstore"
)

// switchBackend is the Options.Durable of the contract run: the guest's durabletest_fresh
// replaces the current backend with a fresh one from newBackend (the suite's subtests run one
// after another, each on its own backend).
type switchBackend struct {
	newBackend func() (durable.Backend, error)
	mu         sync.Mutex
	cur        durable.Backend
}

func (s *switchBackend) current() durable.Backend {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}

func (s *switchBackend) Read(ctx context.Context, key string) (durable.Record, bool, error) {
	return s.current().Read(ctx, key)
}

func (s *switchBackend) CompareAndSet(ctx context.Context, key string, expected *durable.Fence, next *durable.Record) (bool, error) {
	return s.current().CompareAndSet(ctx, key, expected, next)
}

func (s *switchBackend) ListPage(ctx context.Context, cursor string, limit int) ([]durable.Record, string, error) {
	return s.current().ListPage(ctx, cursor, limit)
}

func testSwitch(ctx context.Context) *switchBackend {
	h := hostFrom(ctx)
	if h == nil {
		return nil
	}
	s, _ := h.opts.Durable.(*switchBackend)
	return s
}

func hostDurableFresh(ctx context.Context, m api.Module) int32 {
	s := testSwitch(ctx)
	if s == nil {
		return statusNone
	}
	b, err := s.newBackend()
	if err != nil {
		hostFrom(ctx).logf("durabletest_fresh: %v", err)
		return statusFailed
	}
	s.mu.Lock()
	s.cur = b
	s.mu.Unlock()
	return statusOK
}

func hostDurablePutRaw(ctx context.Context, m api.Module, keyPtr, keyLen, rawPtr, rawLen uint32) int32 {
	s := testSwitch(ctx)
	if s == nil {
		return statusNone
	}
	key, ok := readString(m, keyPtr, keyLen)
	raw, ok2 := m.Memory().Read(rawPtr, rawLen)
	rp, ok3 := s.current().(durabletest.RawPutter)
	if !ok || !ok2 || !ok3 {
		return statusFailed
	}
	if err := rp.PutRaw(ctx, key, append([]byte(nil), raw...)); err != nil {
		hostFrom(ctx).logf("durabletest_put_raw: %v", err)
		return statusFailed
	}
	return statusOK
}

var guestTests struct {
	once sync.Once
	path string
	err  error
}

// guestTestBinary compiles wasm/adapters/hostcall's tests for wasip1 with the hosttest tag
// (go test -c), once per test binary.
func guestTestBinary(t *testing.T) string {
	t.Helper()
	guestTests.once.Do(func() {
		root, err := SourceRoot()
		if err != nil {
			guestTests.err = err
			return
		}
		goCmd, err := goCommand()
		if err != nil {
			guestTests.err = err
			return
		}
		dir, err := os.MkdirTemp("", "webcoding-hostcall-test")
		if err != nil {
			guestTests.err = err
			return
		}
		out := filepath.Join(dir, "hostcall.test.wasm")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, goCmd, "test", "-c", "-tags", "hosttest", "-o", out, "./wasm/adapters/hostcall")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
		if b, err := cmd.CombinedOutput(); err != nil {
			guestTests.err = errors.New("go test -c ./wasm/adapters/hostcall (wasip1): " + err.Error() + "\n" + string(b))
			return
		}
		guestTests.path = out
	})
	if guestTests.err != nil {
		t.Fatal(guestTests.err)
	}
	return guestTests.path
}

// runGuestTests runs the compiled guest tests matching run in wazero, with the "webcoding"
// host module (every production function plus the durabletest_* test imports) over a Host
// whose Options.Durable is b, and returns the exit code and the output.
func runGuestTests(t *testing.T, b durable.Backend, run string) (int, string) {
	t.Helper()
	bin := guestTestBinary(t)
	wasm, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	hb := rt.NewHostModuleBuilder(HostModuleName)
	for _, f := range hostFuncs {
		hb = hb.NewFunctionBuilder().WithFunc(f.Fn).Export(f.Name)
	}
	hb = hb.NewFunctionBuilder().WithFunc(hostDurableFresh).Export("durabletest_fresh")
	hb = hb.NewFunctionBuilder().WithFunc(hostDurablePutRaw).Export("durabletest_put_raw")
	if _, err := hb.Instantiate(ctx); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	h := &Host{opts: Options{Durable: b, Log: &log}}
	var out bytes.Buffer
	cfg := wazero.NewModuleConfig().
		WithArgs("hostcall.test", "-test.v", "-test.run", run, "-test.timeout", "5m").
		WithStdout(&out).WithStderr(&out).
		WithSysWalltime().WithSysNanotime().WithSysNanosleep().
		WithRandSource(rand.Reader)
	_, err = rt.InstantiateWithConfig(context.WithValue(ctx, hostKey{}, h), wasm, cfg)
	code := 0
	if err != nil {
		var ee *sys.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("running the guest tests: %v\n%s", err, out.String())
		}
		code = int(ee.ExitCode())
	}
	if log.Len() > 0 {
		t.Logf("host log:\n%s", log.String())
	}
	return code, out.String()
}

// contractInWazero runs durabletest.Run unchanged inside the module (hostcall.Durable) over
// backends from newBackend, and checks every subtest passed.
func contractInWazero(t *testing.T, newBackend func() (durable.Backend, error)) {
	code, out := runGuestTests(t, &switchBackend{newBackend: newBackend}, "^TestDurableContract$")
	if code != 0 || !strings.Contains(out, "--- PASS: TestDurableContract") || strings.Contains(out, "--- FAIL") {
		t.Fatalf("guest contract run exited %d:\n%s", code, out)
	}
	for _, sub := range []string{"CAS", "ListPage", "ClaimOutcomes", "Fences", "ResolveUnknown", "Prune", "Validation", "Tampered", "BackendFailure", "ConcurrentClaimers", "ConcurrentTakeover", "ConcurrentTransitions"} {
		if !strings.Contains(out, "--- PASS: TestDurableContract/"+sub+" ") {
			t.Errorf("subtest %s did not pass:\n%s", sub, out)
		}
	}
}

func TestDurableContractInWazeroMemory(t *testing.T) {
	contractInWazero(t, func() (durable.Backend, error) { return memstore.New(), nil })
}

// envURL returns the server URL in env var name: unset skips locally and fails under CI (the
// convention of host/redisstore and host/pgstore).
func envURL(t *testing.T, name string) string {
	t.Helper()
	url := os.Getenv(name)
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not set but CI is: start the servers with scripts/services.sh", name)
		}
		t.Skipf("%s not set; run: eval \"$(bash scripts/services.sh)\"", name)
	}
	return url
}

func TestDurableContractInWazeroRedis(t *testing.T) {
	url := envURL(t, "WEBCODING_REDIS_URL")
	o, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(o)
	defer c.Close()
	var prefixes []string
	defer func() {
		ctx := context.Background()
		for _, p := range prefixes {
			iter := c.Scan(ctx, 0, "{"+p+"}*", 500).Iterator()
			var keys []string
			for iter.Next(ctx) {
				keys = append(keys, iter.Val())
			}
			if len(keys) > 0 {
				_ = c.Del(ctx, keys...).Err()
			}
		}
	}()
	contractInWazero(t, func() (durable.Backend, error) {
		var r [8]byte
		_, _ = rand.Read(r[:])
		p := "webcoding-wasmtest:" + hex.EncodeToString(r[:])
		prefixes = append(prefixes, p)
		return redisstore.New(c, redisstore.Options{Prefix: p})
	})
}

func TestDurableContractInWazeroPostgres(t *testing.T) {
	url := envURL(t, "WEBCODING_POSTGRES_URL")
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	admin := pgstore.NewPool(cfg.Copy(), 1)
	defer admin.Close()
	var schemas []string
	var pools []*pgstore.Pool
	defer func() {
		for _, p := range pools {
			p.Close()
		}
		for _, s := range schemas {
			_, _ = admin.Exec(context.Background(), "DROP SCHEMA "+s+" CASCADE")
		}
	}()
	contractInWazero(t, func() (durable.Backend, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		var r [6]byte
		_, _ = rand.Read(r[:])
		schema := "webcoding_wasmtest_" + hex.EncodeToString(r[:])
		if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
			return nil, err
		}
		schemas = append(schemas, schema)
		c := cfg.Copy()
		c.RuntimeParams["search_path"] = schema
		pool := pgstore.NewPool(c, 8)
		pools = append(pools, pool)
		if _, err := pool.Exec(ctx, pgstore.Schema); err != nil {
			return nil, err
		}
		return pgstore.New(pool), nil
	})
}

// faultBackend wraps a backend: keys starting with "outage/" fail with a driver-style error,
// keys starting with "slow/" block until the context ends, and ListPage with cursor
// "outage" fails. failCAS makes every compare-and-set fail.
type faultBackend struct {
	durable.Backend
	failCAS bool
}

var errDriver = errors.New("dial tcp 127.0.0.1:6379: connect: connection refused")

func (f *faultBackend) fault(ctx context.Context, key string) error {
	switch {
	case strings.HasPrefix(key, "outage/"):
		return errDriver
	case strings.HasPrefix(key, "slow/"):
		<-ctx.Done()
		return ctx.Err()
	}
	return nil
}

func (f *faultBackend) Read(ctx context.Context, key string) (durable.Record, bool, error) {
	if err := f.fault(ctx, key); err != nil {
		return durable.Record{}, false, err
	}
	return f.Backend.Read(ctx, key)
}

func (f *faultBackend) CompareAndSet(ctx context.Context, key string, expected *durable.Fence, next *durable.Record) (bool, error) {
	if f.failCAS {
		return false, errDriver
	}
	if err := f.fault(ctx, key); err != nil {
		return false, err
	}
	return f.Backend.CompareAndSet(ctx, key, expected, next)
}

func (f *faultBackend) PutRaw(ctx context.Context, key string, raw []byte) error {
	return f.Backend.(durabletest.RawPutter).PutRaw(ctx, key, raw)
}

func (f *faultBackend) ListPage(ctx context.Context, cursor string, limit int) ([]durable.Record, string, error) {
	if cursor == "outage" {
		return nil, "", errDriver
	}
	return f.Backend.ListPage(ctx, cursor, limit)
}

// The guest's error mapping (TestDurableHostFailures in wasm/adapters/hostcall): a driver
// failure, a timeout enforced by the host and a tampered record reach the guest as
// durable.ErrBackend (retryable, context error kept) or a *durable.ValidationError.
func TestDurableGuestErrorMapping(t *testing.T) {
	mem := memstore.New()
	code, out := runGuestTests(t, &switchBackend{newBackend: func() (durable.Backend, error) {
		return &faultBackend{Backend: mem}, nil
	}}, "^TestDurableHostFailures$")
	if code != 0 || !strings.Contains(out, "--- PASS: TestDurableHostFailures") {
		t.Fatalf("guest exited %d:\n%s", code, out)
	}
}

// Without Options.Durable the durable_* functions answer "none", which the guest reports as
// durable.ErrBackend (TestDurableNoBackend).
func TestDurableGuestWithoutBackend(t *testing.T) {
	code, out := runGuestTests(t, nil, "^TestDurableNoBackend$")
	if code != 0 || !strings.Contains(out, "--- PASS: TestDurableNoBackend") {
		t.Fatalf("guest exited %d:\n%s", code, out)
	}
}

// callTool sends one tools/call and returns its result members.
func callTool(t *testing.T, h *Host, params string) map[string]json.RawMessage {
	t.Helper()
	resp, err := h.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":`+params+`}`))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Result map[string]json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(resp, &v); err != nil || v.Result == nil {
		t.Fatalf("not a tools/call result: %s", resp)
	}
	return v.Result
}

// The real core over Options.Durable: info says "durable", every session claims idempotent
// calls in the host's backend (a second host over the same backend finds the first's record and,
// its effect being absent there, answers TOOL_IDEMPOTENCY_NOT_APPLIED without running the handler), and a backend whose writes fail gives
// TOOL_IDEMPOTENCY_STORE_FAILED (retryable) without running the handler.
func TestCoreUsesTheHostDurableBackend(t *testing.T) {
	mem := memstore.New()
	write := `{"name":"workspace.writeFile","arguments":{"path":"styles.css","source":"a{}\n"},"_meta":{"idempotencyKey":"k-host","source":"local","mode":"direct"}}`
	read := `{"name":"workspace.readFile","arguments":{"path":"styles.css"},"_meta":{"source":"local","mode":"direct"}}`

	h1 := newHost(t, Options{Durable: mem})
	first := callTool(t, h1, write)
	if string(first["isError"]) != "false" {
		t.Fatalf("first write: %v", first)
	}
	recs, _, err := mem.ListPage(context.Background(), "", 10)
	if err != nil || len(recs) != 1 || recs[0].State != durable.StateCompleted || !strings.Contains(recs[0].Key, "k-host") {
		t.Fatalf("host backend after the write: %+v, %v", recs, err)
	}

	h2 := newHost(t, Options{Durable: mem})
	before := callTool(t, h2, read)
	second := callTool(t, h2, write)
	// The record from h1 is found in the host's backend; its effect lives in h1's workspace
	// instance and h2's styles.css is still the seed's, so the replay is the typed
	// TOOL_IDEMPOTENCY_NOT_APPLIED (issue 14), not h1's success — and the handler does not run.
	var ne struct {
		Code string `json:"code"`
	}
	if string(second["isError"]) != "true" || json.Unmarshal(second["error"], &ne) != nil || ne.Code != "TOOL_IDEMPOTENCY_NOT_APPLIED" {
		t.Fatalf("second host: %s (first %s)", second["error"], first["structuredContent"])
	}
	if after := callTool(t, h2, read); string(after["structuredContent"]) != string(before["structuredContent"]) {
		t.Fatalf("the handler ran on the second host: %s", after["structuredContent"])
	}

	h3 := newHost(t, Options{Durable: &faultBackend{Backend: memstore.New(), failCAS: true}})
	before = callTool(t, h3, read)
	res := callTool(t, h3, write)
	var e struct {
		Code      string `json:"code"`
		Retryable bool   `json:"retryable"`
	}
	if string(res["isError"]) != "true" || json.Unmarshal(res["error"], &e) != nil || e.Code != "TOOL_IDEMPOTENCY_STORE_FAILED" || !e.Retryable {
		t.Fatalf("write over a failing backend: %v", res)
	}
	if after := callTool(t, h3, read); string(after["structuredContent"]) != string(before["structuredContent"]) {
		t.Fatalf("the handler ran although the claim failed: %s", after["structuredContent"])
	}
}
