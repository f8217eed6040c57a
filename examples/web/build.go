package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// appPackage is the WebAssembly program of the page.
const appPackage = "github.com/nvmeapst/nvmeapst/examples/web/app"

// The two engines of the page: app.wasm, loaded with the page, answers
// for a capture; app-log.wasm, the same program with the kernel log's
// diagnosis too (kernlog and diagnose, about 1 MiB more), is loaded the
// first time a log is pasted (and prefetched once the page is idle), so
// that a first load does not pay for it.
const (
	wasmName    = "app.wasm"
	wasmLogName = "app-log.wasm"
	// noLogTag builds app.wasm without the diagnosis.
	noLogTag = "nolog"
)

// BuildInfo describes a built page.
type BuildInfo struct {
	// Dir holds the static files.
	Dir string
	// WasmSize is the size of app.wasm in bytes, WasmGzipSize of
	// app.wasm.gz; WasmLogSize and WasmLogGzipSize those of app-log.wasm.
	WasmSize, WasmGzipSize       int64
	WasmLogSize, WasmLogGzipSize int64
}

// Build writes the static page to dir: the embedded HTML, CSS, JavaScript
// and example capture, app.wasm and app-log.wasm (the app package compiled
// for js/wasm with -trimpath and -ldflags=-s -w, which drop the symbol
// table and DWARF; app.wasm with the nolog tag) and wasm_exec.js from the
// Go installation that compiled them, and beside every file of a
// compressible type FILE.gz, its gzip encoding at the best compression, for
// a server to send with Content-Encoding: gzip (Handler does). It runs the
// go command found in PATH from inside this module.
func Build(ctx context.Context, dir string) (BuildInfo, error) {
	info := BuildInfo{Dir: dir}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return info, err
	}
	var written []string
	err := fs.WalkDir(static, "static", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := static.ReadFile(path)
		if err != nil {
			return err
		}
		name := strings.TrimPrefix(path, "static/")
		written = append(written, name)
		return writeFile(filepath.Join(dir, name), b)
	})
	if err != nil {
		return info, err
	}
	goroot, err := goOutput(ctx, nil, "env", "GOROOT")
	if err != nil {
		return info, err
	}
	var execJS []byte
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} { // Go 1.24+, then older
		if execJS, err = os.ReadFile(filepath.Join(goroot, p)); err == nil {
			break
		}
	}
	if err != nil {
		return info, fmt.Errorf("wasm_exec.js not found in GOROOT %s: %w", goroot, err)
	}
	if err := writeFile(filepath.Join(dir, "wasm_exec.js"), execJS); err != nil {
		return info, err
	}
	written = append(written, "wasm_exec.js", wasmName, wasmLogName)
	for _, w := range []struct {
		name string
		tags string
		size *int64
	}{{wasmName, noLogTag, &info.WasmSize}, {wasmLogName, "", &info.WasmLogSize}} {
		out, err := filepath.Abs(filepath.Join(dir, w.name))
		if err != nil {
			return info, err
		}
		if _, err := goOutput(ctx, []string{"GOOS=js", "GOARCH=wasm"}, "build", "-trimpath", "-ldflags=-s -w", "-tags="+w.tags, "-o", out, appPackage); err != nil {
			return info, err
		}
		st, err := os.Stat(out)
		if err != nil {
			return info, err
		}
		*w.size = st.Size()
	}
	if err := gzipFiles(dir, written); err != nil {
		return info, err
	}
	for _, w := range []struct {
		name string
		size *int64
	}{{wasmName + ".gz", &info.WasmGzipSize}, {wasmLogName + ".gz", &info.WasmLogGzipSize}} {
		st, err := os.Stat(filepath.Join(dir, w.name))
		if err != nil {
			return info, err
		}
		*w.size = st.Size()
	}
	return info, nil
}

// compressible are the extensions of the files gzipFiles encodes.
var compressible = []string{".wasm", ".js", ".html", ".css", ".txt"}

// gzipFiles writes NAME.gz beside each compressible file of names in dir.
func gzipFiles(dir string, names []string) error {
	for _, name := range names {
		if !isCompressible(name) {
			continue
		}
		path := filepath.Join(dir, name)
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		if err != nil {
			return err
		}
		if _, err := zw.Write(b); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		if err := writeFile(path+".gz", buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

func isCompressible(path string) bool {
	for _, ext := range compressible {
		if strings.HasSuffix(path, ext) {
			return true
		}
	}
	return false
}

// goOutput runs the go command with extra environment and returns its
// trimmed standard output; its standard error is in the error.
func goOutput(ctx context.Context, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return strings.TrimSpace(out.String()), nil
}

func writeFile(path string, b []byte) error {
	return os.WriteFile(path, b, 0o644)
}
