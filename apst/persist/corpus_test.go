package persist_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/persist"
	"github.com/nvmeapst/nvmeapst/apst/persist/udev"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// corpusModels reads the model of every capture of the corpus.
func corpusModels(t *testing.T) map[string]string {
	models := map[string]string{}
	root := testfixture.Path("corpus")
	require.NoError(t, filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".tsv") {
			return err
		}
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		if c, err := capture.ParseBytes(b); err == nil && c.Model != "" {
			models[path] = strings.TrimSpace(c.Model)
		}
		return nil
	}))
	require.Greater(t, len(models), testfixture.SmartctlReports(t))
	return models
}

// The udev rule persist keys on the 990 EVO Plus family reaches the 1 TB
// and the 4 TB model and no other drive of the corpus.
func TestEVOPlusRuleOnCorpus(t *testing.T) {
	c, err := capture.ParseBytes(testfixture.ReadFile(t, testfixture.Samsung990EVOPlus))
	require.NoError(t, err)
	glob, ok := persist.ModelFamily(c.Model)
	require.True(t, ok)
	o, err := persist.Render(persist.Setting{Bound: 25000, Scope: persist.ModelScope(glob)}, persist.FormUdev)
	require.NoError(t, err)
	rs, err := udev.ParseRules(o.Text)
	require.NoError(t, err)
	reaches := func(model string) bool {
		_, ok := udev.Tolerance(rs.Apply(udev.Drive{Model: model, Serial: "S1", HasTolerance: true}))
		return ok
	}
	assert.True(t, reaches("Samsung SSD 990 EVO Plus 1TB"))
	assert.True(t, reaches("Samsung SSD 990 EVO Plus 4TB"))
	assert.True(t, reaches("Samsung SSD 990 EVO Plus 2TB"))
	matched := 0
	for path, model := range corpusModels(t) {
		want := strings.HasPrefix(model, "Samsung SSD 990 EVO Plus ")
		assert.Equal(t, want, reaches(model), "%s: %q", path, model)
		if want {
			matched++
		}
	}
	assert.Positive(t, matched)
}
