// Package shard is the survey shard codec: the JSON or NDJSON report of
// apstctl survey, which "apstctl survey --merge" reads back.
//
// A shard holds a head (the configurations and whether the kernel's quirk
// tables were applied), one row a drive and a summary that counts them.
// [AppendRow] and [NewRow] write a drive's row ([AppendRow] by hand, the
// bytes encoding/json writes of [NewRow], without reflection); [Decode]
// reads a whole shard back, streaming its rows to a [Visitor] and checking
// that its summary counts what it holds; [DecodeRow] reads one row; [ID]
// computes a survey's identity (a SHA-256 of its canonical rows) and [Set]
// refuses a survey or a drive that two shards hold.
//
// # Contracts
//
// The package does no I/O of its own: the caller opens the files. Errors
// start with "shard:"; every error Decode returns for input that is not a
// shard matches [ErrNotShard] ([*Error], [*RowError]), and each value is
// bounded ([ValueMax], [PathMax], [VendorMax]) so that a hostile file is
// refused after about that many bytes instead of being held whole. The zero
// [ID] and the zero [Set] are ready to use; neither is safe for concurrent
// use. The records a row carries are apst/survey's ([survey.Record]),
// which [survey.Survey.AddRecord] merges.
package shard
