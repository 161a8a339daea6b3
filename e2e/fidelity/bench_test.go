package fidelity

import "testing"

// BenchmarkPreviewFlood measures a flood of 10^5 window messages and 10^5 console calls from
// the preview (issue 13 item 9): longest-task-ms is the longest task of the parent (studio)
// page while it lasts (PerformanceObserver "longtask"; the target is < 100), ack-delay-ms the
// time from the frame's load to the ready's arrival in the parent. Both are wall-clock: on an
// overloaded machine they measure the scheduler as much as the studio.
func BenchmarkPreviewFlood(b *testing.B) {
	tab := openParent(b)
	var worst, delays float64
	for i := 0; i < b.N; i++ {
		ack, delay := flood(b, tab, 100+i)
		if ack.Type != "webcoding.preview.ready" {
			b.Fatalf("ack %+v", ack)
		}
		delays += delay
		if l := longest(b, tab); l > worst {
			worst = l
		}
	}
	b.ReportMetric(worst, "longest-task-ms")
	b.ReportMetric(delays/float64(b.N), "ack-delay-ms")
}
