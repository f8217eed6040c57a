//go:build unix

package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/promtext"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

// apstctl metrics --listen, a real process: it serves /metrics with the
// format's Content-Type, and SIGTERM shuts the server down and ends it
// with 128+15.
func TestMetricsListenSignal(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close()
	cmd, stderr := startApstctl(t, t.TempDir(), "metrics", "--root", testfixture.Path("bundle"), "--listen", addr)
	resp := scrapeWhenUp(t, cmd, stderr, addr)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, promtext.ContentType, resp.Header.Get("Content-Type"))
	assert.True(t, strings.Contains(string(body), "nvmeapst_holds_kernel_table{device=\"nvme2\"} 0"), string(body))

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		require.True(t, errors.As(err, &ee), "%v: %s", err, stderr.String())
		assert.Equal(t, 128+int(syscall.SIGTERM), ee.ExitCode(), stderr.String())
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		t.Fatal("apstctl metrics --listen did not end after SIGTERM")
	}
	_, err = http.Get("http://" + addr + "/metrics")
	assert.Error(t, err, "nothing listens any more")
}

// The exporter unit of examples/metrics runs a command line apstctl
// accepts (here on the bundle, at a free port), and the exit of the
// SIGTERM that systemctl stop sends is one its SuccessExitStatus counts
// as clean.
func TestExporterUnit(t *testing.T) {
	inRepoRoot(t)
	unit, err := os.ReadFile("examples/metrics/nvmeapst-exporter.service")
	require.NoError(t, err)
	var execStart string
	var success []string
	for _, l := range strings.Split(string(unit), "\n") {
		if v, ok := strings.CutPrefix(l, "ExecStart="); ok {
			execStart = v
		}
		if v, ok := strings.CutPrefix(l, "SuccessExitStatus="); ok {
			success = strings.Fields(v)
		}
	}
	assert.Contains(t, string(unit), "undo:")
	assert.Contains(t, string(unit), "WantedBy=multi-user.target")
	args := strings.Fields(execStart)
	require.GreaterOrEqual(t, len(args), 4)
	assert.Equal(t, []string{"/usr/bin/apstctl", "metrics", "--listen"}, args[:3])

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close()
	args[3] = addr
	cmd, stderr := startApstctl(t, t.TempDir(), append(args[1:], "--root", testfixture.Path("bundle"))...)
	scrapeWhenUp(t, cmd, stderr, addr).Body.Close()
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	var ee *exec.ExitError
	require.True(t, errors.As(cmd.Wait(), &ee))
	assert.Contains(t, success, strconv.Itoa(ee.ExitCode()), "SuccessExitStatus counts systemctl stop's exit as clean")
}

// scrapeWhenUp gets /metrics from the apstctl metrics --listen that cmd
// runs at addr, once it answers (within 10 s); the test fails, with the
// process's standard error, when it never does.
func scrapeWhenUp(t *testing.T, cmd *exec.Cmd, stderr fmt.Stringer, addr string) *http.Response {
	t.Helper()
	var err error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var resp *http.Response
		if resp, err = http.Get("http://" + addr + "/metrics"); err == nil {
			return resp
		}
	}
	// Standard error is read once the process has ended (the race
	// detector: os/exec copies into it until Wait returns).
	cmd.Process.Kill()
	cmd.Wait()
	t.Fatalf("apstctl %v never answered: %v: %s", cmd.Args[1:], err, stderr.String())
	return nil
}
