package main

import (
	"context"
	"errors"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/promtext"
	"github.com/nvmeapst/nvmeapst/internal/promtext/promtexttest"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// metricsTrees are the fixture trees the goldens scrape, from the top of
// the repository.
var metricsTrees = []string{"testdata/bundle", "sysfs/testdata/laptop-tlp", "sysfs/testdata/v7", "sysfs/testdata/v5.10"}

// What apstctl metrics prints is the text format 0.0.4 as a strict parser
// reads it, on every fixture tree: every family has HELP and TYPE, one
// prefix, counters end in _total and info metrics have the value 1, every
// per-controller series names its controller in device (a machine's
// scrape_source_success has device=""), every series of a family has the
// same label names (a registry that re-exposes the file requires it), and
// no series repeats (one per controller and metric).
func TestMetricsGrammar(t *testing.T) {
	inRepoRoot(t)
	for _, tree := range metricsTrees {
		t.Run(tree, func(t *testing.T) {
			code, out, errOut := apstctl(t, nil, "metrics", "--root", tree)
			require.Equal(t, 0, code, errOut)
			fams, err := promtexttest.Parse(out)
			require.NoError(t, err)
			sys, err := nvmeapst.OpenRoot(tree)
			require.NoError(t, err)
			names, err := sys.FS.ControllerNames()
			require.NoError(t, err)
			perDevice := map[string]int{}
			for _, f := range fams {
				var labelNames []string
				for i, s := range f.Samples {
					ln := slices.Sorted(maps.Keys(s.Labels))
					if i == 0 {
						labelNames = ln
					}
					assert.Equal(t, labelNames, ln, "%s: one set of label names", f.Name)
				}
				assert.True(t, strings.HasPrefix(f.Name, "nvmeapst_"), f.Name)
				assert.NotEmpty(t, f.Help, f.Name)
				assert.Contains(t, []string{"gauge", "counter"}, f.Type, f.Name)
				assert.Equal(t, f.Type == "counter", strings.HasSuffix(f.Name, "_total"), f.Name)
				for _, s := range f.Samples {
					assert.Nil(t, s.Timestamp, "the textfile collector refuses timestamps")
					if strings.HasSuffix(f.Name, "_info") {
						assert.Equal(t, 1.0, s.Value, f.Name)
					}
					if d, ok := s.Labels["device"]; ok && d == "" {
						assert.Equal(t, "nvmeapst_scrape_source_success", f.Name, "only a machine's sources have no device")
					} else if ok && f.Name != "nvmeapst_pcidevice_info" {
						assert.Contains(t, names, d, f.Name)
						perDevice[f.Name+"/"+s.Labels["quirk"]+s.Labels["source"]+"/"+d]++
					}
					if f.Name == "nvmeapst_pcidevice_info" {
						assert.Contains(t, names, s.Labels["controller"])
						for _, l := range []string{"segment", "bus", "device", "function"} {
							assert.NotEmpty(t, s.Labels[l], l)
						}
					}
				}
			}
			for k, n := range perDevice {
				assert.Equal(t, 1, n, k)
			}
			info := family(fams, "nvmeapst_controller_info")
			require.NotNil(t, info)
			assert.Len(t, info.Samples, len(names), "one controller_info per controller")
		})
	}
}

func family(fams []promtexttest.Family, name string) *promtexttest.Family {
	for i := range fams {
		if fams[i].Name == name {
			return &fams[i]
		}
	}
	return nil
}

// Label values are escaped as the format asks (backslash, double quote,
// newline), so that a model string cannot end a label or a line: the
// strict parser reads back what went in.
func TestMetricsEscaping(t *testing.T) {
	for _, model := range []string{`a "quoted" model`, `back\slash`, "new\nline", "} 1\nnvmeapst_forged 1", "ünïcödé", "bad \xff utf-8"} {
		snap := &nvmeapst.MetricsSnapshot{KernelRelease: `6.8 "x"`, Generation: apst.Current, Controllers: []nvmeapst.ControllerMetrics{{Name: "nvme0", Model: model, Firmware: `\n`}}}
		var v metricsView
		b, err := v.render(snap)
		require.NoError(t, err)
		fams, err := promtexttest.Parse(string(b))
		require.NoError(t, err, "%q:\n%s", model, b)
		info := family(fams, "nvmeapst_controller_info")
		require.NotNil(t, info)
		require.Len(t, info.Samples, 1)
		want := strings.ToValidUTF8(model, "\uFFFD")
		assert.Equal(t, want, info.Samples[0].Labels["model"])
		assert.Equal(t, `\n`, info.Samples[0].Labels["firmware"])
		assert.Nil(t, family(fams, "nvmeapst_forged"))
	}
}

// Control characters in a label value (a model from sysfs holding ESC and
// BEL, a bidirectional override) are written as text, "\x1b", so that the
// exposition carries none raw to a terminal; the strict parser still reads
// it, and a byte that is not UTF-8 is U+FFFD.
func TestMetricsControlLabels(t *testing.T) {
	for _, tc := range []struct{ model, want string }{
		{"Evil\x1b]0;pwned\x07\x1b[2J", `Evil\x1b]0;pwned\x07\x1b[2J`},
		{"tab\there\x7f", `tab\there\x7f`},
		{"rlo\u202eevil\u0085", `rlo\u202eevil\u0085`},
		{"bad \xff\x1b", "bad \uFFFD\\x1b"},
		{"plain", "plain"},
	} {
		snap := &nvmeapst.MetricsSnapshot{KernelRelease: "6.8", Generation: apst.Current, Controllers: []nvmeapst.ControllerMetrics{{Name: "nvme0", Model: tc.model, Firmware: "1.0\a"}}}
		var v metricsView
		b, err := v.render(snap)
		require.NoError(t, err)
		assert.False(t, safeio.HasControl(strings.ReplaceAll(string(b), "\n", "")), "%q:\n%s", tc.model, b)
		fams, err := promtexttest.Parse(string(b))
		require.NoError(t, err, "%q:\n%s", tc.model, b)
		info := family(fams, "nvmeapst_controller_info")
		require.NotNil(t, info)
		require.Len(t, info.Samples, 1)
		assert.Equal(t, tc.want, info.Samples[0].Labels["model"], "%q", tc.model)
		assert.Equal(t, `1.0\x07`, info.Samples[0].Labels["firmware"])
	}
}

// --textfile-dir writes nvmeapst.prom, what standard output would hold,
// and leaves no temporary file; a second run replaces it.
func TestMetricsTextfile(t *testing.T) {
	inRepoRoot(t)
	dir := t.TempDir()
	code, stdout, errOut := apstctl(t, nil, "metrics", "--root", "testdata/bundle")
	require.Equal(t, 0, code, errOut)
	for range 2 {
		code, out, errOut := apstctl(t, nil, "metrics", "--root", "testdata/bundle", "--textfile-dir", dir)
		require.Equal(t, 0, code, errOut)
		assert.Empty(t, out)
		b, err := os.ReadFile(filepath.Join(dir, textfileName))
		require.NoError(t, err)
		assert.Equal(t, stdout, string(b))
		ents, err := os.ReadDir(dir)
		require.NoError(t, err)
		assert.Len(t, ents, 1, "no temporary file left")
	}
	code, _, errOut = apstctl(t, nil, "metrics", "--root", "testdata/bundle", "--textfile-dir", filepath.Join(dir, "missing"))
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "--textfile-dir")
	for _, bad := range [][]string{
		{"--textfile-dir", dir, "-o", "json"},
		{"--listen", "localhost:1", "-o", "json"},
		{"--textfile-dir", dir, "--output", filepath.Join(dir, "x")},
		{"--listen", "nocolon"},
	} {
		code, out, errOut := apstctl(t, nil, append([]string{"metrics", "--root", "testdata/bundle"}, bad...)...)
		assert.Equal(t, exitUsage, code, "%q", bad)
		assert.Empty(t, out)
		assert.NotEmpty(t, errOut)
	}
}

