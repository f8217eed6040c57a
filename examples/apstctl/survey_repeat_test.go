package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A file named more than once (the same directory twice, spelt otherwise,
// through a symbolic link, a directory and a directory inside it, a file
// and its directory) is surveyed once: the counts are those of one walk.
func TestSurveyCountsEachFileOnce(t *testing.T) {
	a, _ := surveyShards(t)
	sub := filepath.Join(a, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	ents, err := os.ReadDir(a)
	require.NoError(t, err)
	var one string
	for _, e := range ents {
		if !e.IsDir() && e.Name() != "MANIFEST.tsv" {
			one = e.Name()
			break
		}
	}
	require.NoError(t, os.Rename(filepath.Join(a, one), filepath.Join(sub, one)))
	once, _ := surveyRunJSON(t, a)
	require.Greater(t, once.Summary.Drives, 10)

	cases := [][]string{
		{a, a},
		{a, a + string(filepath.Separator) + "."},
		{a, sub},
		{sub, a},
		{a, filepath.Join(sub, one)},
	}
	if runtime.GOOS != "windows" {
		link := filepath.Join(t.TempDir(), "link")
		require.NoError(t, os.Symlink(a, link))
		cases = append(cases, []string{a, link}, []string{link, a, a})
	}
	for _, args := range cases {
		got, _ := surveyRunJSON(t, args...)
		assert.Equal(t, once.Summary.Drives, got.Summary.Drives, "%q", args)
		assert.Equal(t, once.Summary.UnreadableFiles, got.Summary.UnreadableFiles, "%q", args)
		assert.Equal(t, once.Summary.SkippedFiles, got.Summary.SkippedFiles, "%q", args)
		assert.Len(t, got.Drives, once.Summary.Drives, "%q", args)
	}
}
