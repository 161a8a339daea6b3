package durable_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/mcp"
)

func TestClaimError(t *testing.T) {
	rec := durable.Record{Key: "op", OwnerID: "other", State: durable.StatePending, LeaseExpiresAt: 99, Reason: ""}
	cases := []struct {
		c         durable.Claim
		code      mcp.Code
		retryable bool
		details   string
	}{
		{durable.Claim{Outcome: durable.ClaimConflict, Record: rec}, mcp.CodeToolIdempotencyConflict, false, `{"operationKey":"op"}`},
		{durable.Claim{Outcome: durable.ClaimPending, Record: rec}, mcp.CodeToolIdempotencyPending, true, `{"state":"pending","ownerId":"other","leaseExpiresAt":99}`},
		{durable.Claim{Outcome: durable.ClaimUnknown, Record: durable.Record{Key: "op", State: durable.StateUnknown, Reason: "ack lost"}}, mcp.CodeToolIdempotencyUnknown, false, `{"state":"unknown","reason":"ack lost"}`},
	}
	for _, c := range cases {
		te := durable.ClaimError(c.c)
		if te == nil || mcp.ToolErrorOf(te).Code != c.code || mcp.ToolErrorOf(te).Retryable != c.retryable {
			t.Fatalf("%s: %+v", c.c.Outcome, te)
		}
		d, _ := json.Marshal(mcp.ToolErrorOf(te).Details)
		if string(d) != c.details {
			t.Fatalf("%s details %s, want %s", c.c.Outcome, d, c.details)
		}
	}
	for _, o := range []durable.ClaimOutcome{durable.ClaimOwner, durable.ClaimReplay} {
		if te := durable.ClaimError(durable.Claim{Outcome: o}); te != nil {
			t.Fatalf("%s mapped to %v", o, te)
		}
	}
}

func TestStoreError(t *testing.T) {
	backend := durable.BackendFailure("read", errors.New("dial tcp: refused"))
	for _, c := range []struct {
		err       error
		retryable bool
	}{
		{backend, true},
		{fmt.Errorf("%w: x", durable.ErrContention), true},
		{&durable.ValidationError{Field: "revision", Reason: "bad"}, false},
		{fmt.Errorf("%w: x", durable.ErrStaleFence), false},
	} {
		te := durable.StoreError("op", c.err)
		if mcp.ToolErrorOf(te).Code != mcp.CodeToolIdempotencyStoreFailed || mcp.ToolErrorOf(te).Retryable != c.retryable {
			t.Fatalf("%v → %+v", c.err, te)
		}
		if d, _ := json.Marshal(mcp.ToolErrorOf(te).Details); string(d) != `{"operationKey":"op"}` {
			t.Fatalf("details %s", d)
		}
	}
	if durable.StoreError("op", nil) != nil {
		t.Fatal("nil error mapped")
	}
}
