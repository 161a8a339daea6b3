package redisstore

import (
	"context"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/webcoding/studio/wasm/durable"
)

// DefaultPrefix is Options.Prefix's default.
const DefaultPrefix = "webcoding:durable"

// Options configure a Backend.
type Options struct {
	// Prefix namespaces the keys (see the package doc); default DefaultPrefix. It must not
	// contain '{' or '}', which would break the hash tag.
	Prefix string
}

// Backend is a durable.Backend over one Redis server (or one cluster slot). Safe for concurrent
// use; it holds no state besides the client and the scripts.
type Backend struct {
	c   redis.Cmdable
	rec string // "{P}:r:"
	idx string // "{P}:idx"
}

var _ durable.Backend = (*Backend)(nil)

// New returns a Backend over c (a *redis.Client, *redis.ClusterClient or *redis.Ring — anything
// that can run scripts).
//
// # Errors
//   - *durable.ValidationError (field "prefix"): the prefix contains '{' or '}'.
func New(c redis.Cmdable, opts Options) (*Backend, error) {
	p := opts.Prefix
	if p == "" {
		p = DefaultPrefix
	}
	for _, r := range p {
		if r == '{' || r == '}' {
			return nil, &durable.ValidationError{Field: "prefix", Reason: "must not contain '{' or '}'"}
		}
	}
	tag := "{" + p + "}"
	return &Backend{c: c, rec: tag + ":r:", idx: tag + ":idx"}, nil
}

// Open parses a redis:// or rediss:// URL (redis.ParseURL) and returns a Backend with its own
// client. Close the client with the returned function.
func Open(url string, opts Options) (*Backend, func() error, error) {
	o, err := redis.ParseURL(url)
	if err != nil {
		return nil, nil, &durable.ValidationError{Field: "url", Reason: err.Error()}
	}
	c := redis.NewClient(o)
	b, err := New(c, opts)
	if err != nil {
		_ = c.Close()
		return nil, nil, err
	}
	return b, c.Close, nil
}

// casScript: KEYS = {record hash, index}; ARGV = {expectPresent "0"|"1", expInc, expRev,
// write "0"|"1", nextInc, nextRev, nextJSON, member}. Returns 1 when it wrote, 0 otherwise.
var casScript = redis.NewScript(`
if ARGV[1] == '0' then
  if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
else
  local f = redis.call('HMGET', KEYS[1], 'inc', 'rev')
  if f[1] ~= ARGV[2] or f[2] ~= ARGV[3] then return 0 end
end
if ARGV[4] == '1' then
  redis.call('HSET', KEYS[1], 'inc', ARGV[5], 'rev', ARGV[6], 'rec', ARGV[7])
  redis.call('ZADD', KEYS[2], 0, ARGV[8])
else
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], ARGV[8])
end
return 1
`)

// listScript: KEYS = {index}; ARGV = {cursor ("" = start), limit, record-hash prefix}.
// Returns {more, key1, inc1, rev1, rec1, key2, …}; missing fields come back as nil.
var listScript = redis.NewScript(`
local min = '-'
if ARGV[1] ~= '' then min = '(' .. ARGV[1] end
local limit = tonumber(ARGV[2])
local keys = redis.call('ZRANGEBYLEX', KEYS[1], min, '+', 'LIMIT', 0, limit + 1)
local out = {0}
if #keys > limit then out[1] = 1 end
for i = 1, math.min(#keys, limit) do
  local f = redis.call('HMGET', ARGV[3] .. keys[i], 'inc', 'rev', 'rec')
  out[#out + 1] = keys[i]
  out[#out + 1] = f[1]
  out[#out + 1] = f[2]
  out[#out + 1] = f[3]
end
return out
`)

// decode checks the stored fence against the record and decodes it strictly.
func decode(key string, inc, rev, rec any) (durable.Record, bool, error) {
	if inc == nil && rev == nil && rec == nil {
		return durable.Record{}, false, nil
	}
	raw, ok := rec.(string)
	if !ok {
		return durable.Record{}, false, &durable.ValidationError{Key: key, Field: "record", Reason: "stored hash has no record"}
	}
	r, err := durable.DecodeRecord([]byte(raw))
	if err != nil {
		return durable.Record{}, false, err
	}
	if s, _ := inc.(string); s != r.Incarnation {
		return durable.Record{}, false, &durable.ValidationError{Key: key, Field: "incarnation", Reason: "does not match the stored fence"}
	}
	if s, _ := rev.(string); s != strconv.FormatInt(r.Revision, 10) {
		return durable.Record{}, false, &durable.ValidationError{Key: key, Field: "revision", Reason: "does not match the stored fence"}
	}
	return r, true, nil
}

