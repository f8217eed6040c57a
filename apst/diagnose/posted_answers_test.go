package diagnose_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

var updateAnswers = flag.Bool("update-answers", false, "rewrite testdata/posted-answers.golden")

// TestPostedAnswers diagnoses every real log of kernlog's testdata/posted
// (logs users posted, collected for their shapes, their threads' endings
// mostly unknown) and compares the first answer of each, its layers, its
// grade and whether the diagnosis found a failure, with
// testdata/posted-answers.golden: a change to the rules shows what it does
// to two hundred real logs, not only to the labelled threads
// (-update-answers rewrites the file; read its diff). The file scores
// nothing: these logs have no labels.
func TestPostedAnswers(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("kernlog", "testdata", "posted", "*.log"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 100)
	var b strings.Builder
	for _, f := range files {
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		_, body, _ := strings.Cut(string(raw), "\n") // the source line
		fmt.Fprintf(&b, "%s: %s\n", filepath.Base(f), postedAnswer(body))
	}
	testfixture.GoldenLines(t, filepath.Join("testdata", "posted-answers.golden"), b.String(), *updateAnswers,
		"go test ./apst/diagnose -run TestPostedAnswers -update-answers", false)
}

// postedAnswer is a log's first answer in a few words: "refused", "no
// failure", or the first cause's group (the undecided groups joined by |)
// with its grade.
func postedAnswer(body string) string {
	l, err := kernlog.ReadString(body, kernlog.Options{})
	if err != nil {
		return "refused"
	}
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	if !d.Failure {
		if len(l.OtherDisks) > 0 {
			return "no failure; another transport's disk failed (" + l.OtherDisks[0].Transport + ")"
		}
		return "no failure"
	}
	names := make([]string, 0, 3)
	for _, g := range verdict(&d) {
		names = append(names, string(g))
	}
	grade := ""
	if len(d.Causes) > 0 {
		grade = " " + string(d.Causes[0].Likelihood)
	}
	return strings.Join(names, "|") + grade
}

// Every evidence item of the log (for or against a layer, and the lines
// named as a failure's consequences) quotes its line with the line's
// number, on each of the posted logs: the answer never paraphrases a line
// it does not show.
func TestPostedEvidenceQuotesItsLine(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("kernlog", "testdata", "posted", "*.log"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 100)
	quoted := 0
	for _, f := range files {
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		_, body, _ := strings.Cut(string(raw), "\n")
		l, err := kernlog.ReadString(body, kernlog.Options{})
		if err != nil {
			continue
		}
		d := diagnose.Diagnose(diagnose.Input{Log: l})
		lines := slices.Clone(d.Consequences)
		for _, c := range d.Causes {
			lines = append(lines, c.Evidence...)
			lines = append(lines, c.Against...)
		}
		for _, e := range lines {
			if !strings.HasPrefix(e.Source, "kernel log") {
				continue
			}
			quoted++
			assert.Positive(t, e.Line, "%s: %q has no line number", filepath.Base(f), e.Text)
			assert.NotEmpty(t, e.Quote, "%s: %q quotes nothing", filepath.Base(f), e.Text)
		}
	}
	assert.Greater(t, quoted, 100, "the posted logs' answers quote lines")
}
