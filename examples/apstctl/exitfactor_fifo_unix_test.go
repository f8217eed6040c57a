//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exitFactorRead is what each command's output says of a factor of 0.78.
var exitFactorRead = map[string]string{
	"simulate":  "exit latencies scaled by 0.78",
	"recommend": "exit latency x 0.78",
	"replay":    "exit latencies scaled by 0.78",
}

// --exit-factor FILE reads a pipe or FIFO the user names, as a capture,
// persist --from and --check do (it was refused as "a named pipe (FIFO),
// not a regular file"): `--exit-factor <(cat nvme0.factor)`, a mkfifo, in
// simulate, recommend and replay; ^C ends a wait for a writer, and a pipe
// is read up to the 16 MiB a factor file may hold.
func TestExitFactorNamedPipeIsRead(t *testing.T) {
	for _, cmd := range exitFactorCommands {
		fifo := filepath.Join(t.TempDir(), "factor")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip("no FIFOs here:", err)
		}
		args := append(append([]string{}, cmd...), "--exit-factor", fifo)
		go func() {
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err == nil {
				f.Write([]byte("# apstctl measure --factor-out\n0.78\n"))
				f.Close()
			}
		}()
		var code int
		var out, errOut string
		within(t, 10*time.Second, fmt.Sprint(args), func() { code, out, errOut = apstctl(t, nil, args...) })
		require.Equal(t, exitOK, code, "%q: %s", args, errOut)
		assert.Contains(t, out, exitFactorRead[cmd[0]], "%q", args)

		cancelEndsWait(t, args) // no writer: ^C ends the wait
	}
}

// A pipe named as /dev/fd/N (what the shell's <(...) gives) is read, and a
// pipe of more than 16 MiB is refused with the limit, as a regular file is.
func TestExitFactorDevFdPipe(t *testing.T) {
	if _, err := os.Stat("/dev/fd/0"); err != nil {
		t.Skip("no /dev/fd here")
	}
	pipe := func(t *testing.T, data []byte) string {
		r, w, err := os.Pipe()
		require.NoError(t, err)
		t.Cleanup(func() { r.Close() })
		go func() { w.Write(data); w.Close() }()
		return fmt.Sprintf("/dev/fd/%d", r.Fd())
	}
	for _, cmd := range exitFactorCommands {
		args := append(append([]string{}, cmd...), "--exit-factor", pipe(t, []byte("0.78\n")))
		code, out, errOut := apstctl(t, nil, args...)
		require.Equal(t, exitOK, code, "%q: %s", args, errOut)
		assert.Contains(t, out, exitFactorRead[cmd[0]], "%q", args)
	}
	big := []byte("0.78\n" + strings.Repeat("#", maxFactorFile))
	args := []string{"simulate", evoImage, "--gap", "3s", "--exit-factor", pipe(t, big)}
	var code int
	var errOut string
	within(t, 10*time.Second, fmt.Sprint(args), func() { code, _, errOut = apstctl(t, nil, args...) })
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "is larger than the limit of 16777216 bytes (16 MiB)")

	// A device is still refused unopened.
	code, _, errOut = apstctl(t, nil, "simulate", evoImage, "--gap", "3s", "--exit-factor", "/dev/zero")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "/dev/zero is a character device, not a regular file")
}
