package kernlog_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// A file system's (or md's, or bcache's) report of an I/O error on an NVMe
// disk is kept apart, in no incident; a count kept from earlier boots, a
// corruption found in what was read and a healthy mount are not reports.
// The lines are from the posted logs: ext4 and jbd2
// (https://github.com/Joshua-Riek/ubuntu-rockchip/issues/970,
// https://github.com/commaai/openpilot/issues/21928, linux-block
// <CADdPHGseMJf+=16S4NpHxG_bQQdZ4EtY7=s=hsLfzXHiS+sdgg@mail.gmail.com>),
// btrfs (linux-kernel <20241021191426.GA842491@bhelgaas>, linux-nvme
// <CABXGCsMiKe31UaoMV02gW4iJSKnBiO5jGQKej=Zem24mD0ObQw@mail.gmail.com>),
// xfs (linux-block
// <CABXGCsPWS8mCsGFR_NbhCv-8p1JxBbmV_L4C=zPzev8y-omwow@mail.gmail.com>),
// md (<CAO9zADxCYgQVOD9A1WYoS4JcLgvsNtGGr4xEZm9CMFHXsTV8ww@mail.gmail.com>),
// bcache (linux-btrfs <roibjb$u1$1@ciao.gmane.io>).
func TestFileSystemErrors(t *testing.T) {
	for _, tc := range []struct {
		line, who, disk string
	}{
		{"[  279.665900] JBD2: I/O error when updating journal superblock for nvme0n1p1-8.", "JBD2", "nvme0n1p1"},
		{"[  279.665948] EXT4-fs (nvme0n1p1): I/O error while writing superblock", "EXT4-fs", "nvme0n1p1"},
		{"<4>[  308.550268] EXT4-fs warning (device nvme0n1): ext4_end_bio:314: I/O error -5 writing to inode 22413351 (offset 41558016 size 385024 starting block 8", "EXT4-fs", "nvme0n1"},
		{"[  310.908527] JBD2: Error -5 detected when updating journal superblock for nvme0n1p3-8.", "JBD2", "nvme0n1p3"},
		{"Jan  5 06:19:22 atom kernel: [295336.630502] BTRFS error (device nvme0n1p2): bdev /dev/nvme0n1p2 errs: wr 1, rd 0, flush 0, corrupt 0, gen 0", "BTRFS", "nvme0n1p2"},
		{"[ 4626.593107] BTRFS: error (device nvme0n1p3: state EA) in cleanup_transaction:1982: errno=-5 IO failure", "BTRFS", "nvme0n1p3"},
		{"[  517.654795] XFS (nvme0n1p2): log I/O error -5", "XFS", "nvme0n1p2"},
		{`[  100.000000] XFS (nvme0n1p1): metadata I/O error in "xfs_buf_ioend+0x1a0/0x1c0" at daddr 0x0 len 8 error 5`, "XFS", "nvme0n1p1"},
		// XFS before its 4.x rewording.
		{`[  100.000000] XFS (nvme0n1p1): metadata I/O error: block 0x1b3e4f8 ("xfs_trans_read_buf_map") error 5 numblks 8`, "XFS", "nvme0n1p1"},
		{"[1158185.737571] md/raid:md1: Disk failure on nvme2n1p4, disabling device.", "md/raid", "nvme2n1p4"},
		{"Nov 11 00:24:58 tiare kernel: bcache: bch_count_io_errors() nvme0n1p4: IO error on reading from cache, recovering.", "bcache", "nvme0n1p4"},
		// OpenZFS's ereport line (module/zfs/zfs_fm.c prints no such line;
		// zed's and zpool events' do, and distributions' zfs modules log
		// "zio pool=... vdev=... error=5" to the kernel log).
		{"[  100.000000] zio pool=rpool vdev=/dev/nvme0n1p3 error=5 type=2 offset=0 size=4096 flags=180880", "ZFS", "nvme0n1p3"},
	} {
		t.Run(tc.who+" "+tc.disk, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.line+"\n", kernlog.Options{})
			require.NoError(t, err)
			assert.Empty(t, l.Incidents)
			assert.Empty(t, l.Unread)
			require.Len(t, l.FileSystemErrors, 1)
			e := l.FileSystemErrors[0]
			assert.Equal(t, kernlog.FileSystemError, e.Kind)
			assert.Equal(t, tc.who, e.Driver)
			assert.Equal(t, tc.disk, e.Disk)
			assert.Equal(t, 1, e.Line)
			assert.Equal(t, int64(1), l.FileSystemErrorLines)
		})
	}
	for _, line := range []string{
		// btrfs's counters as mount prints them, from earlier boots.
		"[    5.000000] BTRFS info (device nvme0n1p2): bdev /dev/nvme0n1p2 errs: wr 1, rd 0, flush 0, corrupt 0, gen 0",
		// Checksums that failed: what was read was wrong, not unreadable.
		"[  100.000000] BTRFS error (device nvme0n1p2: state EA): bdev /dev/nvme0n1p2 errs: wr 0, rd 0, flush 0, corrupt 3, gen 0",
		"[  100.000000] EXT4-fs error (device nvme0n1p2): ext4_validate_block_bitmap:390: comm ext4lazyinit: bg 0: bad block bitmap checksum",
		"[    5.000000] EXT4-fs (nvme0n1p2): mounted filesystem fc7a1f9e-4967-4f41-a1f5-1b5927e6c5f9 ro with ordered data mode. Quota mode: none.",
		"[    5.000000] EXT4-fs (nvme0n1p2): error count since last fsck: 5",
		// XFS's metadata read that found a corruption (EFSCORRUPTED).
		"[  100.000000] XFS (nvme0n1p1): metadata I/O error in \"xfs_da_read_buf+0xf2/0x130 [xfs]\" at daddr 0x1b3e4f8 len 8 error 117",
		"[  100.000000] XFS (nvme0n1p1): metadata I/O error: block 0x1b3e4f8 (\"xfs_trans_read_buf_map\") error 117 numblks 8",
		// A file system's line about a disk that is not an NVMe one, a
		// device mapper's, a mapper's name that ends in one.
		"[  100.000000] EXT4-fs warning (device sda1): ext4_end_bio:343: I/O error 10 writing to inode 1234 starting block 5678)",
		"[  100.000000] XFS (dm-2): log I/O error -5",
		"[  100.000000] zio pool=tank vdev=/dev/mapper/backupnvme0n1 error=5 type=2 offset=0 size=4096 flags=180880",
	} {
		l, err := kernlog.ReadString(line+"\n", kernlog.Options{})
		require.NoError(t, err)
		assert.Empty(t, l.FileSystemErrors, line)
		assert.Zero(t, l.FileSystemErrorLines, line)
	}
}

