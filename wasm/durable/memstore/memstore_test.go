package memstore_test

import (
	"testing"

	"github.com/webcoding/studio/wasm/durable"
	"github.com/webcoding/studio/wasm/durable/durabletest"
	"github.com/webcoding/studio/wasm/durable/memstore"
)

func TestContract(t *testing.T) {
	durabletest.Run(t, func(t *testing.T) durable.Backend { return memstore.New() })
}
