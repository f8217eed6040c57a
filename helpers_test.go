package nvmeapst_test

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/ioctl"
	"github.com/nvmeapst/nvmeapst/ioctl/ioctltest"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

// The fixture machine testdata/sys (see testdata/README.md):
//
//	nvme0  Intel 600p (8086:f1a5, NO_DEEPEST_PS from the PCI table), tolerance 100000
//	nvme1  Samsung 960 EVO (144d:a804) on an ASUS PRIME B350M-A: NO_APST from a DMI
//	       rule, so no pm_qos_latency_tolerance_us
//	nvme2  Samsung 990 EVO Plus (144d:a80d), tolerance set to 25000
const fixtureRoot = "testdata/sys"

const fixtureRelease = "6.8.0-fixture"

// The tables the kernel programs on the fixture machine, worked out by hand
// from kernel-apst.md §4 (not by the code under test).
var (
	// nvme0: ps4 (the deepest) is excluded by NO_DEEPEST_PS; ps3 (total
	// 10300 µs) is the primary target: 0-2 -> ps3 after 100 ms.
	intelTable = table(map[int]apst.Entry{0: 0x6418, 1: 0x6418, 2: 0x6418})
	// nvme2 at 25000: ps4 (exit 43000) is above the bound; ps3 (total
	// 6200) is the primary target.
	samsung25000Table = table(map[int]apst.Entry{0: 0x6418, 1: 0x6418, 2: 0x6418})
	// nvme2 at 100000: ps4 (total 44600) is the secondary target, after
	// 2000 ms in ps3.
	samsung100000Table = table(map[int]apst.Entry{0: 0x6418, 1: 0x6418, 2: 0x6418, 3: 0x7d020})
	// nvme0 without the quirk: ps4 (total 12000) is the primary target.
	intelNoQuirkTable = table(map[int]apst.Entry{0: 0x6420, 1: 0x6420, 2: 0x6420, 3: 0x6420})
)

func table(m map[int]apst.Entry) apst.Table {
	var t apst.Table
	for i, e := range m {
		t[i] = e
	}
	return t
}

// image returns an identify image from the module's testdata/identify, with the
// strings the fixture's sysfs shows.
func image(t testing.TB, file, model, serial, firmware string) []byte {
	t.Helper()
	b, err := os.ReadFile(testfixture.Path("identify/" + file))
	require.NoError(t, err)
	c, err := powerstate.DecodeIdentify(b)
	require.NoError(t, err)
	c.Model, c.Serial, c.Firmware = model, serial, firmware
	out, err := c.MarshalBinary()
	require.NoError(t, err)
	return out
}

func intelImage(t testing.TB) []byte {
	return image(t, "intel-ssdpekkw256g7-PSF109C.bin", "INTEL SSDPEKKW256G7", "BTPY72910KCW256D", "PSF109C")
}

func samsung960Image(t testing.TB) []byte {
	// The 990 EVO Plus power states under the 960 EVO's name: the NO_APST
	// DMI rule matches the PCI ID, not the model.
	return image(t, "samsung-990-evo-plus-1tb-2B2QKXG7.bin", "Samsung SSD 960 EVO 500GB", "S3EUNX0J512345A", "3B7QCXE7")
}

func samsung990Image(t testing.TB) []byte {
	return image(t, "samsung-990-evo-plus-1tb-2B2QKXG7.bin", "Samsung SSD 990 EVO Plus 1TB", "S7U6NJ0X123456B", "2B2QKXG7")
}

// drive makes a fresh fake controller for each open (a closed
// ioctltest.Device fails every later command, as a real one does).
type drive func() ioctl.Controller

// drives are the fakes of the controllers, keyed by name.
type drives map[string]drive

// fake returns a drive that serves identify, feature and pm, and fails the
// commands named in errs (ioctl.OpGetAPST...) with their errors.
func fake(identify []byte, feature apst.Feature, pm ioctl.PowerManagement, errs map[string]error) drive {
	return func() ioctl.Controller {
		d := ioctltest.New(identify, feature, pm)
		for op, err := range errs {
			d.SetError(op, err)
		}
		return d
	}
}

// consistentDrives hold what the kernel programs.
func consistentDrives(t testing.TB) drives {
	return drives{
		"nvme0": fake(intelImage(t), apst.Feature{APSTE: apst.APSTEEnabled, Table: intelTable}, ioctl.PowerManagement{State: 3}, nil),
		"nvme1": fake(samsung960Image(t), apst.Feature{APSTE: apst.APSTEDisabled}, ioctl.PowerManagement{State: 0}, nil),
		"nvme2": fake(samsung990Image(t), apst.Feature{APSTE: apst.APSTEEnabled, Table: samsung25000Table}, ioctl.PowerManagement{State: 4, WorkloadHint: 1}, nil),
	}
}

// opened records the fakes a system opened, to check they were closed.
type opened struct {
	mu   sync.Mutex
	devs []*ioctltest.Device
}

func (o *opened) allClosed(t testing.TB) {
	t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	require.NotEmpty(t, o.devs)
	for _, d := range o.devs {
		assert.True(t, d.Closed())
	}
}

// systemWith is the fixture machine at root with the given drives.
func systemWith(t testing.TB, root string, d drives, rec *opened) *nvmeapst.System {
	t.Helper()
	fs, err := sysfs.NewFS(root)
	require.NoError(t, err)
	return &nvmeapst.System{
		FS: fs,
		Opener: nvmeapst.OpenerFunc(func(_ context.Context, name string) (ioctl.Controller, error) {
			mk, ok := d[name]
			if !ok {
				return nil, &os.PathError{Op: "open", Path: "/dev/" + name, Err: os.ErrNotExist}
			}
			c := mk()
			if dev, ok := c.(*ioctltest.Device); ok && rec != nil {
				rec.mu.Lock()
				rec.devs = append(rec.devs, dev)
				rec.mu.Unlock()
			}
			return c, nil
		}),
		KernelRelease: func() (string, error) { return fixtureRelease, nil },
		Now:           func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) },
	}
}

// system is systemWith without recording.
func system(t testing.TB, root string, d drives) *nvmeapst.System {
	t.Helper()
	return systemWith(t, root, d, nil)
}
