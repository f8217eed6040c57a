package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/internal/promtext"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// textfileName is the file apstctl metrics --textfile-dir writes.
const textfileName = "nvmeapst.prom"

// The timeouts of apstctl metrics --listen: a scrape is a few hundred
// microseconds, so every phase of a request is short, and an idle
// keep-alive connection is closed after a minute (Prometheus scrapes every
// 15 s to 1 min).
const (
	listenReadHeaderTimeout = 5 * time.Second
	listenReadTimeout       = 10 * time.Second
	listenWriteTimeout      = 10 * time.Second
	listenIdleTimeout       = 60 * time.Second
	listenShutdownTimeout   = 5 * time.Second
)

func metricsCommand() *command {
	fs := newFlagSet("metrics")
	root := addRootFlag(fs, "read the bundle written by apstctl collect DIR (or a sysfs tree) at DIR instead of the live system")
	dir := fs.String("textfile-dir", "DIR", "", "write "+textfileName+" into DIR (node_exporter's --collector.textfile.directory), replaced atomically, instead of standard output")
	listen := fs.String("listen", "ADDR", "", "serve the metrics over HTTP at ADDR (HOST:PORT; a bare :PORT listens on localhost) on /metrics, until a signal")
	format := addOutputFormat(fs)
	c := &command{
		name:      "metrics",
		usageLine: "metrics [flags]",
		short:     "this machine's APST facts in the Prometheus text format, for node_exporter or a scrape",
		long: `
Prints, in the Prometheus text exposition format (version 0.0.4), per NVMe controller: whether the
kernel has APST enabled, the latency bound in effect, the deepest state of the kernel's table with its
exit latency and maximum power (an upper bound on idle power), whether the drive holds that table and
why not, the APST quirks applied, the PCI function's d3cold_allowed, runtime PM and ASPM L1, the
diag/ counters of Linux 7.2, and unsafe shutdowns and error-log entries from the SMART / Health log;
with the kernel release, the controller's model and firmware, and per source whether it could be read
(a file the kernel does not have is not exposed, never a failed source). Labels join node_exporter's
node_nvme_info (device) and node_pcidevice_* (segment, bus, device, function). See docs/metrics.md.
--textfile-dir writes the file node_exporter's textfile collector reads, atomically; --listen serves
/metrics itself. -o json prints the same values as JSON (one scrape, to standard output or --output).`,
		examples: []string{
			"metrics --root testdata/bundle",
			"metrics --textfile-dir /var/lib/node_exporter/textfile_collector",
			"metrics --listen localhost:9860",
		},
		flags:   fs,
		minArgs: 0, maxArgs: 0,
	}
	c.run = func(ctx context.Context, x *invocation, _ []string) error {
		if *dir != "" && *listen != "" {
			return usagef("--textfile-dir and --listen contradict each other: give one")
		}
		if where := fs.firstGiven("textfile-dir", "listen"); where != "" {
			if format.json {
				return usagef("--%s and -o json contradict each other: node_exporter and Prometheus read the text format only", where)
			}
			if fs.report != nil && fs.report.path != "" {
				return usagef("--%s and --output contradict each other: give one", where)
			}
		}
		if *dir != "" {
			if fi, err := os.Stat(*dir); err != nil {
				return inputErr(fmt.Errorf("--textfile-dir: %w", err))
			} else if !fi.IsDir() {
				return inputErr(fmt.Errorf("--textfile-dir: %s is not a directory", *dir))
			}
		}
		var addr string
		if *listen != "" {
			a, err := listenAddr(*listen)
			if err != nil {
				return usagef("--listen: %v", err)
			}
			addr = a
		}
		sys, err := openSystem(*root)
		if err != nil {
			return err
		}
		s := newScraper(sys)
		defer s.r.Close()
		switch {
		case addr != "":
			return serveMetrics(ctx, x, s, addr)
		case *dir != "":
			return writeTextfile(ctx, s, filepath.Join(*dir, textfileName))
		}
		if format.json {
			if err := s.r.Read(ctx, &s.snap); err != nil {
				return systemError(err)
			}
			return writeJSON(x.out, metricsJSONView(&s.snap))
		}
		b, err := s.scrape(ctx)
		if err != nil {
			return systemError(err)
		}
		_, err = x.out.Write(b)
		return err
	}
	return c
}

// scraper scrapes a system and renders the exposition, reusing its
// buffers; one scrape at a time.
type scraper struct {
	mu   sync.Mutex
	r    *nvmeapst.MetricsReader
	snap nvmeapst.MetricsSnapshot
	view metricsView
}

