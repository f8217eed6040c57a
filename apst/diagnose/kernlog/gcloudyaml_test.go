package kernlog_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// gcloud logging read prints entries as YAML by default, newest first, a
// "---" line between them, a long value wrapped over lines indented
// beyond its key (the layout of gcloud's own output, as posts of it
// show: fields in the order of their names, resource.labels nested).
func TestGcloudYAML(t *testing.T) {
	entry := func(i int, msg string, text bool) string {
		at := cloudAt.Add(time.Duration(i) * time.Second)
		var b strings.Builder
		fmt.Fprintf(&b, "insertId: 1x2y3z000%d\n", i)
		if !text {
			// Wrapped after 60 characters, as gcloud's YAML wraps a long
			// quoted value.
			v := "'" + at.Format("Jan _2 15:04:05") + " web-1 kernel: " + msg + "'"
			if len(v) > 60 {
				cut := strings.LastIndex(v[:60], " ")
				v = v[:cut] + "\n    " + v[cut+1:]
			}
			// A continuation that looks like a field's line, inside
			// the quote.
			v = strings.Replace(v, "will reset: ", "will\n    reset: ", 1)
			fmt.Fprintf(&b, "jsonPayload:\n  message: %s\n", v)
		}
		fmt.Fprintf(&b, "labels:\n  compute.googleapis.com/resource_name: web-1\nlogName: projects/acme/logs/syslog\n")
		fmt.Fprintf(&b, "receiveTimestamp: '%s'\n", at.Add(2*time.Second).Format(time.RFC3339Nano))
		fmt.Fprintf(&b, "resource:\n  labels:\n    instance_id: '8123456789012345678'\n    zone: us-central1-a\n  type: gce_instance\n")
		if text {
			fmt.Fprintf(&b, "textPayload: %q\n", msg)
		}
		fmt.Fprintf(&b, "timestamp: '%s'\n", at.Format(time.RFC3339Nano))
		return b.String()
	}
	for _, text := range []bool{false, true} {
		var entries []string
		for i := len(cloudFailure) - 1; i >= 0; i-- {
			entries = append(entries, entry(i, cloudFailure[i], text))
		}
		for _, lead := range []string{"", "---\n"} {
			doc := lead + strings.Join(entries, "---\n")
			l, err := kernlog.ReadString(doc, kernlog.Options{})
			require.NoError(t, err)
			require.Len(t, l.Incidents, 1, "textPayload %v, lead %q", text, lead)
			in := l.Incidents[0]
			assert.Equal(t, "nvme0", in.Controller)
			assert.Equal(t, map[kernlog.Kind]int{kernlog.ControllerDown: 1, kernlog.PowerSavingHint: 1, kernlog.ResumeFailure: 1, kernlog.ResetFailure: 1}, in.Counts)
			assert.Equal(t, cloudAt.Add(time.Second), in.Start.Wall)
			assert.True(t, l.NewestFirst)
			assert.Equal(t, []string{"web-1"}, l.Hosts)
			assert.Empty(t, l.Unread)
			lines := strings.Split(doc, "\n")
			for _, e := range in.Events {
				at := strings.TrimSpace(lines[int(l.Lines)-e.Line])
				assert.True(t, strings.HasPrefix(at, "message: ") || strings.HasPrefix(at, "textPayload: "), "line %d: %q", e.Line, at)
			}
		}
	}
	// YAML of another kind is read as text.
	_, err := kernlog.ReadString("---\nname: ps-max-latency-us\nvalue: 100000\n", kernlog.Options{})
	assert.ErrorIs(t, err, kernlog.ErrNotKernelLog)
}
