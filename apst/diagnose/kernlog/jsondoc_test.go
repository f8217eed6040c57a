package kernlog_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// cloudFailure is the failure the JSON documents below carry.
var cloudFailure = []string{
	"nvme nvme0: pci function 0000:04:00.0",
	"nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10",
	"nvme nvme0: Does your device have a faulty power saving mode enabled?",
	"nvme 0000:04:00.0: Unable to change power state from D3cold to D0, device inaccessible",
	"nvme nvme0: Disabling device after reset failure: -19",
}

var cloudAt = time.Date(2024, 12, 5, 4, 55, 50, 0, time.UTC)

// indented is v as the clouds' tools print it, indented.
func indented(t *testing.T, v any, indent string) string {
	b, err := json.MarshalIndent(v, "", indent)
	require.NoError(t, err)
	return string(b) + "\n"
}

// The clouds' tools print a log as one JSON document by default: aws logs
// filter-log-events (an object of events, 4 blanks a level), gcloud
// logging read --format=json (an array of entries, newest first, 2
// blanks), az monitor log-analytics query (an array of rows) and aws logs
// get-query-results (rows of field and value pairs). Each reads to the
// failure, with its times and host, each event at the line its record
// starts on; printed on one line, a record a line as jq -c prints them.
func TestJSONDocuments(t *testing.T) {
	type obj = map[string]any
	var events, entries, rows, results []any
	for i, m := range cloudFailure {
		at := cloudAt.Add(time.Duration(i) * time.Second)
		events = append(events, obj{"logStreamName": "i-0a1b2c3d4e5f60718", "timestamp": at.UnixMilli(), "message": m, "ingestionTime": at.UnixMilli() + 800, "eventId": "38170000000000000000000000000000000000000000000000000000"})
		entries = append([]any{obj{"insertId": "1x2y3z", "jsonPayload": obj{"message": at.Format("Jan _2 15:04:05") + " web-1 kernel: " + m},
			"labels": obj{"compute.googleapis.com/resource_name": "web-1"}, "logName": "projects/acme/logs/syslog",
			"resource":  obj{"labels": obj{"instance_id": "8123456789012345678", "zone": "us-central1-a"}, "type": "gce_instance"},
			"timestamp": at.Format(time.RFC3339Nano)}}, entries...)
		rows = append(rows, obj{"Computer": "vm-web-01", "Facility": "kern", "ProcessName": "kernel", "SyslogMessage": m, "TableName": "PrimaryResult", "TimeGenerated": at.Format(time.RFC3339Nano)})
		results = append(results, []any{obj{"field": "@timestamp", "value": at.Format("2006-01-02 15:04:05.000")}, obj{"field": "@message", "value": m}, obj{"field": "@logStream", "value": "i-0a1b2c3d4e5f60718"}, obj{"field": "@ptr", "value": "CmAKJgoi"}})
	}
	for _, tc := range []struct {
		name, doc, host string
		newestFirst     bool
	}{
		{"aws logs filter-log-events", indented(t, obj{"events": events, "searchedLogStreams": []any{obj{"logStreamName": "i-0a1b2c3d4e5f60718", "searchedCompletely": true}}}, "    "), "i-0a1b2c3d4e5f60718", false},
		{"aws logs filter-log-events, on one line", indented(t, obj{"events": events}, ""), "i-0a1b2c3d4e5f60718", false},
		{"gcloud logging read --format=json", indented(t, entries, "  "), "web-1", true},
		{"az monitor log-analytics query", indented(t, rows, "  "), "vm-web-01", false},
		{"aws logs get-query-results", indented(t, obj{"results": results, "status": "Complete"}, "    "), "i-0a1b2c3d4e5f60718", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(tc.name, "one line") {
				require.Greater(t, strings.Count(tc.doc, "\n"), 2*len(cloudFailure))
			}
			l, err := kernlog.ReadString(tc.doc, kernlog.Options{})
			require.NoError(t, err)
			require.Len(t, l.Incidents, 1)
			in := l.Incidents[0]
			assert.Equal(t, "nvme0", in.Controller)
			assert.Equal(t, "0000:04:00.0", in.PCI)
			assert.Equal(t, map[kernlog.Kind]int{kernlog.ControllerDown: 1, kernlog.PowerSavingHint: 1, kernlog.ResumeFailure: 1, kernlog.ResetFailure: 1}, in.Counts)
			assert.True(t, in.Start.HasWall)
			assert.Equal(t, cloudAt.Add(time.Second), in.Start.Wall)
			assert.Equal(t, []string{tc.host}, l.Hosts)
			assert.Equal(t, tc.newestFirst, l.NewestFirst)
			assert.Empty(t, l.Unread)
			lines := strings.Split(tc.doc, "\n")
			for _, e := range in.Events {
				assert.True(t, strings.HasPrefix(e.Raw, "{"), e.Raw)
				if strings.Contains(tc.name, "one line") {
					continue
				}
				n := e.Line
				if l.NewestFirst {
					n = int(l.Lines) + 1 - e.Line
				}
				start := strings.TrimSpace(lines[n-1])
				assert.True(t, start == "{" || start == "[", "line %d, where the record starts: %q", n, start)
			}
		})
	}
}

// A JSON document that holds no record is no kernel log, and a document
// nested past any log's depth is read without harm.
func TestJSONDocumentsWithoutRecords(t *testing.T) {
	for _, doc := range []string{
		"{\n  \"configs\": [\n    {\"name\": \"ps-max-latency-us\", \"value\": 100000}\n  ]\n}\n",
		"[\n  {\"level\": \"info\", \"msg\": \"listening on :8080\"}\n]\n",
	} {
		_, err := kernlog.ReadString(doc, kernlog.Options{})
		assert.ErrorIs(t, err, kernlog.ErrNotKernelLog, doc)
	}
	// Records deeper than any log's are not looked for: such a document
	// is read line by line, as text.
	for _, doc := range []string{
		strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n",
		"[\n" + strings.Repeat(`{"a":`, 3000) + `{"message":"nvme nvme0: controller is down; will reset: CSTS=0x1, PCI_STATUS=0x10"}` + strings.Repeat("}", 3000) + "\n]\n",
	} {
		l, _ := kernlog.ReadString(doc, kernlog.Options{})
		require.NotNil(t, l)
		assert.LessOrEqual(t, l.Events, int64(1))
	}
}
