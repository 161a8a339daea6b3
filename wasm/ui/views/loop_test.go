package views

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestRenderLoopRecoversPerIteration: a render that panics is reported and the next change
// renders again (one panic used to stop the loop and freeze the UI).
func TestRenderLoopRecoversPerIteration(t *testing.T) {
	dirty := make(chan struct{}, 1)
	started := make(chan int, 3)
	done := make(chan struct{})
	var rendered []int
	var panics []string
	go func() {
		n := 0
		RenderLoop(dirty, func() {
			n++
			started <- n
			if n == 2 {
				var m map[string]int
				m["boom"] = 1 // a nil-map write: a runtime panic, as a real render bug would be
			}
			rendered = append(rendered, n)
		}, func(v any, stack []byte) {
			panics = append(panics, fmt.Sprint(v)+"|"+string(stack))
		}, 0)
		close(done)
	}()
	for i := 1; i <= 3; i++ {
		dirty <- struct{}{}
		select {
		case got := <-started:
			if got != i {
				t.Fatalf("render %d started as %d", i, got)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("render %d never started: the loop stopped", i)
		}
	}
	close(dirty)
	<-done
	if fmt.Sprint(rendered) != "[1 3]" {
		t.Fatalf("renders completed %v, want [1 3]", rendered)
	}
	if len(panics) != 1 || !strings.Contains(panics[0], "nil map") || !strings.Contains(panics[0], "loop_test.go") {
		t.Fatalf("panics reported: %q", panics)
	}
}
