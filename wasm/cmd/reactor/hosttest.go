//go:build wasip1 && hosttest

package main

import (
	"os"
	"strings"
	"time"

	"github.com/webcoding/studio/wasm/adapters/hostcall"
)

// Test-only behaviour of the entry, compiled in only with the "hosttest" build tag (SPEC §2.17:
// shipped builds never contain it). host/wasmhost's tests use it to exercise paths the core
// cannot reach on purpose. Requests start with "#hosttest:", which is not JSON, so they can never
// collide with a real request:
//
//	#hosttest:echo<bytes>     answers <bytes> unchanged (byte-exact round trip)
//	#hosttest:log:<msg>       logs <msg> through webcoding.log at level 4, answers "logged"
//	#hosttest:spin            loops forever without calling anything (CPU-bound hang)
//	#hosttest:sleep           sleeps for an hour (blocked in poll_oneoff)
//	#hosttest:panic           panics on the handle goroutine
//	#hosttest:exit            exits the module with status 3
//	#hosttest:time            answers the guest wall clock (RFC 3339, nanoseconds)
func init() {
	intercept = func(req []byte) ([]byte, bool) {
		s, ok := strings.CutPrefix(string(req), "#hosttest:")
		if !ok {
			return nil, false
		}
		switch {
		case strings.HasPrefix(s, "echo"):
			return req[len("#hosttest:echo"):], true
		case strings.HasPrefix(s, "log:"):
			hostcall.Log(4, s[len("log:"):])
			return []byte("logged"), true
		case s == "spin":
			for n := 0; ; n++ {
				if n < 0 {
					break
				}
			}
			return []byte("unreachable"), true
		case s == "sleep":
			time.Sleep(time.Hour)
			return []byte("slept"), true
		case s == "panic":
			panic("hosttest panic")
		case s == "exit":
			os.Exit(3)
		case s == "time":
			return []byte(time.Now().Format(time.RFC3339Nano)), true
		}
		return nil, false
	}
}
