package diagnose_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

func TestZZRaw(t *testing.T) {
	files, _ := filepath.Glob(os.Getenv("RAWDIR") + "/*.log")
	for _, f := range files {
		b, _ := os.ReadFile(f)
		s := string(b)
		if i := strings.IndexByte(s, '\n'); strings.HasPrefix(s, "# source:") && i >= 0 {
			s = s[i+1:]
		}
		l, err := kernlog.ReadString(s, kernlog.Options{})
		if err != nil {
			fmt.Printf("== %s\n   ERR %v\n", filepath.Base(f), err)
			continue
		}
		d := diagnose.Diagnose(diagnose.Input{Log: l})
		kinds := map[kernlog.Kind]int{}
		for _, in := range l.Incidents {
			for k, c := range in.Counts {
				kinds[k] += c
			}
		}
		fmt.Printf("== %s lines=%d events=%d incidents=%d unread=%d\n   %v\n   %s\n", filepath.Base(f), l.Lines, l.Events, len(l.Incidents), len(l.Unread), kinds, d.Summary)
		for _, u := range l.Unread {
			fmt.Printf("   UNREAD %d: %q\n", u.Line, u.Text)
		}
	}
}
