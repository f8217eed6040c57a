package diagnose

import "github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"

// tunnelFailed is the first event of l in which a Thunderbolt/USB4 host
// could not activate a PCIe tunnel (kernlog.ActionTunnelFailed), or nil.
func tunnelFailed(l *kernlog.Log) *kernlog.Event {
	return firstEvent(l, func(e *kernlog.Event) bool {
		return e.Kind == kernlog.LinkDown && e.Action == kernlog.ActionTunnelFailed
	})
}
