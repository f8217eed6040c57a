package kernlog

import "strings"

// foreignKernel names the other operating system's kernel a message is
// from, when it is one whose NVMe lines users paste as Linux's, or "":
// FreeBSD's nvme(4) ("nvme0: Resetting controller due to a timeout.",
// "nvme0: aborting outstanding i/o", "ABORTED - BY REQUEST (00/07)", its
// disks nvd0 and nda0) and VMware ESXi's vmkernel log ("cpu1:37205)nvme:
// NvmeCtrlr_Timeout:2555:..."), by the lines those kernels print.
func foreignKernel(msg string) string {
	// Both kernels' lines start with the device's bare name ("nvme0: ",
	// "nvd0: ") or the CPU ("cpu1:37205)"); Linux's nvme lines start
	// "nvme nvme0: " or "nvme 0000:...": most lines are passed over here.
	switch {
	case len(msg) < 6:
		return ""
	case msg[0] == 'c':
	case msg[0] == 'n' && (isDigit(msg[3]) || strings.HasPrefix(msg, "nvme") && isDigit(msg[4])):
	default:
		return ""
	}
	switch {
	case strings.Contains(msg, "Resetting controller due to a timeout") || strings.Contains(msg, "aborting outstanding i/o") ||
		strings.Contains(msg, "ABORTED - BY REQUEST") || bsdDisk(msg):
		return "FreeBSD"
	case vmkernelLine(msg):
		return "VMware ESXi"
	}
	return ""
}

// bsdDisk reports whether a message starts with FreeBSD's NVMe disk name
// ("nvd0: ", "nda0: ").
func bsdDisk(msg string) bool {
	for _, p := range []string{"nvd", "nda"} {
		if rest, ok := strings.CutPrefix(msg, p); ok {
			i := 0
			for i < len(rest) && isDigit(rest[i]) {
				i++
			}
			return i > 0 && strings.HasPrefix(rest[i:], ": ")
		}
	}
	return false
}

// vmkernelLine reports whether a message is ESXi's vmkernel's, after its
// time: "cpu1:37205)" (the CPU and the world) before the text.
func vmkernelLine(msg string) bool {
	rest, ok := strings.CutPrefix(msg, "cpu")
	if !ok {
		return false
	}
	i := 0
	for i < len(rest) && isDigit(rest[i]) {
		i++
	}
	if i == 0 || i >= len(rest) || rest[i] != ':' {
		return false
	}
	j := i + 1
	for j < len(rest) && isDigit(rest[j]) {
		j++
	}
	return j > i+1 && j < len(rest) && rest[j] == ')'
}