// Only the first MaxUnread file system reports are kept; all are counted.
func TestFileSystemErrorsAreBounded(t *testing.T) {
	var log []byte
	for range kernlog.MaxUnread + 5 {
		log = append(log, "[  517.654795] XFS (nvme0n1p2): log I/O error -5\n"...)
	}
	l, err := kernlog.ReadString(string(log), kernlog.Options{})
	require.NoError(t, err)
	assert.Len(t, l.FileSystemErrors, kernlog.MaxUnread)
	assert.Equal(t, int64(kernlog.MaxUnread+5), l.FileSystemErrorLines)
}

// A file system's trouble of its own on an NVMe disk, no I/O error, is
// Log.FileSystemReport, the first such line (ext4 on an LX2160A, posted
// zf-04: a mount's notice first, then the journal's corruption); a
// mount's notice alone is none, FAT's dirty bit, a mount's options and
// btrfs's info lines among them.
func TestFileSystemReport(t *testing.T) {
	l, err := kernlog.ReadString("> EXT4-fs (nvme0n1p2): INFO: recovery required on readonly filesystem\n"+
		"> JBD2: journal transaction 80849 on nvme0n1p2-8 is corrupt.\n"+
		"[73729.556544] EXT4-fs error (device nvme0n1p2): ext4_lookup:1700: inode #917524: comm rm: iget: checksum invalid\n", kernlog.Options{})
	require.NoError(t, err)
	require.NotNil(t, l.FileSystemReport)
	assert.Equal(t, 2, l.FileSystemReport.Line)
	assert.Equal(t, "nvme0n1p2", l.FileSystemReport.Disk)
	assert.Equal(t, "JBD2", l.FileSystemReport.Driver)
	assert.Empty(t, l.FileSystemErrors)
	assert.Empty(t, l.Incidents)

	for _, notice := range []string{
		"> EXT4-fs (nvme0n1p2): INFO: recovery required on readonly filesystem\n",
		// FAT's dirty bit at mount (an Intel NUC's hw-probe dmesg,
		// posted zt-04): an EFI system partition not unmounted; a
		// mount's options and btrfs's info lines (a MacBook's and an XPS
		// 13's, zt-08, zt-10).
		"[    6.060382] FAT-fs (nvme0n1p1): Volume was not properly unmounted. Some data may be corrupt. Please run fsck.\n",
		"[    2.825331] EXT4-fs (nvme0n1p7): re-mounted. Opts: errors=remount-ro\n",
		"[    2.499678] EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Opts: errors=remount-ro\n",
		"[    5.323106] BTRFS info (device nvme0n1p4): using crc32c (crc32c-intel) checksum algorithm\n",
	} {
		l, err = kernlog.ReadString(notice, kernlog.Options{})
		require.NoError(t, err)
		assert.Nil(t, l.FileSystemReport, notice)
	}
}
