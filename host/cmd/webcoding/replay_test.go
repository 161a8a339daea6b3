package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

// Issue 14 item 4: a replayed idempotency key never reports success for an edit that is not
// where the caller looks. Every test runs real `webcoding call` processes over a real Redis or
// PostgreSQL.

// durableURLs returns the two real servers' URLs (a fresh PostgreSQL schema).
func durableURLs(t *testing.T) map[string]string {
	return map[string]string{
		"redis":    serverURL(t, "WEBCODING_REDIS_URL"),
		"postgres": pgSchemaURL(t, serverURL(t, "WEBCODING_POSTGRES_URL"), "", true),
	}
}

func readFileLine(path string) string {
	return `{"name":"workspace.readFile","arguments":{"path":"` + path + `"}}`
}

// The exact scenario: process 1 runs writeFile with key k1 over r1 and exits without
// saving; process 2 on the same folder sends the same line plus saveAll. The replay must not
// be a success (the edit is not in process 2's workspace): it is TOOL_IDEMPOTENCY_NOT_APPLIED
// pointing to reconciliation, and styles.css on disk is unchanged — no line said otherwise.
// With --autosave in process 1 the effect is on disk, and process 2's replay is a success
// that says it was verified in another instance. The same key with other arguments still
// conflicts.
func TestReplayAcrossProcessesChecksTheEffect(t *testing.T) {
	for name, u := range durableURLs(t) {
		t.Run(name, func(t *testing.T) {
			dir := seedCopy(t)
			before := tree(t, dir)["styles.css"]
			line := idempotentWriteLine("k1-"+randomHex(6), "styles.css", newCSS, "")

			p1 := startProc(t, nil, "call", "--dir", dir, "--durable", u)
			if r := p1.roundTrip(t, line); r.IsError {
				t.Fatalf("process 1: %+v", r.Error)
			}
			if _, code := p1.finish(t); code != 0 {
				t.Fatalf("process 1 exit %d: %s", code, p1.stderr.String())
			}

			p2 := startProc(t, nil, "call", "--dir", dir, "--durable", u)
			r := p2.roundTrip(t, line)
			s := p2.roundTrip(t, saveAllLine)
			p2.finish(t)
			if got := tree(t, dir)["styles.css"]; got != before {
				t.Fatalf("styles.css changed on disk without a write: %q", got)
			}
			if !r.IsError || errCode(r) != mcp.CodeToolIdempotencyNotApplied {
				t.Fatalf("process 2 replayed a success for an edit that is not in its workspace: %s", mustJSON(r))
			}
			det, _ := r.Error.Details.(map[string]any)
			if det["reconcile"] == nil || det["operationKey"] == nil || !strings.Contains(fmt.Sprint(det["paths"]), "styles.css") {
				t.Fatalf("not-applied details do not point to reconciliation: %s", mustJSON(r))
			}
			if s.IsError {
				t.Fatalf("saveAll: %s", mustJSON(s))
			}
			// A later call with the key still never assumes success.
			p3 := startProc(t, nil, "call", "--dir", dir, "--durable", u)
			if r := p3.roundTrip(t, line); errCode(r) != mcp.CodeToolIdempotencyNotApplied {
				t.Fatalf("third process: %s", mustJSON(r))
			}
			p3.finish(t)

			// Effect present (saved by process 1 with --autosave): success, verified here.
			dir2 := seedCopy(t)
			key2 := "k2-" + randomHex(6)
			line2 := idempotentWriteLine(key2, "styles.css", newCSS, "")
			p4 := startProc(t, nil, "call", "--dir", dir2, "--autosave", "--durable", u)
			if r := p4.roundTrip(t, line2); r.IsError {
				t.Fatalf("process 4: %s", mustJSON(r))
			}
			p4.finish(t)
			p5 := startProc(t, nil, "call", "--dir", dir2, "--durable", u)
			r = p5.roundTrip(t, line2)
			p5.finish(t)
			if r.IsError || r.Replay == nil || r.Replay.Instance != mcp.ReplayOtherInstance || r.Replay.Superseded {
				t.Fatalf("replay of an effect present on disk: %s", mustJSON(r))
			}

			// Same key, other arguments: conflict, whatever the effect.
			other := idempotentWriteLine(key2, "styles.css", "/* other */\n", "")
			p6 := startProc(t, nil, "call", "--dir", dir2, "--durable", u)
			r = p6.roundTrip(t, other)
			p6.finish(t)
			if errCode(r) != mcp.CodeToolIdempotencyConflict {
				t.Fatalf("same key, other arguments: %s", mustJSON(r))
			}
		})
	}
}

