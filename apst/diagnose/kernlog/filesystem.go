package kernlog

import "strings"

// A file system (or a block layer stacked on the disk) that meets an I/O
// error of an NVMe disk reports it in its own words, naming the partition:
//
//	EXT4-fs warning (device nvme0n1p2): ext4_end_bio:343: I/O error 10 writing to inode 1234 starting block 5678)
//	JBD2: Error -5 detected when updating journal superblock for nvme0n1p2-8.
//	XFS (nvme0n1p1): metadata I/O error in "xfs_buf_ioend+0x1a0/0x1c0" at daddr 0x0 len 8 error 5
//	BTRFS error (device nvme0n1p2): bdev /dev/nvme0n1p2 errs: wr 1, rd 0, flush 0, corrupt 0, gen 0
//	BTRFS: error (device nvme0n1p2) in btrfs_commit_transaction:2418: errno=-5 IO failure
//	zio pool=rpool vdev=/dev/nvme0n1p3 error=5 type=2 offset=0 size=4096 flags=180880
//	md/raid1:md0: Disk failure on nvme1n1p1, disabling device.
//
// (fs/ext4, fs/jbd2, fs/xfs, fs/btrfs, OpenZFS's zfs_ereport and
// drivers/md print them.) They are the consequence of a failure the
// drive's, the PCI core's or the block layer's lines tell, and join no
// incident: Read keeps them in Log.FileSystemErrors, so that a paste of a
// file system's lines alone is not "no failure seen".

// fileSystemLine reports whether a message is a file system's (jbd2's
// "Aborting journal on device nvme0n1p3-8." included).
func fileSystemLine(msg string) bool {
	if strings.HasPrefix(msg, "Aborting journal on device ") {
		return true
	}
	w, _, _ := strings.Cut(msg, " ")
	w = strings.TrimSuffix(w, ":")
	switch {
	case strings.HasSuffix(w, "-fs"), w == "BTRFS", w == "XFS", w == "F2FS", w == "JBD2", w == "ZFS", w == "zio", w == "SQUASHFS", w == "bcachefs", w == "NILFS", w == "FAT-fs":
		return true
	case w == "bcache", w == "device-mapper", w == "md", strings.HasPrefix(w, "md/"), strings.HasPrefix(w, "dm-"):
		// A block layer stacked on the disk (a cache, a RAID, a mapper)
		// reporting the disk's errors: the disk's own lines say more.
		return true
	}
	// "NAME (nvme0n1p3): ..." and "NAME (device nvme0n1p3): ...": a file
	// system naming its block device.
	_, rest, _ := strings.Cut(msg, " ")
	return strings.HasPrefix(rest, "(nvme") || strings.HasPrefix(rest, "(device nvme")
}

// parseFileSystem reads a file system's report of an I/O error on an NVMe
// disk (FileSystemError; Disk is the partition or disk it names, Driver
// the file system or layer as it names itself).
func parseFileSystem(e *Event, msg string) bool {
	// Every report says "error", "Error", "errno" or "errs", but md's
	// "Disk failure on": one scan turns most other lines away.
	if !strings.Contains(msg, "rr") && !strings.Contains(msg, "Disk failure on ") || !fileSystemLine(msg) || !fileSystemIOError(msg) {
		return false
	}
	d := diskNameIn(msg)
	if d == "" {
		return false
	}
	e.Kind, e.Disk = FileSystemError, d
	e.Controller, e.Driver, e.Device, e.PCI = pathController(d), fileSystemName(msg), "", ""
	return true
}

// fileSystemReport keeps a file system's line about an NVMe disk that is
// no I/O error as Log.FileSystemReport: its errors and corruptions
// ("EXT4-fs error", "is corrupt", "checksum", "error loading journal"),
// not its mount's notices.
func (st *state) fileSystemReport(msg, raw string, from, to int, at Timestamp) {
	if !fileSystemLine(msg) || !strings.Contains(msg, "rr") && !strings.Contains(msg, "corrupt") && !strings.Contains(msg, "checksum") || mountNotice(msg) {
		return
	}
	d := diskNameIn(msg)
	if d == "" {
		return
	}
	st.log.FileSystemReport = &Event{Line: from, EndLine: to, Time: at, Disk: d, Driver: fileSystemName(msg), Text: clip(msg), Raw: clip(cleanLine(raw))}
}

