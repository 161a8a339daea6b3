package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

// FuzzPrepareParams checks the CLI's rewriting of a stdin line: either a canonical error, or
// params that the core's parser accepts, with name and arguments untouched and the CLI's
// context (source local, the flag's mode, the call id) in _meta.
func FuzzPrepareParams(f *testing.F) {
	for _, s := range []string{
		`{"name":"a"}`, `{"name":"a","arguments":{"path":"<b>&"}}`, `{"name":"a","_meta":{"toolCallId":"x","k":[1,{"z":null}]}}`,
		`{"name":"a","_meta":{"mode":"direct","source":"local"}}`, `{"name":"a","_meta":{"Mode":"direct"}}`,
		`{"name":"a","name":"b"}`, "{\"name\":\"\xff\"}", `[]`, ``, `{"name":"a","_meta":null}`,
		`{"name":"a","_meta":{"toolCallId":""}}`, `{"name":"\u2028","arguments":{"s":"\ud800"}}`,
	} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, line []byte, agent bool) {
		mode := mcp.ModeDirect
		if agent {
			mode = mcp.ModeAgent
		}
		params, id, terr := prepareParams(line, mode, "")
		if id == "" {
			t.Fatalf("no toolCallId for %q", line)
		}
		if terr != nil {
			if mcp.ToolErrorOf(terr).Code != mcp.CodeToolValidationFailed || mcp.ToolErrorOf(terr).Message == "" {
				t.Fatalf("line %q: error %+v", line, terr)
			}
			if err := mcp.ValidateCallToolResult(mcp.ErrorResult(id, mcp.ToolErrorOf(terr))); err != nil {
				t.Fatalf("line %q: error result not canonical: %v", line, err)
			}
			return
		}
		orig, oerr := mcp.ParseCallToolParams(line)
		got, gerr := mcp.ParseCallToolParams(params)
		if oerr != nil || gerr != nil {
			t.Fatalf("line %q -> params %q: parse errors %v / %v", line, params, oerr, gerr)
		}
		if got.Name != orig.Name || !bytes.Equal(got.Arguments, orig.Arguments) {
			t.Fatalf("line %q -> params %q changed name or arguments", line, params)
		}
		if got.Meta == nil || got.Meta.Source != mcp.SourceLocal || got.Meta.Mode != mode || got.Meta.ToolCallID != id {
			t.Fatalf("line %q -> params %q: meta %+v, id %q", line, params, got.Meta, id)
		}
		if orig.Meta != nil && orig.Meta.ToolCallID != "" && orig.Meta.ToolCallID != id {
			t.Fatalf("line %q: its toolCallId was replaced by %q", line, id)
		}
		if !json.Valid(params) {
			t.Fatalf("params not JSON: %q", params)
		}
	})
}

// FuzzDurableNoCredentials checks that a --durable URL's password never reaches a message:
// neither redactDurable nor the usage error durableBackend returns shows it.
func FuzzDurableNoCredentials(f *testing.F) {
	f.Add("redis", "alice", "s3cretpass", "cache.example:6379", "/0")
	f.Add("postgres", "bob", "hunter2hunter2", "db.example", "/x?sslmode=disable")
	f.Add("http", "", "passwordpassword", "", "")
	f.Add("x", "u", "pa:ss:word", "h:1", "#frag")
	f.Fuzz(func(t *testing.T, scheme, user, pass, host, rest string) {
		if len(pass) < 8 || strings.ContainsAny(pass, "@/?#") {
			return
		}
		v := scheme + "://" + user + ":" + pass + "@" + host + rest
		// Skip a password that the rest of the value already spells (then showing it is no leak):
		// e.g. scheme "a0000000" and password "0000000:" make "a0000000://host" contain it.
		for _, other := range []string{scheme, user, host + rest, "(a value that is not a URL; not shown)", "://", scheme + "://" + host + rest} {
			if strings.Contains(strings.ToLower(other), strings.ToLower(pass)) { // url.Parse lowercases the scheme
				return
			}
		}
		if got := redactDurable(v); strings.Contains(got, pass) {
			t.Fatalf("redactDurable(%q) = %q shows the password", v, got)
		}
		if _, err := durableBackend("call", v); err != nil && strings.Contains(err.Error(), pass) {
			t.Fatalf("durableBackend(%q): %v shows the password", v, err)
		}
	})
}