// Same instance: a replay after the path changed is still a success (never a reason to run
// again) and says superseded.
func TestReplaySameInstanceSuperseded(t *testing.T) {
	u := serverURL(t, "WEBCODING_REDIS_URL")
	dir := seedCopy(t)
	line := idempotentWriteLine("k-sup-"+randomHex(6), "styles.css", newCSS, "")
	p := startProc(t, nil, "call", "--dir", dir, "--durable", u)
	if r := p.roundTrip(t, line); r.IsError {
		t.Fatal(mustJSON(r))
	}
	if r := p.roundTrip(t, `{"name":"workspace.writeFile","arguments":{"path":"styles.css","source":"/* later */\n"}}`); r.IsError {
		t.Fatal(mustJSON(r))
	}
	r := p.roundTrip(t, line)
	read := p.roundTrip(t, readFileLine("styles.css"))
	p.finish(t)
	if r.IsError || r.Replay == nil || r.Replay.Instance != mcp.ReplaySameInstance || !r.Replay.Superseded {
		t.Fatalf("replay after a later edit: %s", mustJSON(r))
	}
	if !strings.Contains(string(read.StructuredContent), "later") {
		t.Fatalf("the replay ran the write again: %s", read.StructuredContent)
	}
}

// Kill the durable server and the process mid-batch (190 idempotent writes, then saveAll),
// then rerun the same input: no line of the rerun may report success for a file that stayed
// old on disk.
func TestKillServerMidBatchThenRerun(t *testing.T) {
	for name, u := range durableURLs(t) {
		t.Run(name, func(t *testing.T) {
			dir := seedCopy(t)
			const n = 190 // with the 4 seed files, under the 200-file import limit
			run := randomHex(6)
			var input []string
			for i := 0; i < n; i++ {
				input = append(input, idempotentWriteLine(fmt.Sprintf("batch-%s-%d", run, i), fmt.Sprintf("f%03d.js", i), fmt.Sprintf("// new %d\n", i), ""))
			}
			for i := 0; i < n; i++ { // the files exist with old content
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.js", i)), []byte("// old\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			proxy := newTCPProxy(t, hostOf(t, u), false)
			p := startProc(t, nil, "call", "--dir", dir, "--durable", withHost(t, u, proxy.addr()))
			for i := 0; i < n/2; i++ {
				if r := p.roundTrip(t, input[i]); r.IsError {
					t.Fatalf("line %d: %s", i, mustJSON(r))
				}
			}
			proxy.cut() // the server dies...
			p.kill()    // ...and so does the process, before its saveAll

			p2 := startProc(t, nil, "call", "--dir", dir, "--durable", u)
			var rs []*mcp.CallToolResult
			for i := 0; i < n; i++ {
				rs = append(rs, p2.roundTrip(t, input[i]))
			}
			if s := p2.roundTrip(t, saveAllLine); s.IsError {
				t.Fatalf("saveAll: %s", mustJSON(s))
			}
			p2.finish(t)
			disk := tree(t, dir)
			ok := 0
			for i, r := range rs {
				path := fmt.Sprintf("f%03d.js", i)
				if !r.IsError {
					ok++
					if disk[path] != fmt.Sprintf("// new %d\n", i) {
						t.Fatalf("line %d reported success but %s stayed %q: %s", i, path, disk[path], mustJSON(r))
					}
				} else if errCode(r) != mcp.CodeToolIdempotencyNotApplied {
					t.Fatalf("line %d: %s", i, mustJSON(r))
				}
			}
			if ok != n/2 {
				t.Fatalf("%d lines succeeded, want the %d that ran in this process", ok, n/2)
			}
		})
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
