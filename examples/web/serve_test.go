package main

import (
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stderrOf runs f with os.Stderr read into the string returned.
func stderrOf(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	saved := os.Stderr
	os.Stderr = w
	done := make(chan []byte)
	go func() { b, _ := io.ReadAll(r); done <- b }()
	defer func() { os.Stderr = saved }()
	f()
	require.NoError(t, w.Close())
	return string(<-done)
}

// serve refuses what it would ignore or could not do before it builds
// the page (a build takes up to half a minute): an address it cannot
// listen on, and -addr beside -out.
func TestServeRefusesBeforeBuilding(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	out := filepath.Join(t.TempDir(), "site")
	for _, tc := range []struct {
		args   []string
		status int
		msg    string
	}{
		{[]string{"-addr", taken.Addr().String()}, 1, "address already in use"},
		{[]string{"-addr", "127.0.0.1:99999"}, 1, "invalid port"},
		{[]string{"-addr", "no-such-host.invalid:8025"}, 1, "web: listen tcp"},
		{[]string{"-out", out, "-addr", "127.0.0.1:8025"}, 2, "-addr is for serving"},
	} {
		t.Run(tc.msg, func(t *testing.T) {
			var status int
			msg := stderrOf(t, func() { status = serve(tc.args) })
			assert.Equal(t, tc.status, status)
			assert.Contains(t, msg, tc.msg)
			assert.NotContains(t, msg, "building")
			assert.NoDirExists(t, out)
		})
	}
}

// The server lets go of a client that holds a connection without asking
// anything: ReadHeaderTimeout alone leaves an idle keep-alive connection
// open for ever.
func TestServerTimeouts(t *testing.T) {
	srv := server(http.NotFoundHandler())
	assert.NotZero(t, srv.ReadHeaderTimeout)
	assert.NotZero(t, srv.IdleTimeout)
}
