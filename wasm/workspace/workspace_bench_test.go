package workspace

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// benchWorkspace is a 200-file upload (each text file 4 KiB).
func benchWorkspace(b *testing.B) (*Manager, int) {
	b.Helper()
	var list []ImportEntry
	total := 0
	for i := 0; i < 200; i++ {
		p := fmt.Sprintf("src/file%03d.js", i)
		if i == 0 {
			p = "index.html"
		}
		data := []byte(strings.Repeat(fmt.Sprintf("// line %03d\n", i), 4096/12))
		total += len(data)
		list = append(list, ImportEntry{Path: p, Size: int64(len(data)), Read: func(context.Context) ([]byte, error) { return data, nil }})
	}
	m := New(Options{})
	if _, err := m.ImportUpload(context.Background(), Call{}, "bench", slices.Values(list)); err != nil {
		b.Fatal(err)
	}
	return m, total
}

// BenchmarkCheckpoints makes 100 checkpoints of edits to one file of a 200-file workspace and
// reports the bytes allocated per checkpoint (B/checkpoint) beside the bytes a full copy of
// the workspace would cost (copy-B), and their ratio. The edited source itself is prepared
// before measuring.
func BenchmarkCheckpoints(b *testing.B) {
	ctx := context.Background()
	sources := make([]string, 100)
	for i := range sources {
		sources[i] = fmt.Sprintf("edit %d\n", i) + strings.Repeat("x", 4000)
	}
	var perCheckpoint float64
	var total int
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		m, t := benchWorkspace(b)
		total = t
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		b.StartTimer()
		for i := 0; i < 100; i++ {
			if _, err := m.WriteFile(ctx, Call{Tool: "workspace.writeFile", CallID: "c"}, "src/file007.js", sources[i]); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		runtime.ReadMemStats(&after)
		perCheckpoint = float64(after.TotalAlloc-before.TotalAlloc) / 100
		if len(m.History()) != 100 {
			b.Fatalf("history %d", len(m.History()))
		}
		b.StartTimer()
	}
	b.ReportMetric(perCheckpoint, "B/checkpoint")
	b.ReportMetric(float64(total), "copy-B")
	b.ReportMetric(float64(total)/perCheckpoint, "copy/checkpoint")
}

// BenchmarkImport12MiB imports a 12 MiB workspace (2 × 4 MiB assets + 8 × 512 KiB text) and
// reports the live heap the imported workspace holds (heap-MiB) and the bytes allocated.
func BenchmarkImport12MiB(b *testing.B) {
	ctx := context.Background()
	var list []ImportEntry
	add := func(p string, n int) {
		// Like a real adapter, every read returns fresh bytes.
		list = append(list, ImportEntry{Path: p, Size: int64(n), Read: func(context.Context) ([]byte, error) {
			return []byte(strings.Repeat("a", n)), nil
		}})
	}
	add("img/a.png", MaxImportAssetBytes)
	add("img/b.webp", MaxImportAssetBytes)
	for i := 0; i < 8; i++ {
		add(fmt.Sprintf("t%d.txt", i), 512<<10)
	}
	add("index.html", 1) // over the total: skipped
	var heap float64
	b.ReportAllocs()
	for b.Loop() {
		m := New(Options{})
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r, err := m.ImportUpload(ctx, Call{}, "big", slices.Values(list))
		if err != nil || r.FileCount != 10 || len(r.Skipped) != 1 {
			b.Fatalf("%+v %v", r, err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20)
		runtime.KeepAlive(m)
	}
	b.ReportMetric(heap, "heap-MiB")
}
