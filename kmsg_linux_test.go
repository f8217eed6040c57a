package nvmeapst_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// ReadKmsg returns what the buffer holds and stops: it never waits for new
// records.
func TestReadKmsgDoesNotBlock(t *testing.T) {
	done := make(chan error, 1)
	go func() {
		rc, err := nvmeapst.ReadKmsg(t.Context(), nvmeapst.DefaultKmsgPath)
		if err == nil {
			defer rc.Close()
			var l *kernlog.Log
			l, err = kernlog.Read(t.Context(), rc, kernlog.Options{})
			if err == nil && l.LongLines != 0 {
				err = errors.New("long lines in /dev/kmsg")
			}
		}
		done <- err
	}()
	select {
	case err := <-done:
		if errors.Is(err, os.ErrPermission) || errors.Is(err, os.ErrNotExist) {
			t.Skipf("no /dev/kmsg here: %v", err)
		}
		require.NoError(t, err)
	case <-time.After(20 * time.Second):
		t.Fatal("ReadKmsg blocked")
	}
}

func TestReadKmsgRefusesOtherFiles(t *testing.T) {
	p := filepath.Join(t.TempDir(), "kmsg")
	require.NoError(t, os.WriteFile(p, []byte("6,1,1,-;nvme nvme0: x\n"), 0o644))
	_, err := nvmeapst.ReadKmsg(t.Context(), p)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is not a character device")
	_, err = nvmeapst.ReadKmsg(t.Context(), filepath.Join(t.TempDir(), "missing"))
	require.ErrorIs(t, err, os.ErrNotExist)
}

// A character device that is not /dev/kmsg is refused, saying what it
// holds: /dev/null ends (ReadKmsg spun on its zero-byte reads until ctx was
// done, forever with context.Background) and /dev/zero holds no records (it
// read NUL bytes until ctx was done).
func TestReadKmsgRefusesOtherDevices(t *testing.T) {
	for dev, want := range map[string]string{
		"/dev/null": "is not /dev/kmsg: it ended",
		"/dev/zero": `is not /dev/kmsg: record 1 starts "\x00`,
	} {
		if _, err := os.Stat(dev); err != nil {
			t.Skipf("no %s here: %v", dev, err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := nvmeapst.ReadKmsg(context.Background(), dev)
			done <- err
		}()
		select {
		case err := <-done:
			require.Error(t, err, dev)
			assert.Contains(t, err.Error(), want, dev)
			assert.Regexp(t, `^nvmeapst: kernel log: `, err.Error())
		case <-time.After(10 * time.Second):
			t.Fatalf("ReadKmsg(%s) did not return", dev)
		}
	}
}
