package nvmeapst_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// importerMain is an outside module's whole program: only what `go doc
// apst` shows first (powerstate.DecodeIdentify, apst.DefaultParams,
// apst.Build), no quirk call of its own.
const importerMain = `package main

import (
	"fmt"
	"os"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

func main() {
	for _, path := range os.Args[1:] {
		img, err := os.ReadFile(path)
		if err != nil {
			panic(err)
		}
		c, err := powerstate.DecodeIdentify(img)
		if err != nil {
			panic(err)
		}
		plan, err := apst.Build(&c, apst.DefaultParams(apst.Current))
		if err != nil {
			panic(err)
		}
		fmt.Println(c.Model, plan.MaxPS, plan.Table[0], plan.Table[3])
	}
}
`

// TestOutsideModule builds importerMain as a module of its own (the library
// through a replace directive) and checks that it prints the kernel's
// answer: max PS 3 for the Intel 600p (NO_DEEPEST_PS by PCI ID 8086:f1a5),
// and the 990 EVO Plus's ps3-then-ps4 table.
func TestOutsideModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with the go command")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	dir := t.TempDir()
	gomod, err := os.ReadFile("go.mod")
	require.NoError(t, err)
	goLine := ""
	for _, l := range strings.Split(string(gomod), "\n") {
		if strings.HasPrefix(l, "go ") {
			goLine = l
		}
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/importer\n\n"+goLine+
		"\n\nrequire github.com/nvmeapst/nvmeapst v0.0.0\n\nreplace github.com/nvmeapst/nvmeapst => "+root+"\n"), 0o644))
	sum, err := os.ReadFile("go.sum")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(importerMain), 0o644))

	cmd := exec.Command(goCmd, "run", ".",
		filepath.Join(root, "testdata/identify/intel-ssdpekkw256g7-PSF109C.bin"),
		filepath.Join(root, "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Equal(t, "INTEL SSDPEKKW256G7 3 ->ps3@100ms -\n"+
		"Samsung SSD 990 EVO Plus 1TB 4 ->ps3@100ms ->ps4@2000ms\n", string(out))
}
