package durable_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/memstore"
)

// A side effect runs once per key; the second Run replays the stored result without executing.
func ExampleRunner_Run() {
	store, _ := durable.New(memstore.New(), durable.Options{})
	runner, _ := durable.NewRunner(store, "studio:example")
	sendEmail := func(context.Context) (durable.Outcome, error) {
		fmt.Println("sending")
		return durable.Completed(json.RawMessage(`{"messageId":"m-1"}`)), nil
	}
	req := durable.RunRequest{Key: "welcome-email/user-42", Fingerprint: "template=welcome", Execute: sendEmail}
	for i := 0; i < 2; i++ {
		res, err := runner.Run(context.Background(), req)
		if err != nil {
			panic(err)
		}
		fmt.Println(res.Status, string(res.Result))
	}
	// Output:
	// sending
	// completed {"messageId":"m-1"}
	// replayed {"messageId":"m-1"}
}
