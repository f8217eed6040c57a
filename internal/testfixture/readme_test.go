package testfixture_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every path testdata/README.md names exists: under testdata/, under
// testdata/bundle/ (the files a bundle holds, NAME standing for a
// controller), or from the module root; and every directory of testdata/
// is described.
func TestTestdataREADMEPaths(t *testing.T) {
	dir := testfixture.Dir()
	root := filepath.Dir(dir)
	b, err := os.ReadFile(filepath.Join(dir, "README.md"))
	require.NoError(t, err)
	readme := string(b)
	pathLike := regexp.MustCompile(`^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]*)*$`)
	named := 0
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(readme, -1) {
		p := m[1]
		if !pathLike.MatchString(p) || !strings.Contains(p, "/") && !strings.Contains(p, "_test.go") && filepath.Ext(p) != ".md" && filepath.Ext(p) != ".sh" {
			continue
		}
		named++
		pattern := strings.ReplaceAll(strings.TrimSuffix(p, "/"), "NAME", "*")
		found := false
		for _, base := range []string{dir, filepath.Join(dir, "bundle"), root} {
			if ms, _ := filepath.Glob(filepath.Join(base, pattern)); len(ms) > 0 {
				found = true
				break
			}
		}
		assert.True(t, found, "testdata/README.md names %s, which does not exist", p)
	}
	assert.GreaterOrEqual(t, named, 8, "paths read from the README")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		if e.IsDir() {
			assert.Contains(t, readme, "`"+e.Name()+"/`", "testdata/README.md describes %s/", e.Name())
		}
	}
}
