// Package blockdev reads an NVMe namespace the way a wake-latency
// measurement needs: one read of ReadSize bytes (4 KiB) at a time, opened
// read-only with O_DIRECT so that the page cache never answers for the
// drive, and the device's I/O counters from /sys/block/NAME/stat (ParseStat),
// which tell whether anything else touched the drive.
//
// Nothing in this package ever writes to a device: Open uses O_RDONLY.
// Reading a device works on Linux only; elsewhere Open fails with an error
// wrapping errors.ErrUnsupported. ParseStat is pure and works everywhere.
// A Device is not safe for concurrent use (it reuses one aligned buffer).
package blockdev
