package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

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

// The handler answers only GET and HEAD (a static site takes nothing),
// answers a name no file can have (a NUL, a component longer than the
// system takes) as it answers any other missing file, and sends a file
// asked for as a directory (NAME/) to NAME whether or not the client takes
// gzip, as the file server does, rather than a page whose relative links
// then miss.
func TestHandlerHostile(t *testing.T) {
	dir := t.TempDir()
	for name, b := range map[string][]byte{
		"index.html":    []byte("<!DOCTYPE html><title>x</title>"),
		"index.html.gz": gz(t, []byte("<!DOCTYPE html><title>x</title>")),
		"app.js":        []byte("'use strict';"),
		"app.js.gz":     gz(t, []byte("'use strict';")),
	} {
		require.NoError(t, writeFile(filepath.Join(dir, name), b))
	}
	srv := httptest.NewServer(Handler(os.DirFS(dir)))
	defer srv.Close()
	for _, tc := range []struct {
		method, path, accept string
		status               int
		location             string
	}{
		{http.MethodGet, "/app.js", "gzip", http.StatusOK, ""},
		{http.MethodHead, "/app.js", "identity", http.StatusOK, ""},
		{http.MethodPost, "/app.js", "gzip", http.StatusMethodNotAllowed, ""},
		{http.MethodPut, "/app.js", "identity", http.StatusMethodNotAllowed, ""},
		{http.MethodDelete, "/", "identity", http.StatusMethodNotAllowed, ""},
		{http.MethodOptions, "/", "identity", http.StatusMethodNotAllowed, ""},
		{http.MethodTrace, "/", "identity", http.StatusMethodNotAllowed, ""},
		{http.MethodPatch, "/index.html", "identity", http.StatusMethodNotAllowed, ""},
		{http.MethodGet, "/index.html%00", "gzip", http.StatusNotFound, ""},
		{http.MethodGet, "/a%00b.js", "identity", http.StatusNotFound, ""},
		{http.MethodGet, "/" + strings.Repeat("a", 300) + ".js", "gzip", http.StatusNotFound, ""},
		{http.MethodGet, "/" + strings.Repeat("a", 300), "identity", http.StatusNotFound, ""},
		{http.MethodGet, "/../../etc/passwd", "identity", http.StatusNotFound, ""},
		{http.MethodGet, "/..%2f..%2fetc%2fpasswd", "gzip", http.StatusNotFound, ""},
		{http.MethodGet, "/..%5c..%5cetc%5cpasswd", "gzip", http.StatusNotFound, ""},
		{http.MethodGet, "/index.html/", "gzip", http.StatusMovedPermanently, "../index.html"},
		{http.MethodGet, "/index.html/", "identity", http.StatusMovedPermanently, "../index.html"},
		{http.MethodGet, "/app.js/", "gzip", http.StatusMovedPermanently, "../app.js"},
		{http.MethodGet, "/", "gzip", http.StatusOK, ""},
	} {
		t.Run(tc.method+" "+tc.path+" "+tc.accept, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, srv.URL+tc.path, nil)
			require.NoError(t, err)
			req.Header.Set("Accept-Encoding", tc.accept)
			res, err := http.DefaultTransport.RoundTrip(req)
			require.NoError(t, err)
			defer res.Body.Close()
			b, err := io.ReadAll(res.Body)
			require.NoError(t, err)
			assert.Equal(t, tc.status, res.StatusCode)
			assert.Equal(t, tc.location, res.Header.Get("Location"))
			if tc.status == http.StatusMethodNotAllowed {
				assert.Equal(t, "GET, HEAD", res.Header.Get("Allow"))
				assert.NotContains(t, string(b), "use strict")
				assert.NotContains(t, string(b), "DOCTYPE")
			}
			assert.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
		})
	}
}

