package ioctl

import (
	"context"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
)

// fakeSubmitter records the commands a Device sends and answers them.
type fakeSubmitter struct {
	mu       sync.Mutex
	sent     []command
	lens     []int
	result   uint32
	status   uint16
	errno    error
	err      error
	fill     func([]byte)
	closeErr error
}

func (f *fakeSubmitter) submit(c *command, data []byte) (uint32, uint16, error, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, *c)
	f.lens = append(f.lens, len(data))
	if f.fill != nil {
		f.fill(data)
	}
	return f.result, f.status, f.errno, f.err
}

func (f *fakeSubmitter) close() error { return f.closeErr }

func TestDecodePowerManagement(t *testing.T) {
	tests := []struct {
		dw0  uint32
		want PowerManagement
	}{
		{0x00, PowerManagement{}},
		{0x03, PowerManagement{State: 3}},
		{0x1f, PowerManagement{State: 31}},
		{0x24, PowerManagement{State: 4, WorkloadHint: 1}},
		{0x40, PowerManagement{WorkloadHint: 2}},
		{0xe1, PowerManagement{State: 1, WorkloadHint: 7}},
		{0xffffff02, PowerManagement{State: 2}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, apst.DecodePowerManagement(tt.dw0), "%#x", tt.dw0)
	}
}

func TestCommandEncoding(t *testing.T) {
	ctx := context.Background()

	f := &fakeSubmitter{}
	d := &Device{path: "/dev/nvme0", s: f}
	img, err := d.IdentifyController(ctx)
	require.NoError(t, err)
	assert.Len(t, img, 4096)

	table := apst.Table{0: apst.NewEntry(3, 100), 3: apst.NewEntry(4, 2000)}
	payload, err := table.MarshalBinary()
	require.NoError(t, err)
	f.fill = func(b []byte) { copy(b, payload) }
	f.result = 0x1
	feat, err := d.GetAPST(ctx)
	require.NoError(t, err)
	assert.Equal(t, apst.Feature{APSTE: apst.APSTEEnabled, Table: table}, feat)

	f.fill = nil
	f.result = 0x23
	pm, err := d.GetPowerManagement(ctx)
	require.NoError(t, err)
	assert.Equal(t, PowerManagement{State: 3, WorkloadHint: 1}, pm)

	assert.Equal(t, []command{
		{op: OpIdentifyController, opcode: 0x06, cdw10: 0x01},
		{op: OpGetAPST, opcode: 0x0a, cdw10: 0x0c},
		{op: OpGetPowerManagement, opcode: 0x0a, cdw10: 0x02},
	}, f.sent)
	assert.Equal(t, []int{4096, 256, 0}, f.lens)
}

func TestCommandFailures(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		f     *fakeSubmitter
		is    []error
		isNot []error
		msg   []string
	}{
		{"status", &fakeSubmitter{status: 0x4002},
			nil, []error{os.ErrPermission, ErrUnsupported},
			[]string{"ioctl: get features (APST): NVMe status 0x4002", "Invalid Field in Command", "DNR"}},
		{"permission", &fakeSubmitter{errno: fs.ErrPermission},
			[]error{os.ErrPermission}, []error{ErrUnsupported},
			[]string{"permission denied", "CAP_SYS_ADMIN"}},
		{"other errno", &fakeSubmitter{errno: errors.New("input/output error")},
			nil, []error{os.ErrPermission, ErrUnsupported},
			[]string{"ioctl: get features (APST): input/output error"}},
		{"closed", &fakeSubmitter{err: os.ErrClosed},
			[]error{os.ErrClosed}, []error{os.ErrPermission},
			[]string{"ioctl: get features (APST) /dev/nvme0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &Device{path: "/dev/nvme0", s: tt.f}
			_, err := d.GetAPST(ctx)
			require.Error(t, err)
			for _, is := range tt.is {
				require.ErrorIs(t, err, is)
			}
			for _, is := range tt.isNot {
				require.NotErrorIs(t, err, is)
			}
			for _, m := range tt.msg {
				assert.Contains(t, err.Error(), m)
			}
		})
	}
}

func TestCommandErrorFields(t *testing.T) {
	d := &Device{path: "/dev/nvme0", s: &fakeSubmitter{status: 0x010d}}
	_, err := d.IdentifyController(context.Background())
	var ce *CommandError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, &CommandError{Op: OpIdentifyController, Status: 0x010d}, ce)
	assert.Equal(t, "Feature Identifier Not Saveable", Status(ce.Status).Name())
	assert.NoError(t, ce.Unwrap())
}

func TestCancelledContext(t *testing.T) {
	f := &fakeSubmitter{}
	d := &Device{path: "/dev/nvme0", s: f}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := d.GetPowerManagement(ctx)
	require.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, f.sent, "nothing sent")
}

