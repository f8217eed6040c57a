// Package sniff tells what kind of input a file that a command refuses
// looks like, from its first bytes, so that the refusal can name it and
// the command that reads it: a kernel log, a block trace, an Identify
// Controller capture, a get-feature capture, a smartctl report, a survey
// report, a recommend result or a persistence file. It builds on the
// readers' own format detection (powerstate/capture, apst/analysis/trace)
// and sits below the command, so neither reader depends on the other or
// on the command. It is pure and safe for concurrent use.
package sniff

import (
	"bytes"

	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// Kind is a kind of input.
type Kind uint8

// The kinds Of tells.
const (
	Unknown Kind = iota
	KernelLog
	BlockTrace
	IdentifyImage
	IdentifyCapture
	SmartctlReport
	FeatureCapture
	SurveyReport
	RecommendResult
	PersistFile
)

// maxSniff bounds how much of the input Of looks at: the first lines of
// text, and a whole Identify image.
const maxSniff = 64 << 10

// Of tells what kind of input b looks like, from its first bytes; Unknown
// when it looks like none of them.
func Of(b []byte) Kind {
	head := b[:min(len(b), maxSniff)]
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	switch {
	case bytes.HasPrefix(t, []byte(`{"configs":`)) || bytes.HasPrefix(t, []byte("[1] ")) && bytes.Contains(head, []byte(": kernel ")):
		return SurveyReport
	case t0(t) == '{' && bytes.Contains(head, []byte(`"recommended_us"`)):
		return RecommendResult
	}
	if len(b) == powerstate.IdentifySize && powerstate.CheckIdentify(b) == nil {
		return IdentifyImage
	}
	if len(b) != powerstate.IdentifySize {
		switch f := capture.DetectFormat(head); f {
		case powerstate.FormatSmartctlText, powerstate.FormatSmartctlJSON:
			return SmartctlReport
		case powerstate.FormatNVMeCLIText, powerstate.FormatNVMeCLIJSON:
			return IdentifyCapture
		}
		if capture.DetectFeatureFormat(head) != capture.FeatureUnknown {
			return FeatureCapture
		}
	}
	if kernelLog(head) {
		return KernelLog
	}
	if !text(head) {
		return Unknown
	}
	if f, err := trace.Detect(head); err == nil && f != trace.FormatPlain && f != trace.FormatAuto {
		return BlockTrace // a plain trace (times alone) is any column of numbers
	}
	if persistFile(head) {
		return PersistFile
	}
	return Unknown
}

func t0(b []byte) byte {
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// String is the kind as a noun phrase: "a kernel log (dmesg or journalctl
// -k)"; "" for Unknown.
func (k Kind) String() string {
	switch k {
	case KernelLog:
		return "a kernel log (dmesg or journalctl -k)"
	case BlockTrace:
		return "a block I/O trace (blkparse, biosnoop or a fio iolog)"
	case IdentifyImage:
		return "an Identify Controller image (nvme id-ctrl -b)"
	case IdentifyCapture:
		return "an Identify Controller capture (nvme id-ctrl)"
	case SmartctlReport:
		return "a smartctl report (smartctl -a, -x or -j)"
	case FeatureCapture:
		return "a get-feature capture (nvme get-feature -f 0x0c)"
	case SurveyReport:
		return "a survey report (apstctl survey)"
	case RecommendResult:
		return "a recommend result (apstctl recommend -o json)"
	case PersistFile:
		return "a persistence file (a udev rule, a modprobe option or a kernel command line)"
	}
	return ""
}

// Reader is the apstctl command that reads the kind ("apstctl plan"), ""
// for Unknown.
func (k Kind) Reader() string {
	switch k {
	case KernelLog:
		return "apstctl diagnose --log"
	case BlockTrace:
		return "apstctl replay CAPTURE TRACE"
	case IdentifyImage, IdentifyCapture, SmartctlReport:
		return "apstctl plan"
	case FeatureCapture:
		return "apstctl decode"
	case SurveyReport:
		return "apstctl survey --merge"
	case RecommendResult:
		return "apstctl persist --from"
	case PersistFile:
		return "apstctl persist --check"
	}
	return ""
}

// Looks says what b looks like and which command reads it, as a clause
// to append to a refusal: "it looks like a kernel log (dmesg or journalctl
// -k), which 'apstctl diagnose --log' reads"; "" when b looks like none of
// the kinds, or like skip (the kind the refusing command reads, whose own
// error says what is wrong with it).
func Looks(b []byte, skip ...Kind) string {
	k := Of(b)
	for _, s := range skip {
		if k == s {
			return ""
		}
	}
	if k == Unknown {
		return ""
	}
	return "it looks like " + k.String() + ", which '" + k.Reader() + "' reads"
}

// kernelLog reports whether most of the first lines carry printk's
// "[    1.234567] " stamp or syslog's " kernel: ".
func kernelLog(b []byte) bool {
	lines, kernel := 0, 0
	for line := range bytes.Lines(b) {
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			continue
		}
		if lines++; lines > 20 {
			break
		}
		if printkStamped(t) || bytes.Contains(t, []byte(" kernel: ")) || bytes.HasPrefix(t, []byte("kernel: ")) {
			kernel++
		}
	}
	return kernel > 0 && 2*kernel >= min(lines, 20)
}

// printkStamped reports whether t starts with "[", digits, ".", digits,
// "]" (blanks allowed after the "[").
func printkStamped(t []byte) bool {
	rest, ok := bytes.CutPrefix(t, []byte("["))
	if !ok {
		return false
	}
	end := bytes.IndexByte(rest, ']')
	if end < 3 {
		return false
	}
	secs, frac, ok := bytes.Cut(bytes.TrimLeft(rest[:end], " "), []byte("."))
	return ok && len(secs) > 0 && len(frac) > 0 && len(bytes.Trim(secs, "0123456789")) == 0 && len(bytes.Trim(frac, "0123456789")) == 0
}

// text reports whether b holds no NUL byte.
func text(b []byte) bool { return bytes.IndexByte(b, 0) < 0 }

// persistFile reports whether b holds a line of what apstctl persist
// writes: a udev rule assigning the latency tolerance, an options
// nvme_core line, the kernel parameter given a value, or a tmpfiles w
// line of the tolerance file. A report that only names the file (measure's
// "pm_qos_latency_tolerance_us restored to 100000") is none.
func persistFile(b []byte) bool {
	for line := range bytes.Lines(b) {
		t := bytes.TrimSpace(line)
		switch {
		case bytes.Contains(t, []byte("ATTR{power/pm_qos_latency_tolerance_us}=")),
			bytes.HasPrefix(t, []byte("options nvme_core")),
			bytes.Contains(t, []byte("nvme_core.default_ps_max_latency_us=")),
			bytes.HasPrefix(t, []byte("w ")) && bytes.Contains(t, []byte("pm_qos_latency_tolerance_us")):
			return true
		}
	}
	return false
}
