package mcp

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

func TestAppendCallToolResultMatchesEncodingJSON(t *testing.T) {
	results := []*CallToolResult{
		{Content: []Content{TextContent(`{"a":"<b>&\u2028\n\"x\"\u0001"}`)}, StructuredContent: []byte(`{"a":"<b>"}`), ToolCallID: "c-1"},
		ErrorResult("c-2", NewError(CodeWorkspaceFileNotFound, false, map[string]any{"path": "a&b"}, "File %q was not found.", "a&b")),
		{Content: []Content{TextContent("x"), {Type: "image", Data: "AA==", MimeType: "image/png"}}, ToolCallID: "c-3"},
		{Content: []Content{TextContent("bad \xff utf8")}, ToolCallID: "c-4"},
	}
	for _, r := range results {
		got, err := AppendCallToolResult(nil, r)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(r)
		// structuredContent is appended as produced (encoding/json would re-escape <, >, &
		// inside it): compare decoded values, and bytes once both sides are compacted alike.
		var g, w any
		if json.Unmarshal(got, &g) != nil || json.Unmarshal(want, &w) != nil || !reflect.DeepEqual(g, w) {
			t.Errorf("got  %s\nwant %s", got, want)
		}
		if len(r.StructuredContent) == 0 && !bytes.Equal(got, want) {
			t.Errorf("bytes differ:\ngot  %s\nwant %s", got, want)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a\"b\\c", "<&>", "\u2028\u2029", "\xff\xfe", "tab\there\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := AppendString(nil, s)
		want, _ := json.Marshal(s)
		if !bytes.Equal(got, want) {
			t.Fatalf("%q: got %s want %s", s, got, want)
		}
	})
}
