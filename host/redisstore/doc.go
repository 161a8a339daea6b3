// Package redisstore is the Redis implementation of durable.Backend (REFERENCE §6.2, SPEC §2.5),
// on github.com/redis/go-redis/v9.
//
// # Layout
//
// With prefix P (Options.Prefix, default "webcoding:durable"), every key lives in one hash slot
// through the hash tag {P}:
//   - {P}:r:<operation key> — a hash {inc, rev, rec}: the fence as strings, and the record as
//     its JSON encoding (durable.EncodeRecord);
//   - {P}:idx — a sorted set of operation keys, all with score 0, so ZRANGEBYLEX orders them
//     byte-wise for keyset ListPage.
//
// CompareAndSet is one Lua script (compare the fence, then write or delete the record and its
// index entry together) run with EVALSHA, falling back to EVAL when the server answers NOSCRIPT
// (redis.Script.Run). ListPage is a second script so a page and its records are read atomically;
// it reads record hashes it did not declare in KEYS, which is safe because the hash tag keeps
// every key of one prefix in one slot (and a standalone server has only one).
// Read is one HMGET. Records are decoded strictly on every read (durable.DecodeRecord), and the
// fence stored beside a record must match the record's own, so a tampered hash is reported as a
// validation error, never repaired.
//
// Every go-redis error is translated to a *durable.BackendError (durable.ErrBackend) here; no
// driver error leaves the package (STYLE §7). Tests run durabletest.Run against a real server
// named by WEBCODING_REDIS_URL (see scripts/services.sh).
//
// Owns: durable.Backend on Redis (key layout, the compare-and-set and list scripts).
//
// Must never: let a driver error leave the package, or repair a record that does not decode.
package redisstore