func newScraper(sys *nvmeapst.System) *scraper {
	return &scraper{r: sys.NewMetricsReader()}
}

// scrape returns the exposition; the slice is valid until the next call,
// which the caller must hold mu across when it is shared.
func (s *scraper) scrape(ctx context.Context) ([]byte, error) {
	if err := s.r.Read(ctx, &s.snap); err != nil {
		return nil, err
	}
	return s.view.render(&s.snap)
}

// writeTextfile writes one scrape to path through a temporary file in its
// directory, renamed over it once complete (what node_exporter's textfile
// collector asks: it may read the directory at any moment). A failure or
// a signal removes the temporary file and leaves path as it was.
func writeTextfile(ctx context.Context, s *scraper, path string) error {
	b, err := s.scrape(ctx)
	if err != nil {
		return systemError(err)
	}
	return replaceTextfile(ctx, path, b)
}

// replaceTextfile writes b to path atomically (safeio.WriteFile: a
// temporary ".NAME.tmp-N" beside it, which the collector's *.prom never
// matches, renamed over it; mode 0644 less the umask), unless ctx is done
// by the time it is written: then the temporary file is removed and path
// left as it was.
func replaceTextfile(ctx context.Context, path string, b []byte) error {
	err := safeio.WriteFile(path, 0o644, func(w io.Writer) error {
		if _, err := w.Write(b); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return context.Cause(ctx) // a signal: the temporary file goes
		}
		return nil
	})
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("--textfile-dir: %w", err)
	}
	return err
}

// listenAddr checks ADDR of --listen: HOST:PORT, a bare :PORT meaning
// localhost (never every interface unless asked, e.g. 0.0.0.0:PORT).
func listenAddr(s string) (string, error) {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return "", fmt.Errorf("%q is not HOST:PORT (e.g. localhost:9860)", s)
	}
	if port == "" {
		return "", fmt.Errorf("%q has no port (e.g. localhost:9860)", s)
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		// 99999, or a service name /etc/services does not hold: a usage
		// error, not a failure of the machine.
		return "", fmt.Errorf("%q: port %q is not a port number from 0 to 65535 or a service name", s, port)
	}
	if host == "" {
		host = "localhost"
	}
	return net.JoinHostPort(host, port), nil
}

// metricsHandler serves the exposition on /metrics (GET and HEAD), a
// landing page that links to it on /, and nothing else.
func metricsHandler(s *scraper) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, r *http.Request) {
		if !getOrHead(w, r) {
			return
		}
		// The exposition is copied out of the scraper's buffer and written
		// outside its lock: a client that stops reading holds no other
		// scrape up for the write timeout.
		s.mu.Lock()
		b, err := s.scrape(r.Context())
		b = bytes.Clone(b)
		s.mu.Unlock()
		if err != nil {
			http.Error(w, "apstctl metrics: "+err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", promtext.ContentType)
		w.Header().Set("Content-Length", fmt.Sprint(len(b)))
		if r.Method == http.MethodGet {
			w.Write(b)
		}
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		if !getOrHead(w, r) {
			return
		}
		// A landing page, as node_exporter's: where the metrics are.
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Length", fmt.Sprint(len(metricsLanding)))
		if r.Method == http.MethodGet {
			io.WriteString(w, metricsLanding)
		}
	})
	return mux
}

// getOrHead reports whether r is a GET or a HEAD; for another method it
// answers 405 with the methods allowed.
func getOrHead(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	return false
}

// metricsLanding is the page at / of --listen.
const metricsLanding = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>apstctl metrics</title></head>
<body><h1>apstctl metrics</h1><p>NVMe APST facts of this machine in the Prometheus text format: <a href="/metrics">/metrics</a>.</p></body></html>
`

// serveMetrics serves /metrics at addr until ctx is done (a signal), then
// shuts the server down, letting a scrape in flight finish.
func serveMetrics(ctx context.Context, x *invocation, s *scraper, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("--listen: %w", err)
	}
	srv := &http.Server{
		Handler:           metricsHandler(s),
		ReadHeaderTimeout: listenReadHeaderTimeout,
		ReadTimeout:       listenReadTimeout,
		WriteTimeout:      listenWriteTimeout,
		IdleTimeout:       listenIdleTimeout,
		MaxHeaderBytes:    8 << 10,
		// A signal shuts the server down; it does not cancel the scrapes
		// in flight, which Shutdown lets finish.
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	if p := x.progress(); p != nil {
		fmt.Fprintf(p, "apstctl metrics: serving http://%s/metrics\n", ln.Addr())
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("--listen: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), listenShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("--listen: %w", err)
	}
	return context.Cause(ctx)
}
