// Command web builds the APST page (a static site: index.html, style.css,
// app.js, an example capture, app.wasm compiled from ./app, and Go's
// wasm_exec.js copied from the Go installation) and serves it on localhost,
// or only writes it for any static host:
//
//	go run ./examples/web                  # build, then serve on http://127.0.0.1:8025/
//	go run ./examples/web -out site        # write the static files to site/ and exit
//
// Nothing is built into the repository: app.wasm (about 5 MB, 1.3 MB
// gzipped), app-log.wasm (the same with the kernel log's diagnosis, loaded
// when a log is pasted), their .gz encodings and wasm_exec.js (which must
// match the Go release that compiled the wasm) are produced at build time, so a clone needs no build step before
// go vet ./... or go test ./... The page computes everything in the
// browser; the server only hands out the files.
package main

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"strconv"
	"strings"
	"syscall"
	"time"
)

//go:embed static
var static embed.FS

func main() {
	os.Exit(serve(os.Args[1:]))
}

// serve builds the page and serves it, or writes it to -out; it returns the exit status.
func serve(args []string) int {
	fl := flag.NewFlagSet("web", flag.ContinueOnError)
	out := fl.String("out", "", "write the static files to `DIR` (created if needed) and exit, instead of serving")
	addr := fl.String("addr", "127.0.0.1:8025", "serve on `HOST:PORT` (localhost by default: the page needs no other machine)")
	fl.Usage = func() {
		fmt.Fprintf(fl.Output(), "usage: go run ./examples/web [-addr HOST:PORT | -out DIR]\n\n"+
			"Builds the APST page (GOOS=js GOARCH=wasm go build of ./examples/web/app, Go's wasm_exec.js,\n"+
			"the HTML, CSS and JavaScript) and serves it, or writes it to DIR for any static host.\n\n")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "web: unexpected argument %q\n", fl.Arg(0))
		fl.Usage()
		return 2
	}
	if *out != "" {
		addrSet := false
		fl.Visit(func(f *flag.Flag) { addrSet = addrSet || f.Name == "addr" })
		if addrSet {
			fmt.Fprintln(os.Stderr, "web: -addr is for serving; -out only writes the files")
			return 2
		}
	}
	var ln net.Listener
	if *out == "" {
		// Listen first: a taken port is said before a build of up to half a minute.
		l, err := net.Listen("tcp", *addr)
		if err != nil {
			fmt.Fprintln(os.Stderr, "web:", err)
			return 1
		}
		defer l.Close()
		ln = l
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	dir := *out
	if dir == "" {
		tmp, err := os.MkdirTemp("", "apstweb-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "web:", err)
			return 1
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	fmt.Fprintln(os.Stderr, "web: building the page (GOOS=js GOARCH=wasm go build)...")
	info, err := Build(ctx, dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "web:", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "web: %s: app.wasm %d bytes (%d gzipped), app-log.wasm %d bytes (%d gzipped)\n",
		dir, info.WasmSize, info.WasmGzipSize, info.WasmLogSize, info.WasmLogGzipSize)
	if *out != "" {
		return 0
	}
	srv := server(Handler(os.DirFS(dir)))
	fmt.Printf("serving the APST page on http://%s/ (Ctrl-C to stop)\n", ln.Addr())
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(os.Stderr, "web:", err)
		return 1
	}
	return 0
}

// server serves h, letting go of a client that is slow to send its
// request's headers or holds a kept-alive connection idle.
func server(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
}

// Handler serves the built page from site with the headers a static host
// should send too: the content security policy of index.html (scripts and
// connections to this origin only, WebAssembly compilation allowed), no
// referrer, no sniffing. A file with a precompressed NAME.gz beside it
// (Build writes them) is sent as that, with Content-Encoding: gzip and the
// file's own Content-Type, to a client whose Accept-Encoding takes gzip;
// the plain file to any other. The precompressed file is always sent
// whole (200, Accept-Ranges: none): a Range is answered in ranges of the
// plain file, to a client that does not take gzip. It answers GET and HEAD
// only (405 to any other method: the site takes nothing), a name no file
// can have (a NUL, a component too long for the system) with 404 as any
// missing file, not 500, and a file asked for as a directory (NAME/) with
// the file server's redirect to NAME, gzip or not.
func Handler(site fs.FS) http.Handler {
	files := http.FileServerFS(site)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-cache")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		asDir := strings.HasSuffix(r.URL.Path, "/")
		if name == "" {
			name, asDir = "index.html", false
		}
		if _, err := fs.Stat(site, name); err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) {
			http.NotFound(w, r) // the file server would answer 500
			return
		}
		if isCompressible(name) {
			h.Add("Vary", "Accept-Encoding")
			if !asDir && acceptsGzip(r.Header.Values("Accept-Encoding")) {
				if gz, err := fs.Stat(site, name+".gz"); err == nil && gz.Mode().IsRegular() {
					if b, err := fs.ReadFile(site, name+".gz"); err == nil {
						ctype := mime.TypeByExtension(path.Ext(name))
						if ctype == "" {
							ctype = "application/octet-stream"
						}
						h.Set("Content-Type", ctype)
						h.Set("Content-Encoding", "gzip")
						// The encoded file is sent whole: a Range asks for
						// bytes of the gzip stream, which no client
						// decodes as parts (curl --compressed fails on a
						// multipart/byteranges body, a lone middle range
						// is no gzip stream). Ignoring Range is allowed
						// (RFC 9110 §14.2); a client that wants ranges
						// asks for the identity encoding, and gets them.
						r = r.Clone(r.Context())
						r.Header.Del("Range")
						r.Header.Del("If-Range")
						http.ServeContent(noRanges{w}, r, name, gz.ModTime(), bytes.NewReader(b))
						return
					}
				}
			}
		}
		files.ServeHTTP(w, r)
	})
}

// noRanges is a ResponseWriter that answers Accept-Ranges: none where
// http.ServeContent says bytes: the precompressed file is never sent in
// ranges (Handler).
type noRanges struct{ http.ResponseWriter }

func (w noRanges) WriteHeader(code int) {
	if w.Header().Get("Accept-Ranges") != "" {
		w.Header().Set("Accept-Ranges", "none")
	}
	w.ResponseWriter.WriteHeader(code)
}

// acceptsGzip reports whether Accept-Encoding header values take gzip: the
// coding gzip (or x-gzip, or *) listed without q=0.
func acceptsGzip(values []string) bool {
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			coding, params, _ := strings.Cut(part, ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			if coding != "gzip" && coding != "x-gzip" && coding != "*" {
				continue
			}
			if k, v, ok := strings.Cut(strings.TrimSpace(params), "="); ok && strings.TrimSpace(k) == "q" {
				if q, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && q == 0 {
					continue
				}
			}
			return true
		}
	}
	return false
}

// csp is the policy index.html also states in its meta element.
const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'"