// A signal that arrives while the file is written leaves the old file and
// no temporary one: only complete files are ever in the directory.
func TestMetricsTextfileSignal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, textfileName)
	require.NoError(t, os.WriteFile(path, []byte("old\n"), 0o644))
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errSignal{os.Interrupt})
	err := replaceTextfile(ctx, path, []byte("new\n"))
	require.Error(t, err)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "old\n", string(b))
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, ents, 1)
}

// bundleMetricsServer serves the metrics of testdata/bundle on a test
// server (closed with the test), and returns what `apstctl metrics`
// prints for the bundle.
func bundleMetricsServer(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	inRepoRoot(t)
	code, stdout, errOut := apstctl(t, nil, "metrics", "--root", "testdata/bundle")
	require.Equal(t, 0, code, errOut)
	sys, err := openSystem("testdata/bundle")
	require.NoError(t, err)
	srv := httptest.NewServer(metricsHandler(newScraper(sys)))
	t.Cleanup(srv.Close)
	return srv, stdout
}

// The handler serves /metrics with the format's Content-Type, HEAD without
// a body, a landing page on /, and nothing else.
func TestMetricsHandler(t *testing.T) {
	srv, stdout := bundleMetricsServer(t)
	for range 2 {
		resp, err := http.Get(srv.URL + "/metrics")
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "text/plain; version=0.0.4; charset=utf-8", resp.Header.Get("Content-Type"))
		assert.Equal(t, promtext.ContentType, resp.Header.Get("Content-Type"))
		assert.Equal(t, stdout, string(body))
	}
	resp, err := http.Head(srv.URL + "/metrics")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	resp, err = http.Get(srv.URL + "/")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.Contains(t, string(body), `<a href="/metrics">/metrics</a>`)
	for path, want := range map[string]int{"/index.html": 404, "/metrics/x": 404, "/debug/pprof/": 404} {
		resp, err := http.Get(srv.URL + path)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, want, resp.StatusCode, path)
	}
	for _, path := range []string{"/metrics", "/"} {
		resp, err = http.Post(srv.URL+path, "text/plain", strings.NewReader("x"))
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode, path)
		assert.Equal(t, "GET, HEAD", resp.Header.Get("Allow"), path)
	}
}