// A Range is answered in ranges of the plain file, one part or a
// multipart/byteranges body, to a client that does not take gzip; a client
// that takes gzip gets the precompressed file whole (200, Accept-Ranges:
// none), never parts of the gzip stream under Content-Encoding: gzip,
// which no client decodes. Every body decodes to the bytes asked for.
func TestHandlerRanges(t *testing.T) {
	css := []byte("body { margin: 0 } /* the page's style, long enough for ranges */\n")
	modTime := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	site := fstest.MapFS{
		"style.css":    {Data: css, ModTime: modTime},
		"style.css.gz": {Data: gz(t, css), ModTime: modTime},
	}
	srv := httptest.NewServer(Handler(site))
	defer srv.Close()
	for _, tc := range []struct {
		name, accept, rng string
		ifRange           bool // with If-Range: the files' Last-Modified
		status            int
		gzip              bool
		parts             [][2]int // [start, end) of each range sent, nil for the whole file
	}{
		{"identity whole", "identity", "", false, http.StatusOK, false, nil},
		{"identity one range", "identity", "bytes=0-1", false, http.StatusPartialContent, false, [][2]int{{0, 2}}},
		{"identity suffix", "", "bytes=-5", false, http.StatusPartialContent, false, [][2]int{{len(css) - 5, len(css)}}},
		{"identity two ranges", "identity", "bytes=0-1,5-6", false, http.StatusPartialContent, false, [][2]int{{0, 2}, {5, 7}}},
		{"identity three ranges", "gzip;q=0", "bytes=0-0,10-19,30-", false, http.StatusPartialContent, false, [][2]int{{0, 1}, {10, 20}, {30, len(css)}}},
		{"gzip whole", "gzip", "", false, http.StatusOK, true, nil},
		{"gzip one range", "gzip", "bytes=0-1", false, http.StatusOK, true, nil},
		{"gzip middle range", "gzip, deflate", "bytes=5-9", false, http.StatusOK, true, nil},
		{"gzip two ranges", "gzip", "bytes=0-1,5-6", false, http.StatusOK, true, nil},
		{"gzip range and if-range", "*", "bytes=3-", true, http.StatusOK, true, nil},
		{"gzip unsatisfiable range", "gzip", "bytes=100000-", false, http.StatusOK, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, srv.URL+"/style.css", nil)
			require.NoError(t, err)
			req.Header.Set("Accept-Encoding", tc.accept)
			if tc.rng != "" {
				req.Header.Set("Range", tc.rng)
			}
			if tc.ifRange {
				req.Header.Set("If-Range", modTime.Format(http.TimeFormat))
			}
			res, err := http.DefaultTransport.RoundTrip(req)
			require.NoError(t, err)
			defer res.Body.Close()
			body, err := io.ReadAll(res.Body)
			require.NoError(t, err)
			require.Equal(t, tc.status, res.StatusCode, "body %q", body)
			if tc.gzip {
				assert.Equal(t, "gzip", res.Header.Get("Content-Encoding"))
				assert.Equal(t, "none", res.Header.Get("Accept-Ranges"))
				assert.Empty(t, res.Header.Get("Content-Range"))
				assert.Equal(t, "text/css; charset=utf-8", res.Header.Get("Content-Type"))
				zr, err := gzip.NewReader(bytes.NewReader(body))
				require.NoError(t, err)
				plain, err := io.ReadAll(zr)
				require.NoError(t, err)
				assert.Equal(t, css, plain)
				return
			}
			assert.Empty(t, res.Header.Get("Content-Encoding"))
			assert.Equal(t, "bytes", res.Header.Get("Accept-Ranges"))
			switch len(tc.parts) {
			case 0:
				assert.Equal(t, css, body)
			case 1:
				p := tc.parts[0]
				assert.Equal(t, css[p[0]:p[1]], body)
				assert.Equal(t, fmt.Sprintf("bytes %d-%d/%d", p[0], p[1]-1, len(css)), res.Header.Get("Content-Range"))
			default:
				mt, params, err := mime.ParseMediaType(res.Header.Get("Content-Type"))
				require.NoError(t, err)
				require.Equal(t, "multipart/byteranges", mt)
				mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
				for _, p := range tc.parts {
					part, err := mr.NextPart()
					require.NoError(t, err)
					b, err := io.ReadAll(part)
					require.NoError(t, err)
					assert.Equal(t, css[p[0]:p[1]], b)
					assert.Equal(t, fmt.Sprintf("bytes %d-%d/%d", p[0], p[1]-1, len(css)), part.Header.Get("Content-Range"))
				}
				_, err = mr.NextPart()
				assert.ErrorIs(t, err, io.EOF)
			}
		})
	}
}
