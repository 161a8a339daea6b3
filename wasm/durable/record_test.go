package durable_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/webcoding/studio/wasm/durable"
)

// Found by FuzzDecodeRecord (testdata/fuzz/FuzzDecodeRecord/9f38d7815a332b2f): an unknown
// member with an empty name produced a ValidationError with an empty Field.
func TestDecodeRecordEmptyMemberName(t *testing.T) {
	_, err := durable.DecodeRecord([]byte(`{"":"0"}`))
	var ve *durable.ValidationError
	if !errors.As(err, &ve) || ve.Field != `""` {
		t.Fatalf("DecodeRecord = %v, want a ValidationError on field %q", err, `""`)
	}
}

func TestDecodeRecordLongMemberNameIsBounded(t *testing.T) {
	_, err := durable.DecodeRecord([]byte(`{"` + strings.Repeat("x", 10000) + `":1}`))
	var ve *durable.ValidationError
	if !errors.As(err, &ve) || len(ve.Field) > 200 || !strings.HasPrefix(ve.Field, "xxx") {
		t.Fatalf("DecodeRecord = %v", err)
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	r := durable.Record{
		Key: "k", Fingerprint: "fp", OwnerID: "o", Incarnation: "i", Revision: 4, State: durable.StateCompleted,
		Result: []byte(`{"a":"é\u0000"}`), CreatedAt: 10, UpdatedAt: 20, ReconciledBy: "r", ReconciledAt: 20,
	}
	raw, err := durable.EncodeRecord(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"key":"k","fingerprint":"fp","ownerId":"o","incarnation":"i","revision":4,"state":"completed","result":{"a":"é\u0000"},"createdAt":10,"updatedAt":20,"reconciledBy":"r","reconciledAt":20}`
	if string(raw) != want {
		t.Fatalf("encoded\n%s\nwant\n%s", raw, want)
	}
	back, err := durable.DecodeRecord(raw)
	if err != nil || string(back.Result) != string(r.Result) || back.ReconciledAt != 20 {
		t.Fatalf("decoded %+v, %v", back, err)
	}
	// Optional members present but empty are refused rather than normalised.
	for field, raw := range map[string]string{
		"reason":         `{"key":"k","fingerprint":"fp","ownerId":"o","incarnation":"i","revision":1,"state":"pending","createdAt":1,"updatedAt":1,"reason":""}`,
		"leaseExpiresAt": `{"key":"k","fingerprint":"fp","ownerId":"o","incarnation":"i","revision":1,"state":"pending","createdAt":1,"updatedAt":1,"leaseExpiresAt":0}`,
		"updatedAt":      `{"key":"k","fingerprint":"fp","ownerId":"o","incarnation":"i","revision":1,"state":"pending","createdAt":5,"updatedAt":1}`,
		"reconciledAt":   `{"key":"k","fingerprint":"fp","ownerId":"o","incarnation":"i","revision":1,"state":"completed","createdAt":1,"updatedAt":1,"reconciledBy":"x"}`,
	} {
		_, err := durable.DecodeRecord([]byte(raw))
		var ve *durable.ValidationError
		if !errors.As(err, &ve) || ve.Field != field {
			t.Errorf("%s: DecodeRecord = %v", field, err)
		}
	}
}

// DecodePage decodes a page in order, names the last key as the cursor only when more
// records follow, and gives nothing but the error of a record that does not decode.
func TestDecodePage(t *testing.T) {
	var raws [][]byte
	for _, k := range []string{"a", "b"} {
		raw, err := durable.EncodeRecord(durable.Record{Key: k, Fingerprint: "fp", OwnerID: "o", Incarnation: "i",
			Revision: 1, State: durable.StateCompleted, Result: []byte(`{}`), CreatedAt: 1, UpdatedAt: 1})
		if err != nil {
			t.Fatal(err)
		}
		raws = append(raws, raw)
	}
	for _, more := range []bool{false, true} {
		recs, next, err := durable.DecodePage(raws, more, durable.DecodeRecord)
		if err != nil || len(recs) != 2 || recs[0].Key != "a" || recs[1].Key != "b" || next != map[bool]string{false: "", true: "b"}[more] {
			t.Fatalf("more=%v: %d records, next %q, %v", more, len(recs), next, err)
		}
	}
	if _, next, _ := durable.DecodePage(nil, true, durable.DecodeRecord); next != "" {
		t.Fatalf("an empty page has next %q", next)
	}
	recs, next, err := durable.DecodePage(append(raws, []byte(`{}`)), true, durable.DecodeRecord)
	var ve *durable.ValidationError
	if !errors.As(err, &ve) || recs != nil || next != "" {
		t.Fatalf("bad record: %v %q %v", recs, next, err)
	}
}