func TestDeviceNotOpen(t *testing.T) {
	var d *Device
	_, err := d.IdentifyController(context.Background())
	require.Error(t, err)
	require.Error(t, (&Device{}).Close())
	_, err = (&Device{}).GetAPST(context.Background())
	require.Error(t, err)
}

func TestStatus(t *testing.T) {
	tests := []struct {
		s          Status
		sc, sct    uint8
		crd        uint8
		more, dnr  bool
		name, text string
	}{
		{0x0000, 0x00, 0, 0, false, false, "Successful Completion", "Successful Completion (generic, SC 00h)"},
		{0x0001, 0x01, 0, 0, false, false, "Invalid Command Opcode", "Invalid Command Opcode (generic, SC 01h)"},
		{0x4002, 0x02, 0, 0, false, true, "Invalid Field in Command", "Invalid Field in Command (generic, SC 02h, DNR)"},
		{0x6006, 0x06, 0, 0, true, true, "Internal Error", "Internal Error (generic, SC 06h, More, DNR)"},
		{0x1802, 0x02, 0, 3, false, false, "Invalid Field in Command", "Invalid Field in Command (generic, SC 02h, CRD 3)"},
		{0x010e, 0x0e, 1, 0, false, false, "Feature Not Changeable", "Feature Not Changeable (command specific, SC 0Eh)"},
		{0x0286, 0x86, 2, 0, false, false, "Access Denied", "Access Denied (media error, SC 86h)"},
		{0x0370, 0x70, 3, 0, false, false, "Host Pathing Error", "Host Pathing Error (path related, SC 70h)"},
		{0x07c1, 0xc1, 7, 0, false, false, "", "unknown status (vendor specific, SC C1h)"},
		{0x00ff, 0xff, 0, 0, false, false, "", "unknown status (generic, SC FFh)"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			assert.Equal(t, tt.sc, tt.s.SC())
			assert.Equal(t, tt.sct, tt.s.SCT())
			assert.Equal(t, tt.crd, tt.s.CRD())
			assert.Equal(t, tt.more, tt.s.More())
			assert.Equal(t, tt.dnr, tt.s.DNR())
			assert.Equal(t, tt.name, tt.s.Name())
			assert.Equal(t, tt.text, tt.s.String())
		})
	}
}

func TestStatusNamesAreGeneric(t *testing.T) {
	// The generic status table the spec defines from 00h.
	want := []string{
		"Successful Completion", "Invalid Command Opcode", "Invalid Field in Command",
		"Command ID Conflict", "Data Transfer Error", "Commands Aborted due to Power Loss Notification",
		"Internal Error", "Command Abort Requested", "Command Aborted due to SQ Deletion",
	}
	for i, w := range want {
		assert.Equal(t, w, Status(i).Name())
	}
	for code := range statusNames {
		assert.LessOrEqual(t, code, uint16(0x7ff), "%#x", code)
	}
}

func TestErrUnsupported(t *testing.T) {
	require.ErrorIs(t, ErrUnsupported, errors.ErrUnsupported)
	assert.True(t, strings.HasPrefix(ErrUnsupported.Error(), "ioctl: not supported on "), ErrUnsupported.Error())
	assert.NotErrorIs(t, errors.ErrUnsupported, ErrUnsupported)
}

// The result of a Get Features APST command is decoded from the data buffer
// little-endian, whatever the host.
func TestGetAPSTLittleEndian(t *testing.T) {
	f := &fakeSubmitter{fill: func(b []byte) {
		binary.LittleEndian.PutUint64(b[0:], 0x6418)
		binary.LittleEndian.PutUint64(b[8*31:], 0x0000000100000020)
	}}
	feat, err := (&Device{s: f}).GetAPST(context.Background())
	require.NoError(t, err)
	assert.Equal(t, apst.APSTEDisabled, feat.APSTE)
	assert.Equal(t, apst.Entry(0x6418), feat.Table[0])
	assert.Equal(t, apst.Entry(0x0000000100000020), feat.Table[31])
}

func TestHealthLogEncoding(t *testing.T) {
	f := &fakeSubmitter{fill: func(b []byte) { b[144] = 7 }}
	d := &Device{path: "/dev/nvme0", s: f}
	page, err := d.HealthLog(context.Background())
	require.NoError(t, err)
	require.Len(t, page, HealthLogSize)
	assert.Equal(t, byte(7), page[144])
	// Get Log Page, LID 02h, NUMDL 127 (512 bytes), every namespace.
	assert.Equal(t, []command{{op: OpGetHealthLog, opcode: 0x02, nsid: 0xffffffff, cdw10: 0x007f0002}}, f.sent)
	assert.Equal(t, []int{512}, f.lens)

	f.status = 0x4002
	_, err = d.HealthLog(context.Background())
	var ce *CommandError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, OpGetHealthLog, ce.Op)
}
