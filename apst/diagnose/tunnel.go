package diagnose

import "github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"

// tunnelFailed is the first event of l in which a Thunderbolt/USB4 host
// could not activate a PCIe tunnel (kernlog.ActionTunnelFailed), or nil.
func tunnelFailed(l *kernlog.Log) *kernlog.Event {
	for i := range l.Incidents {
		for j := range l.Incidents[i].Events {
			if e := &l.Incidents[i].Events[j]; e.Kind == kernlog.LinkDown && e.Action == kernlog.ActionTunnelFailed {
				return e
			}
		}
	}
	return nil
}