// --listen serves until its context is cancelled (a signal), then shuts
// down and returns the cause.
func TestMetricsListenShutdown(t *testing.T) {
	inRepoRoot(t)
	sys, err := openSystem("testdata/bundle")
	require.NoError(t, err)
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error, 1)
	x := &invocation{out: safeio.NewWriter(io.Discard), errw: safeio.NewWriter(io.Discard), stderr: io.Discard}
	go func() { done <- serveMetrics(ctx, x, newScraper(sys), "localhost:0") }()
	time.Sleep(50 * time.Millisecond)
	cancel(errSignal{os.Interrupt})
	waitSignalled(t, done)
}

func TestListenAddr(t *testing.T) {
	for in, want := range map[string]string{":9860": "localhost:9860", "127.0.0.1:9860": "127.0.0.1:9860", "[::1]:9860": "[::1]:9860", "0.0.0.0:9860": "0.0.0.0:9860"} {
		got, err := listenAddr(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"", "9860", "localhost", "localhost:", ":99999", "localhost:-1", ":no-such-service-here"} {
		_, err := listenAddr(bad)
		assert.Error(t, err, bad)
	}
}

// A signal lets a scrape already in its handler finish with the whole
// exposition (the server shuts down, it does not cancel the request): the
// scraper is held busy while the request arrives, the signal comes, and
// the scrape then runs.
func TestMetricsListenShutdownFinishesScrape(t *testing.T) {
	inRepoRoot(t)
	code, stdout, errOut := apstctl(t, nil, "metrics", "--root", "testdata/bundle")
	require.Equal(t, 0, code, errOut)
	sys, err := openSystem("testdata/bundle")
	require.NoError(t, err)
	s := newScraper(sys)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	x := &invocation{out: safeio.NewWriter(io.Discard), errw: safeio.NewWriter(io.Discard), stderr: io.Discard}
	done := make(chan error, 1)
	go func() { done <- serveMetrics(ctx, x, s, addr) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/")
		if err == nil {
			resp.Body.Close()
			break
		}
		require.True(t, time.Now().Before(deadline), "never served: %v", err)
		time.Sleep(10 * time.Millisecond)
	}

	type result struct {
		code int
		body string
		err  error
	}
	got := make(chan result, 1)
	s.mu.Lock() // the scrape waits in its handler
	go func() {
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			got <- result{err: err}
			return
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- result{code: resp.StatusCode, body: string(b), err: err}
	}()
	time.Sleep(100 * time.Millisecond)
	cancel(errSignal{os.Interrupt})
	time.Sleep(100 * time.Millisecond)
	s.mu.Unlock()

	r := <-got
	require.NoError(t, r.err)
	assert.Equal(t, http.StatusOK, r.code, r.body)
	assert.Equal(t, stdout, r.body)
	waitSignalled(t, done)
}

// waitSignalled waits for serveMetrics to return the signal that
// cancelled it.
func waitSignalled(t *testing.T, done <-chan error) {
	t.Helper()
	select {
	case err := <-done:
		var es errSignal
		assert.True(t, errors.As(err, &es), "%v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("serveMetrics did not return after its context was cancelled")
	}
}

// stalledWriter is a client that stops reading: its Write blocks until
// release is closed.
type stalledWriter struct {
	h       http.Header
	writing chan struct{}
	release chan struct{}
}

func (w *stalledWriter) Header() http.Header { return w.h }
func (w *stalledWriter) WriteHeader(int)     {}
func (w *stalledWriter) Write(b []byte) (int, error) {
	close(w.writing)
	<-w.release
	return len(b), nil
}

// A client that stops reading its response holds no other scrape up: the
// exposition is written to it outside the scraper's lock (a stalled
// Prometheus of an HA pair would otherwise stall the other for the write
// timeout, as long as its scrape timeout).
func TestMetricsHandlerStalledClient(t *testing.T) {
	inRepoRoot(t)
	sys, err := openSystem("testdata/bundle")
	require.NoError(t, err)
	h := metricsHandler(newScraper(sys))
	slow := &stalledWriter{h: http.Header{}, writing: make(chan struct{}), release: make(chan struct{})}
	slowDone := make(chan struct{})
	go func() {
		defer close(slowDone)
		h.ServeHTTP(slow, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	}()
	<-slow.writing
	defer func() { close(slow.release); <-slowDone }()

	fast := make(chan *httptest.ResponseRecorder, 1)
	go func() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		fast <- rec
	}()
	select {
	case rec := <-fast:
		assert.Equal(t, http.StatusOK, rec.Code)
		_, err := promtexttest.Parse(rec.Body.String())
		assert.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("a scrape waited for another client to read its response")
	}
}

// Concurrent scrapes (an HA pair of Prometheus servers, a curl beside
// them) each get the whole exposition, never another's half-rendered
// buffer; run under -race.
func TestMetricsHandlerConcurrent(t *testing.T) {
	srv, stdout := bundleMetricsServer(t)
	const n = 8
	bodies := make(chan string, n*4)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 4 {
				resp, err := http.Get(srv.URL + "/metrics")
				if !assert.NoError(t, err) {
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				bodies <- string(b)
			}
		}()
	}
	wg.Wait()
	close(bodies)
	got := 0
	for b := range bodies {
		assert.Equal(t, stdout, b)
		got++
	}
	assert.Equal(t, n*4, got)
}

// Whatever a scraper asks for (Prometheus 3 asks for OpenMetrics first,
// gzip always), the answer is the text format 0.0.4 under its own
// Content-Type, uncompressed and saying so: no "# EOF", no
// Content-Encoding.
func TestMetricsHandlerNegotiation(t *testing.T) {
	srv, _ := bundleMetricsServer(t)
	for _, tc := range []struct{ accept, encoding string }{
		{"", ""},
		{"text/plain;version=0.0.4", ""},
		{"application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.6,application/openmetrics-text;version=0.0.1;q=0.5,text/plain;version=1.0.0;escaping=allow-utf-8;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2", "gzip"},
		{"application/openmetrics-text", "gzip, deflate, br"},
		{"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited", "identity"},
	} {
		req, err := http.NewRequest(http.MethodGet, srv.URL+"/metrics", nil)
		require.NoError(t, err)
		if tc.accept != "" {
			req.Header.Set("Accept", tc.accept)
		}
		if tc.encoding != "" {
			req.Header.Set("Accept-Encoding", tc.encoding) // set by hand: the transport leaves the body as sent
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, tc.accept)
		assert.Equal(t, promtext.ContentType, resp.Header.Get("Content-Type"), tc.accept)
		assert.Empty(t, resp.Header.Get("Content-Encoding"), tc.encoding)
		_, err = promtexttest.Parse(string(body))
		assert.NoError(t, err, tc.accept)
		assert.NotContains(t, string(body), "# EOF")
	}
}

// A series of empty labels is no series: kernel_info has no release label
// when the release could not be read, and a controller none of whose
// attributes could be read has no controller_info (its sysfs source says
// it failed, and holds_kernel_table_info says no-sysfs).
func TestMetricsNoEmptyLabels(t *testing.T) {
	snap := &nvmeapst.MetricsSnapshot{Generation: apst.Current, Controllers: []nvmeapst.ControllerMetrics{
		{Name: "nvme0", Model: "M", Firmware: "F", Transport: "pcie", State: "live", Holding: nvmeapst.HoldsNoPlan},
		{Name: "nvme1", Holding: nvmeapst.HoldsNoSysfs, Sources: []nvmeapst.SourceStatus{{Source: nvmeapst.SourceSysfs}}},
	}}
	var v metricsView
	b, err := v.render(snap)
	require.NoError(t, err)
	fams, err := promtexttest.Parse(string(b))
	require.NoError(t, err)
	for _, f := range fams {
		for _, s := range f.Samples {
			for l, val := range s.Labels {
				if val == "" {
					assert.Equal(t, "nvmeapst_scrape_source_success/device", f.Name+"/"+l, "only a machine source's device is empty")
				}
			}
		}
	}
	info := family(fams, "nvmeapst_controller_info")
	require.NotNil(t, info)
	require.Len(t, info.Samples, 1)
	assert.Equal(t, "nvme0", info.Samples[0].Labels["device"])
	k := family(fams, "nvmeapst_kernel_info")
	require.NotNil(t, k)
	require.Len(t, k.Samples, 1)
	assert.Equal(t, map[string]string{"generation": "current"}, k.Samples[0].Labels)
	assert.Contains(t, string(b), `nvmeapst_holds_kernel_table_info{device="nvme1",why="no-sysfs"} 1`)
}

// A tree whose class/nvme lists no controller is refused by every command
// that reads the machine (exit 1, as a missing class/nvme is), and nothing
// is written.
func TestEmptyClassCommands(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sys")
	require.NoError(t, os.MkdirAll(filepath.Join(root, "class/nvme"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "module/nvme_core/parameters"), 0o755))
	out := t.TempDir()
	for _, args := range [][]string{{"metrics"}, {"metrics", "--textfile-dir", out}, {"inspect"}, {"collect", filepath.Join(out, "bundle")}} {
		code, stdout, stderr := apstctl(t, nil, append(args, "--root", root)...)
		assert.Equal(t, 1, code, "%v: %s", args, stderr)
		assert.Empty(t, stdout, args)
		assert.Contains(t, stderr, "class/nvme lists no controller", args)
		left, err := os.ReadDir(out)
		require.NoError(t, err)
		assert.Empty(t, left, "%v wrote nothing", args)
	}
}
