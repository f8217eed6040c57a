package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func gz(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, err := zw.Write(b)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// The handler sends a precompressed file where the client takes gzip, with
// the plain file's type, and the plain file to any other client.
func TestHandlerGzip(t *testing.T) {
	wasm := bytes.Repeat([]byte("\x00asm wasm bytes "), 100)
	site := fstest.MapFS{
		"app.wasm":    {Data: wasm},
		"app.wasm.gz": {Data: gz(t, wasm)},
		"index.html":  {Data: []byte("<!DOCTYPE html><title>x</title>")},
		"notes.bin":   {Data: []byte("plain")},
	}
	srv := httptest.NewServer(Handler(site))
	defer srv.Close()
	get := func(path, accept string) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		require.NoError(t, err)
		req.Header.Set("Accept-Encoding", accept) // set: the transport then leaves the body as sent
		res, err := http.DefaultTransport.RoundTrip(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res, b
	}
	for _, tc := range []struct {
		accept string
		gzip   bool
	}{
		{"gzip, deflate, br, zstd", true},
		{"br;q=1.0, gzip;q=0.8", true},
		{"*", true},
		{"", false},
		{"identity", false},
		{"gzip;q=0", false},
		{"br, gzip; q=0.000", false},
	} {
		t.Run(tc.accept, func(t *testing.T) {
			res, body := get("/app.wasm", tc.accept)
			require.Equal(t, http.StatusOK, res.StatusCode)
			assert.Equal(t, "application/wasm", res.Header.Get("Content-Type"))
			assert.Contains(t, res.Header.Values("Vary"), "Accept-Encoding")
			if tc.gzip {
				assert.Equal(t, "gzip", res.Header.Get("Content-Encoding"))
				zr, err := gzip.NewReader(bytes.NewReader(body))
				require.NoError(t, err)
				plain, err := io.ReadAll(zr)
				require.NoError(t, err)
				assert.Equal(t, wasm, plain)
			} else {
				assert.Empty(t, res.Header.Get("Content-Encoding"))
				assert.Equal(t, wasm, body)
			}
			assert.Equal(t, csp, res.Header.Get("Content-Security-Policy"))
		})
	}
	// No .gz beside it: the plain file, for every client.
	res, body := get("/", "gzip")
	assert.Empty(t, res.Header.Get("Content-Encoding"))
	assert.Contains(t, string(body), "<!DOCTYPE html>")
	res, body = get("/notes.bin", "gzip")
	assert.Empty(t, res.Header.Get("Content-Encoding"))
	assert.Equal(t, "plain", string(body))
}
