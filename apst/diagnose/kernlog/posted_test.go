package kernlog_test

import (
	"cmp"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

var updatePosted = flag.Bool("update", false, "rewrite testdata/posted.golden")

// TestPostedLogs reads every real log of testdata/posted (its README says
// what they are) and compares what each reads to, its events by kind and
// its unread lines, with testdata/posted.golden: a change in how a real
// log reads shows in the diff (-update rewrites the file). Every log is
// read or refused with an error that says what it is; none may panic.
func TestPostedLogs(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "posted", "*.log"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 100)
	var b strings.Builder
	unread := 0
	for _, f := range files {
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		head, body, ok := strings.Cut(string(raw), "\n")
		require.True(t, ok && strings.HasPrefix(head, "# source: "), "%s: the first line names the source", f)
		fmt.Fprintf(&b, "%s:", filepath.Base(f))
		l, err := kernlog.ReadString(body, kernlog.Options{})
		if err != nil {
			fmt.Fprintf(&b, " refused: %v\n", err)
			continue
		}
		kinds := map[kernlog.Kind]int{}
		for _, in := range l.Incidents {
			for k, n := range in.Counts {
				kinds[k] += n
			}
		}
		for _, k := range slices.Sorted(func(yield func(kernlog.Kind) bool) {
			for k := range kinds {
				if !yield(k) {
					return
				}
			}
		}) {
			fmt.Fprintf(&b, " %s=%d", k, kinds[k])
		}
		if l.OtherDiskLines > 0 {
			// Another transport's disk failing: which disks, over what.
			seen := map[string]bool{}
			for _, d := range l.OtherDisks {
				if w := d.Transport + ":" + cmp.Or(d.Disk, d.Host); !seen[w] {
					seen[w] = true
					fmt.Fprintf(&b, " other-disk=%s", w)
				}
			}
			fmt.Fprintf(&b, " other-disk-lines=%d", l.OtherDiskLines)
		}
		fmt.Fprintf(&b, " unread=%d\n", l.UnreadLines)
		for _, u := range l.Unread {
			fmt.Fprintf(&b, "  unread line %d: %q\n", u.Line, u.Text)
		}
		unread += int(l.UnreadLines)
	}
	t.Logf("%d posted logs, %d failure-looking lines unread", len(files), unread)
	testfixture.GoldenLines(t, filepath.Join("testdata", "posted.golden"), b.String(), *updatePosted,
		"go test -run TestPostedLogs -update ./apst/diagnose/kernlog", true)
}
