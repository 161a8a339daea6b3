package fidelity

import (
	"testing"

	"github.com/webcoding/studio/wasm/workspace"
)

func TestSmokeAck(t *testing.T) {
	addSite("smoke", map[string]string{"index.html": `<!doctype html><html><head><title>x</title></head><body><p id=p>hi</p><script>console.log("hello", 1)</script></body></html>`})
	tab := openParent(t)
	mount(t, tab, "smoke", 1, "n1", "")
	m := waitAck(t, tab, 1)
	t.Logf("%+v %+v", m, messages(t, tab))
}

func TestSmokeSeed(t *testing.T) {
	files := map[string]string{}
	for _, f := range workspace.Seed().Files {
		files[f.Path] = f.Source
	}
	addSite("seed", files)
	tab := openParent(t)
	mount(t, tab, "seed", 1, "n1", "")
	m := waitAck(t, tab, 1)
	t.Logf("%+v %+v", m, messages(t, tab))
}

func TestSmokeTwoMounts(t *testing.T) {
	files := map[string]string{}
	for _, f := range workspace.Seed().Files {
		files[f.Path] = f.Source
	}
	addSite("seed", files)
	tab := openParent(t)
	mount(t, tab, "seed", 1, "n1", "")
	waitAck(t, tab, 1)
	mount(t, tab, "seed", 2, "n2", "")
	m := waitAck(t, tab, 2)
	t.Logf("%+v %+v", m, messages(t, tab))
}
