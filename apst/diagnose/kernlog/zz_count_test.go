package kernlog_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

func TestZZCount(t *testing.T) {
	var p strings.Builder
	p.WriteString(render("dmesg"))
	for range 20 {
		for _, n := range dmesgNoise {
			p.WriteString(n + "\n")
		}
	}
	l, _ := kernlog.Read(context.Background(), &repeatReader{pattern: []byte(p.String()), left: 64 << 20}, kernlog.Options{})
	fmt.Println("incidents", len(l.Incidents), "events", l.Events, "dropInc", l.DroppedIncidents, "dropEv", l.DroppedEvents, "unread", l.UnreadLines, "backwards", l.Backwards)
}
