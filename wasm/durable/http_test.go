package durable_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/memstore"
)

// provider is a payments API that enforces Idempotency-Key like real ones do: a POST without
// it is refused; a repeated key with the same body replays the stored response without a second
// charge; GET /charges?key=K reports what happened under a key.
type provider struct {
	mu       sync.Mutex
	charges  int
	requests int
	byKey    map[string]stored
	block    chan struct{} // when set, POST waits on it (an in-flight call)
}

type stored struct {
	body   string
	status int
	resp   string
}

func (p *provider) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.requests++
	block := p.block
	p.mu.Unlock()
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/charges":
		p.mu.Lock()
		s, ok := p.byKey[r.URL.Query().Get("key")]
		p.mu.Unlock()
		if !ok {
			http.Error(w, `{"error":"no such key"}`, http.StatusNotFound)
			return
		}
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, s.resp)
	case r.Method == http.MethodPost && r.URL.Path == "/charges":
		key := r.Header.Get("Idempotency-Key")
		if key == "" {
			http.Error(w, `{"error":"Idempotency-Key required"}`, http.StatusBadRequest)
			return
		}
		body, _ := io.ReadAll(r.Body)
		if block != nil {
			<-block
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		if s, ok := p.byKey[key]; ok {
			if s.body != string(body) {
				http.Error(w, `{"error":"key reused with another body"}`, http.StatusUnprocessableEntity)
				return
			}
			w.Header().Set("Idempotent-Replayed", "true")
			w.WriteHeader(s.status)
			_, _ = io.WriteString(w, s.resp)
			return
		}
		var in struct{ Amount int }
		if json.Unmarshal(body, &in) != nil || in.Amount <= 0 {
			p.byKey[key] = stored{body: string(body), status: http.StatusPaymentRequired, resp: `{"error":"declined"}`}
			w.WriteHeader(http.StatusPaymentRequired)
			_, _ = io.WriteString(w, `{"error":"declined"}`)
			return
		}
		p.charges++
		s := stored{body: string(body), status: http.StatusCreated, resp: fmt.Sprintf(`{"id":"ch_%d","amount":%d}`, p.charges, in.Amount)}
		p.byKey[key] = s
		w.WriteHeader(s.status)
		_, _ = io.WriteString(w, s.resp)
	default:
		http.NotFound(w, r)
	}
}

func (p *provider) counts() (charges, requests int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.charges, p.requests
}

// lossyTransport delivers the request but loses the response (a dropped connection after the
// provider acted) when drop is set.
type lossyTransport struct {
	base http.RoundTripper
	mu   sync.Mutex
	drop bool
}

func (l *lossyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := l.base.RoundTrip(r)
	l.mu.Lock()
	drop := l.drop
	l.drop = false
	l.mu.Unlock()
	if err == nil && drop {
		_ = resp.Body.Close()
		return nil, errors.New("read tcp: connection reset by peer")
	}
	return resp, err
}

