package kernlog_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// doneAfter is a context that turns done once Err was asked n times: a
// deadline that passes while a document is read, without a clock.
type doneAfter struct {
	context.Context
	n int
}

func (c *doneAfter) Err() error {
	if c.n--; c.n < 0 {
		return context.DeadlineExceeded
	}
	return nil
}

// A JSON document (aws logs filter-log-events) or gcloud's YAML is read
// whole, record by record: a ctx done on the way stops the reading and
// Read returns its error, as it does between lines of a log.
func TestReadDocumentHonoursContext(t *testing.T) {
	var events []any
	var yaml strings.Builder
	for i := range 20000 {
		at := cloudAt.Add(time.Duration(i) * time.Millisecond)
		m := fmt.Sprintf("nvme nvme0: I/O tag %d (0000) QID 1 timeout, aborting", i%1024)
		events = append(events, map[string]any{"logStreamName": "web-1", "timestamp": at.UnixMilli(), "message": m})
		fmt.Fprintf(&yaml, "---\ninsertId: x%d\ntextPayload: '%s'\ntimestamp: '%s'\n", i, m, at.Format(time.RFC3339Nano))
	}
	for name, doc := range map[string]string{
		"aws logs filter-log-events": indented(t, map[string]any{"events": events}, "  "),
		"gcloud logging read":        yaml.String(),
	} {
		t.Run(name, func(t *testing.T) {
			whole, err := kernlog.ReadString(doc, kernlog.Options{})
			require.NoError(t, err)
			require.Greater(t, whole.Events, int64(10000))
			ctx := &doneAfter{Context: context.Background(), n: 3}
			l, err := kernlog.Read(ctx, strings.NewReader(doc), kernlog.Options{})
			assert.ErrorIs(t, err, context.DeadlineExceeded)
			assert.ErrorContains(t, err, "kernlog: ")
			require.NotNil(t, l)
			assert.Less(t, l.Events, whole.Events/2, "stopped early")
		})
	}
}
