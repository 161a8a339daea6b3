package planner

import (
	"strings"
	"testing"
)

func BenchmarkBuildPlan(b *testing.B) {
	prompts := map[string]string{
		"emerald": "Make it emerald",
		"patch":   `Change index.html from "text that is not in this file" to "new text"`,
		"korean":  "index.html 이름 변경해서 home.html로 해줘",
		"4000":    strings.Repeat(`Replace "a" with "b" in src/app.js and make it green. `, 4000/55),
	}
	for name, p := range prompts {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(p)))
			for b.Loop() {
				BuildPlan(p, false, "index.html")
			}
		})
	}
}