// Read implements durable.Backend with one HMGET.
func (b *Backend) Read(ctx context.Context, key string) (durable.Record, bool, error) {
	vals, err := b.c.HMGet(ctx, b.rec+key, "inc", "rev", "rec").Result()
	if err != nil {
		return durable.Record{}, false, durable.BackendFailure("read", err)
	}
	if len(vals) != 3 {
		return durable.Record{}, false, durable.BackendFailure("read", fmt.Errorf("redis: HMGET returned %d values", len(vals)))
	}
	return decode(key, vals[0], vals[1], vals[2])
}

// CompareAndSet implements durable.Backend with one script run (EVALSHA, EVAL on NOSCRIPT).
func (b *Backend) CompareAndSet(ctx context.Context, key string, expected *durable.Fence, next *durable.Record) (bool, error) {
	args := make([]any, 8)
	args[0], args[1], args[2] = "0", "", ""
	if expected != nil {
		args[0], args[1], args[2] = "1", expected.Incarnation, strconv.FormatInt(expected.Revision, 10)
	}
	args[3], args[4], args[5], args[6] = "0", "", "", ""
	if next != nil {
		if next.Key != key {
			return false, &durable.ValidationError{Key: key, Field: "key", Reason: "next record has another key"}
		}
		raw, err := durable.EncodeRecord(*next)
		if err != nil {
			return false, err
		}
		args[3], args[4], args[5], args[6] = "1", next.Incarnation, strconv.FormatInt(next.Revision, 10), string(raw)
	}
	args[7] = key
	n, err := casScript.Run(ctx, b.c, []string{b.rec + key, b.idx}, args...).Int64()
	if err != nil {
		return false, durable.BackendFailure("compareAndSet", err)
	}
	return n == 1, nil
}

// ListPage implements durable.Backend with one script run: ZRANGEBYLEX over the index, then the
// records of that page, atomically. limit is clamped to 1..durable.MaxListLimit.
func (b *Backend) ListPage(ctx context.Context, cursor string, limit int) ([]durable.Record, string, error) {
	limit = min(max(limit, 1), durable.MaxListLimit)
	vals, err := listScript.Run(ctx, b.c, []string{b.idx}, cursor, limit, b.rec).Slice()
	if err != nil {
		return nil, "", durable.BackendFailure("listPage", err)
	}
	if len(vals) == 0 || (len(vals)-1)%4 != 0 {
		return nil, "", durable.BackendFailure("listPage", fmt.Errorf("redis: list script returned %d values", len(vals)))
	}
	more, _ := vals[0].(int64)
	entries := make([][]any, 0, (len(vals)-1)/4) // key, incarnation, revision, record
	for i := 1; i < len(vals); i += 4 {
		entries = append(entries, vals[i:i+4])
	}
	return durable.DecodePage(entries, more == 1, func(e []any) (durable.Record, error) {
		key, _ := e[0].(string)
		r, found, err := decode(key, e[1], e[2], e[3])
		switch {
		case err != nil:
			return r, err
		case !found:
			return r, &durable.ValidationError{Key: key, Field: "record", Reason: "indexed but not stored"}
		case r.Key != key:
			return r, &durable.ValidationError{Key: key, Field: "key", Reason: fmt.Sprintf("stored record names %q", r.Key)}
		}
		return r, nil
	})
}

// PutRaw stores raw bytes as the record under key without validation (and indexes the key),
// with the fence read loosely from the bytes (durable.LooseFence). It exists for the contract
// suite's tampering tests (durabletest.RawPutter) and for repair tooling; the durable store never
// calls it.
func (b *Backend) PutRaw(ctx context.Context, key string, raw []byte) error {
	f := durable.LooseFence(raw)
	_, err := b.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HSet(ctx, b.rec+key, "inc", f.Incarnation, "rev", strconv.FormatInt(f.Revision, 10), "rec", string(raw))
		p.ZAdd(ctx, b.idx, redis.Z{Score: 0, Member: key})
		return nil
	})
	if err != nil {
		return durable.BackendFailure("putRaw", err)
	}
	return nil
}
