package kernlog_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

func TestZZThreads(t *testing.T) {
	files, _ := filepath.Glob("../testdata/threads/*.log")
	for _, f := range files {
		b, _ := os.ReadFile(f)
		_, log, _ := strings.Cut(string(b), "\n---\n")
		l, err := kernlog.ReadString(log, kernlog.Options{})
		fmt.Printf("== %s err=%v lines=%d events=%d unread=%d boots=%d ns=%v\n", filepath.Base(f), err, l.Lines, l.Events, l.UnreadLines, l.Boots, l.Namespaces)
		for _, u := range l.Unread {
			fmt.Printf("   UNREAD %d %q\n", u.Line, u.Text)
		}
		for _, in := range l.Incidents {
			var ks []string
			for k, n := range in.Counts {
				ks = append(ks, fmt.Sprintf("%s:%d", k, n))
			}
			sort.Strings(ks)
			fmt.Printf("   %s pci=%s boot=%d %v\n", in.Name(), in.PCI, in.Boot, ks)
		}
	}
}
