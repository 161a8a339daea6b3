package transfer

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/webcoding/studio/wasm/mcp"
)

// FuzzDecodeUploadParams: the workspace/upload params decoder never panics; what it accepts
// is 1..MaxUploadFiles entries that, written back canonically (text entries as base64),
// decode to the same paths and bytes.
func FuzzDecodeUploadParams(f *testing.F) {
	for _, seed := range []string{
		`{"files":[{"path":"a.png","base64":"iVBORw0KGgo="}]}`,
		`{"files":[{"path":"notes/ü.txt","text":"héllo"},{"path":"b.woff2","base64":""}]}`,
		`{"files":[{"path":"a.txt","text":"x","base64":"eA=="}]}`,
		`{"files":[{"path":"a.txt","path":"b","text":"x"}]}`,
		`{"files":[{"path":"a.png","base64":"eA=\n="}]}`,
		`{"files":[]}`, `{"files":{}}`, `{}`, `null`, `[]`, ``, `{"files":[1,"x",null]}`,
		`{"files":[{"path":"\u0000","text":"\ud800"}]}`, `{"files":[{"path":"a","text":"x"}],"x":1}`,
		`{"files":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		files, err := DecodeUploadParams(raw)
		if err != nil {
			if files != nil {
				t.Fatalf("an error with entries: %v", err)
			}
			return
		}
		if len(files) == 0 || len(files) > MaxUploadFiles {
			t.Fatalf("%d entries accepted", len(files))
		}
		type entry struct {
			Path   string `json:"path"`
			Base64 string `json:"base64"`
		}
		var canon struct {
			Files []entry `json:"files"`
		}
		for _, f := range files {
			canon.Files = append(canon.Files, entry{Path: f.Path, Base64: base64.StdEncoding.EncodeToString(f.Data)})
		}
		again, err := json.Marshal(canon)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeUploadParams(again)
		if err != nil {
			t.Fatalf("the canonical form %s is refused: %v", again, err)
		}
		for i := range files {
			if back[i].Path != files[i].Path || !bytes.Equal(back[i].Data, files[i].Data) {
				t.Fatalf("entry %d changed: %q → %q", i, files[i].Path, back[i].Path)
			}
		}
	})
}

// FuzzArrayElements: on any valid JSON array, arrayElements splits exactly as encoding/json.
func FuzzArrayElements(f *testing.F) {
	for _, seed := range []string{`[]`, ` [ ] `, `[1]`, `[1, "a,b", {"x":[1,2]}, [[]], "q\"]", null]`,
		`["\\", "\\\""]`, `[{"path":"a","text":"}]"}]`, "[\n1\t,\r2 ]"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if mcp.CheckJSON(raw) != nil || mcp.JSONKind(raw) != "array" {
			return
		}
		var want []json.RawMessage
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatalf("CheckJSON accepted what encoding/json refuses: %v", err)
		}
		got := arrayElements(raw, len(want)+1)
		if len(got) != len(want) {
			t.Fatalf("%d elements, want %d: %q", len(got), len(want), raw)
		}
		for i := range want {
			if !bytes.Equal(got[i], bytes.TrimSpace(want[i])) {
				t.Fatalf("element %d = %q, want %q", i, got[i], want[i])
			}
		}
		if len(want) > 1 && len(arrayElements(raw, 1)) != 1 {
			t.Fatal("limit not applied")
		}
	})
}