// sender adapts an *http.Client to the bridge's Send: the test's (native) transport.
func sender(c *http.Client) func(context.Context, durable.HTTPRequest) (durable.HTTPResponse, error) {
	return func(ctx context.Context, r durable.HTTPRequest) (durable.HTTPResponse, error) {
		req, err := http.NewRequestWithContext(ctx, r.Method, r.URL, bytes.NewReader(r.Body))
		if err != nil {
			return durable.HTTPResponse{}, err
		}
		for k, v := range r.Header {
			req.Header[k] = v
		}
		resp, err := c.Do(req)
		if err != nil {
			return durable.HTTPResponse{}, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		if err != nil {
			return durable.HTTPResponse{}, err
		}
		return durable.HTTPResponse{StatusCode: resp.StatusCode, Header: resp.Header, Body: body}, nil
	}
}

func newRunner(t *testing.T, owner string) *durable.Runner {
	t.Helper()
	s, err := durable.New(memstore.New(), durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := durable.NewRunner(s, owner)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// classify is the application's explicit response classifier: the bridge never interprets
// status codes itself.
func classify(_ context.Context, resp durable.HTTPResponse) (durable.Outcome, error) {
	body := resp.Body
	switch resp.StatusCode {
	case http.StatusCreated:
		return durable.Completed(body), nil
	case http.StatusPaymentRequired:
		return durable.Failed("payment declined", body), nil
	}
	return durable.Unknown(fmt.Sprintf("provider answered %d", resp.StatusCode), nil), nil
}

func charge(srv *httptest.Server, client *http.Client, key string, amount int) durable.HTTPSideEffect {
	return durable.HTTPSideEffect{
		Key: key, Fingerprint: fmt.Sprintf("amount=%d", amount), Send: sender(client),
		Request: func(context.Context) (durable.HTTPRequest, error) {
			return durable.HTTPRequest{Method: http.MethodPost, URL: srv.URL + "/charges", Body: []byte(fmt.Sprintf(`{"amount":%d}`, amount))}, nil
		},
		OnResponse: classify,
	}
}

// TestHTTPFixture is the runnable HTTP fixture of REFERENCE §6.5.
func TestHTTPFixture(t *testing.T) {
	p := &provider{byKey: map[string]stored{}}
	srv := httptest.NewServer(p)
	defer srv.Close()
	lossy := &lossyTransport{base: srv.Client().Transport}
	client := &http.Client{Transport: lossy}
	ctx := context.Background()
	r := newRunner(t, "studio-a")

	// 1. First call charges once.
	res, err := durable.RunHTTP(ctx, r, charge(srv, client, "order-1", 500))
	if err != nil || res.Status != durable.StatusCompleted || string(res.Result) != `{"id":"ch_1","amount":500}` {
		t.Fatalf("first charge = %+v, %v", res, err)
	}
	// 2. Same key again: replayed from the durable record; the provider is not even called.
	_, before := p.counts()
	res, err = durable.RunHTTP(ctx, r, charge(srv, client, "order-1", 500))
	if charges, requests := p.counts(); err != nil || res.Status != durable.StatusReplayed || charges != 1 || requests != before {
		t.Fatalf("replay = %+v, %v; charges %d, requests %d→%d", res, err, charges, before, requests)
	}
	// 3. Another deployment with an empty store sends the same Idempotency-Key: the provider
	//    replays its stored response without a second mutation.
	other := newRunner(t, "studio-b")
	res, err = durable.RunHTTP(ctx, other, charge(srv, client, "order-1", 500))
	if charges, _ := p.counts(); err != nil || res.Status != durable.StatusCompleted || string(res.Result) != `{"id":"ch_1","amount":500}` || charges != 1 {
		t.Fatalf("provider-side replay = %+v, %v, charges %d", res, err, charges)
	}

	// 4. Lost acknowledgement: the provider charged, the response never arrived → unknown.
	lossy.mu.Lock()
	lossy.drop = true
	lossy.mu.Unlock()
	res, err = durable.RunHTTP(ctx, r, charge(srv, client, "order-2", 700))
	if charges, _ := p.counts(); err != nil || res.Status != durable.StatusUnknown || !strings.Contains(res.Reason, "connection reset") || charges != 2 {
		t.Fatalf("lost ack = %+v, %v, charges %d", res, err, charges)
	}
	//    It stays unknown: no second request goes out.
	_, before = p.counts()
	res, err = durable.RunHTTP(ctx, r, charge(srv, client, "order-2", 700))
	if _, requests := p.counts(); err != nil || res.Status != durable.StatusUnknown || requests != before {
		t.Fatalf("retry while unknown = %+v, %v, requests %d→%d", res, err, before, requests)
	}
	//    A status query reconciles it.
	rec, err := r.Recover(ctx, "order-2", func(ctx context.Context, rc durable.RecoverContext) (durable.Resolution, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/charges?key="+rc.Record.Key, nil)
		resp, err := client.Do(req)
		if err != nil {
			return durable.Resolution{}, err
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode == http.StatusNotFound {
			return durable.Resolution{State: durable.StateFailed, Reason: "provider never saw the request"}, nil
		}
		return durable.Resolution{State: durable.StateCompleted, Result: body}, nil
	}, durable.RecoverOptions{ReconcilerID: "status-query"})
	if err != nil || rec.Status != durable.StatusResolved || rec.Record.ReconciledBy != "status-query" {
		t.Fatalf("reconcile = %+v, %v", rec, err)
	}
	res, err = durable.RunHTTP(ctx, r, charge(srv, client, "order-2", 700))
	if charges, _ := p.counts(); err != nil || res.Status != durable.StatusReplayed || string(res.Result) != `{"id":"ch_2","amount":700}` || charges != 2 {
		t.Fatalf("after reconcile = %+v, %v, charges %d", res, err, charges)
	}

	// 5. The classifier decides: a 402 is failed because the application said so.
	res, err = durable.RunHTTP(ctx, r, charge(srv, client, "order-3", 0))
	if err != nil || res.Status != durable.StatusFailed || res.Reason != "payment declined" || string(res.Result) != `{"error":"declined"}` {
		t.Fatalf("declined = %+v, %v", res, err)
	}
	// 6. Same key, other arguments: conflict before any request.
	res, err = durable.RunHTTP(ctx, r, charge(srv, client, "order-1", 999))
	if err != nil || res.Status != durable.StatusConflict {
		t.Fatalf("conflict = %+v, %v", res, err)
	}
}

func TestHTTPHeaderAndNoStatusGuessing(t *testing.T) {
	var seen []string
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, strings.Join(r.Header.Values("Idempotency-Key"), ","))
		mu.Unlock()
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer srv.Close()
	r := newRunner(t, "o")
	req := durable.HTTPSideEffect{
		Key: "k1", Fingerprint: "f", IdempotencyKey: "idem-123", Send: sender(srv.Client()),
		Request: func(context.Context) (durable.HTTPRequest, error) {
			// A caller-set variant of the header is replaced, not duplicated.
			return durable.HTTPRequest{Method: http.MethodPost, URL: srv.URL, Header: map[string][]string{"idempotency-key": {"stale"}, "X-Trace": {"1"}}}, nil
		},
		// A 500 is whatever the application says it is; here the provider documents that 500
		// means "processed, response generation failed".
		OnResponse: func(_ context.Context, resp durable.HTTPResponse) (durable.Outcome, error) {
			return durable.Completed(json.RawMessage(fmt.Sprint(resp.StatusCode))), nil
		},
	}
	res, err := durable.RunHTTP(context.Background(), r, req)
	if err != nil || res.Status != durable.StatusCompleted || string(res.Result) != "500" {
		t.Fatalf("RunHTTP = %+v, %v", res, err)
	}
	if len(seen) != 1 || seen[0] != "idem-123" {
		t.Fatalf("provider saw Idempotency-Key %q", seen)
	}
	// Default header value is the durable key.
	req.Key, req.IdempotencyKey = "k2", ""
	if _, err := durable.RunHTTP(context.Background(), r, req); err != nil || len(seen) != 2 || seen[1] != "k2" {
		t.Fatalf("default key: %v, %q", err, seen)
	}
	// A request that cannot be built is failed (nothing was sent).
	req.Key = "k3"
	req.Request = func(context.Context) (durable.HTTPRequest, error) {
		return durable.HTTPRequest{}, errors.New("bad url")
	}
	res, err = durable.RunHTTP(context.Background(), r, req)
	if err != nil || res.Status != durable.StatusFailed || len(seen) != 2 {
		t.Fatalf("build failure = %+v, %v", res, err)
	}
	// Invalid requests are refused before any claim.
	bad := req
	bad.Key, bad.IdempotencyKey = "k4", "a\r\nInjected: 1"
	if _, err := durable.RunHTTP(context.Background(), r, bad); !errors.Is(err, durable.ErrInvalid) {
		t.Fatalf("header injection = %v", err)
	}
	bad.IdempotencyKey, bad.OnResponse = "", nil
	if _, err := durable.RunHTTP(context.Background(), r, bad); !errors.Is(err, durable.ErrInvalid) {
		t.Fatalf("nil OnResponse = %v", err)
	}
	bad.OnResponse, bad.Send = req.OnResponse, nil
	if _, err := durable.RunHTTP(context.Background(), r, bad); !errors.Is(err, durable.ErrInvalid) {
		t.Fatalf("nil Send = %v", err)
	}
	if _, found, _ := r.Store().Get(context.Background(), "k4"); found {
		t.Fatal("invalid request claimed its key")
	}
}

func TestHTTPCancelledInFlight(t *testing.T) {
	p := &provider{byKey: map[string]stored{}, block: make(chan struct{})}
	srv := httptest.NewServer(p)
	defer srv.Close()
	defer close(p.block)
	r := newRunner(t, "o")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req := charge(srv, srv.Client(), "order-x", 100)
	req.AbortDiagnostic = json.RawMessage(`{"code":"TOOL_TIMEOUT"}`)
	res, err := durable.RunHTTP(ctx, r, req)
	if err != nil || res.Status != durable.StatusUnknown || res.Reason != durable.ReasonCancelledInFlight || string(res.Diagnostic) != `{"code":"TOOL_TIMEOUT"}` {
		t.Fatalf("in-flight cancel = %+v, %v", res, err)
	}
}
