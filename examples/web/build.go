package main

import (
	"bytes"
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

// BuildInfo describes a built page.
type BuildInfo struct {
	// Dir holds the static files.
	Dir string
	// WasmSize is the size of app.wasm in bytes.
	WasmSize int64
}

// Build writes the static page to dir: the embedded HTML, CSS, JavaScript
// and example capture, app.wasm (the app package compiled for js/wasm with
// -trimpath and -ldflags=-s -w, which drop the symbol table and DWARF) and
// wasm_exec.js from the Go installation that compiled it. It runs the go
// command found in PATH from inside this module.
func Build(ctx context.Context, dir string) (BuildInfo, error) {
	info := BuildInfo{Dir: dir}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return info, err
	}
	err := fs.WalkDir(static, "static", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := static.ReadFile(path)
		if err != nil {
			return err
		}
		return writeFile(filepath.Join(dir, strings.TrimPrefix(path, "static/")), b)
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
	wasm, err := filepath.Abs(filepath.Join(dir, "app.wasm"))
	if err != nil {
		return info, err
	}
	if _, err := goOutput(ctx, []string{"GOOS=js", "GOARCH=wasm"}, "build", "-trimpath", "-ldflags=-s -w", "-o", wasm, appPackage); err != nil {
		return info, err
	}
	st, err := os.Stat(wasm)
	if err != nil {
		return info, err
	}
	info.WasmSize = st.Size()
	return info, nil
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