// mountNotice reports whether a file system's line is a notice of every
// healthy boot that holds a word of trouble: its mount options ("EXT4-fs
// (nvme0n1p7): re-mounted. Opts: errors=remount-ro", "mounted filesystem
// with ordered data mode. Opts: errors=remount-ro"), btrfs's info lines
// ("BTRFS info (device nvme0n1p4): using crc32c (crc32c-intel) checksum
// algorithm"), FAT's dirty bit at mount ("FAT-fs (nvme0n1p1): Volume was
// not properly unmounted. Some data may be corrupt. Please run fsck.",
// fs/fat/inode.c: an EFI system partition after an unclean shutdown)
// (hw-probe dmesg of healthy machines, posted zt-04, zt-08, zt-10).
func mountNotice(msg string) bool {
	return strings.Contains(msg, " Opts: ") || strings.HasPrefix(msg, "BTRFS info ") || strings.Contains(msg, "not properly unmounted")
}

// fileSystemName is who printed a file system's message, as it names
// itself: "EXT4-fs", "BTRFS", "XFS", "JBD2", "md/raid1"; jbd2's "Aborting
// journal" is "JBD2" and OpenZFS's "zio" is "ZFS".
func fileSystemName(msg string) string {
	if strings.HasPrefix(msg, "Aborting journal on device ") {
		return "JBD2"
	}
	w, _, _ := strings.Cut(msg, " ")
	if i := strings.IndexByte(w, ':'); i >= 0 {
		w = w[:i]
	}
	if w == "zio" {
		return "ZFS"
	}
	return w
}

// fileSystemIOError reports whether a file system's message says it met an
// I/O error (EIO, errno 5), not a corruption it found in what it read or
// a count it keeps from earlier boots: btrfs prints its error counters at
// mount as "BTRFS info", and at an error as "BTRFS error" or "warning".
func fileSystemIOError(msg string) bool {
	if i := strings.Index(msg, " errs: wr "); i >= 0 {
		if !strings.HasPrefix(msg, "BTRFS error") && !strings.HasPrefix(msg, "BTRFS warning") {
			return false
		}
		// "errs: wr 1, rd 0, flush 0, corrupt 0, gen 0": writes, reads
		// and flushes that failed, not checksums.
		for _, f := range strings.Split(msg[i+len(" errs: "):], ", ") {
			name, n, _ := strings.Cut(f, " ")
			if (name == "wr" || name == "rd" || name == "flush") && n != "" && strings.Trim(n, "0") != "" && allDigits(n) {
				return true
			}
		}
		return false
	}
	if i := strings.Index(msg, "metadata I/O error"); i >= 0 {
		// XFS says so of any error its read of metadata ended in ("...
		// len 8 error 5", before 4.x "... error 5 numblks 8"): "error
		// 117" (EFSCORRUPTED) is a corruption it found, "error 5" an I/O
		// error.
		_, n, _ := strings.Cut(msg[i+len("metadata I/O error"):], " error ")
		n, _, _ = strings.Cut(n, " ")
		return n == "5"
	}
	for _, m := range []string{"I/O error", "I/O Error", "IO error", "IO failure", "Disk failure on "} {
		if strings.Contains(msg, m) {
			return true
		}
	}
	for _, m := range []string{"errno=-5", "error -5", "Error -5", "error=-5", "error 5", "error=5"} {
		if i := strings.Index(msg, m); i >= 0 && (i+len(m) == len(msg) || !isDigit(msg[i+len(m)])) {
			return true
		}
	}
	return false
}

// diskNameIn is the first NVMe disk or partition name in a message
// ("nvme0n1p2" in "(device nvme0n1p2)", "/dev/nvme0n1p2" and jbd2's
// "nvme0n1p2-8"), or "".
func diskNameIn(msg string) string {
	for from := 0; ; {
		i := strings.Index(msg[from:], "nvme")
		if i < 0 {
			return ""
		}
		i += from
		j := i + len("nvme")
		for j < len(msg) && (isDigit(msg[j]) || msg[j] >= 'a' && msg[j] <= 'z') {
			j++
		}
		if (i == 0 || !isWordByte(msg[i-1])) && isDiskName(msg[i:j]) {
			return msg[i:j]
		}
		from = j
	}
}

// isWordByte reports a letter, digit or underscore.
func isWordByte(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}
