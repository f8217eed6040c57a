package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The package of examples/packaging/nfpm.yaml holds the binary, every man
// page of docs/man, the bash, zsh and fish completions, both systemd units
// of examples/metrics; every source is in the repository or made by
// build.sh, and no destination is used twice.
func TestPackageContents(t *testing.T) {
	inRepoRoot(t)
	b, err := os.ReadFile("examples/packaging/nfpm.yaml")
	require.NoError(t, err)
	build, err := os.ReadFile("examples/packaging/build.sh")
	require.NoError(t, err)
	contents := map[string]string{} // dst -> src
	var src string
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if v, ok := strings.CutPrefix(l, "- src: "); ok {
			src = v
		} else if v, ok := strings.CutPrefix(l, "dst: "); ok {
			require.NotEmpty(t, src, "dst %s without src", v)
			_, dup := contents[v]
			assert.False(t, dup, "%s twice", v)
			contents[v] = src
			src = ""
		}
	}
	for dst, s := range contents {
		rel := strings.TrimPrefix(s, "./")
		if strings.HasPrefix(rel, "dist/") {
			assert.Contains(t, string(build), rel, "%s: build.sh does not make %s", dst, rel)
			continue
		}
		_, err := os.Stat(rel)
		assert.NoError(t, err, dst)
	}
	want := map[string]string{
		"/usr/bin/apstctl": "./dist/apstctl",
		"/usr/share/bash-completion/completions/apstctl":    "./dist/completions/apstctl.bash",
		"/usr/share/zsh/vendor-completions/_apstctl":        "./dist/completions/_apstctl",
		"/usr/share/fish/vendor_completions.d/apstctl.fish": "./dist/completions/apstctl.fish",
		"/usr/lib/systemd/system/nvmeapst-metrics.service":  "./examples/metrics/nvmeapst-metrics.service",
		"/usr/lib/systemd/system/nvmeapst-metrics.timer":    "./examples/metrics/nvmeapst-metrics.timer",
	}
	pages, err := filepath.Glob("docs/man/*.1")
	require.NoError(t, err)
	require.Len(t, pages, len(commands())+1)
	for _, p := range pages {
		want["/usr/share/man/man1/"+filepath.Base(p)] = "./" + p
	}
	for dst, s := range want {
		assert.Equal(t, s, contents[dst], dst)
	}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		assert.Contains(t, string(build), "completion "+shell, shell)
	}
}
