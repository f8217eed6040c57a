package kernlog

// aerRecovery is the PCI core's error recovery of one function (AER's
// pcie_do_recovery, drivers/pci/pcie/err.c): it calls the error handlers
// of the drivers below the reporting port, nvme's among them, whose lines
// name their controller ("nvme nvme0: frozen state error detected, reset
// controller", "restart after slot reset"). The one controller whose
// handler speaks within the window of the report is the function's; two
// (a switch above both) tie it to neither.
type aerRecovery struct {
	fn   string // the function the report named
	line int    // the report's last line
	ts   Timestamp
	ctrl string // the controller whose handler spoke
	many bool   // and another's did too
	// endpoint: the report named an endpoint, not a port (s390's zPCI
	// error event), so the handler that speaks is its driver's even when
	// the nvme driver printed nothing under its address.
	endpoint bool
}

// sawAER notes a report of an error of function fn (a port's "AER: ...
// received: fn", the function's own "PCIe Bus Error"): the recovery of
// another function ends the last one's.
func (l *links) sawAER(st *state, fn string, ts Timestamp, line int) {
	if fn != l.aer.fn {
		l.flushAER(st)
		l.aer = aerRecovery{fn: fn}
	}
	l.aer.line, l.aer.ts = line, ts
}

// sawHandler notes nvme's error handler speaking for controller ctrl.
func (l *links) sawHandler(ctrl string, ts Timestamp, line int) {
	if l.aer.fn == "" || line-l.aer.line > scanLines {
		return
	}
	if d, ok := ts.sub(l.aer.ts); ok && (d > scanWindow || d < 0) {
		return
	}
	switch {
	case l.aer.ctrl == "":
		l.aer.ctrl = ctrl
	case l.aer.ctrl != ctrl:
		l.aer.many = true
	}
}

// flushAER ties the last recovery's function to the one controller whose
// handler spoke in it, when the nvme driver prints for that function and
// no line has tied it yet. It is not inlined (go:noinline): its copies
// took 2.5 KB of the page's app-log.wasm.
//
//go:noinline
func (l *links) flushAER(st *state) {
	a := l.aer
	l.aer = aerRecovery{}
	if a.fn == "" || a.ctrl == "" || a.many || !l.nvmeFns[a.fn] && !a.endpoint || l.other[a.fn] {
		return
	}
	if _, known := st.log.Addresses[a.fn]; known || len(st.log.Addresses) >= MaxAddresses {
		return
	}
	st.log.Addresses[a.fn] = a.ctrl
}

// aerHandler reports whether an AER recovery action is one of nvme's
// error handlers' (nvme_error_detected, nvme_slot_reset).
func aerHandler(action string) bool {
	return action == "reset controller" || action == "request disconnect" || action == "slot reset"
}
