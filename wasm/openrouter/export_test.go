package openrouter

import "time"

// IdleTimer is the streamed attempt's timer, for the tests.
type IdleTimer = idleTimer

// SetAfterFunc replaces the constructor of the streamed attempt's idle timer and returns the
// function that restores it (tests only; not parallel-safe).
func SetAfterFunc(f func(d time.Duration, fire func()) IdleTimer) (restore func()) {
	old := afterFunc
	afterFunc = f
	return func() { afterFunc = old }
}
