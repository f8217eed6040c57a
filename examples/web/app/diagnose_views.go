package main

import "github.com/nvmeapst/nvmeapst/examples/internal/view"

// maxLog bounds a pasted kernel log, as the library bounds a live read
// (nvmeapst.MaxKernelLog): a kernel's ring buffer is a few MiB, a whole
// journal of many boots rarely more than this.
const maxLog = 64 << 20

// DiagnosisView is the diagnosis of a pasted kernel log
// (diagnose.Diagnosis), as apstctl diagnose -o json gives its fields. The
// strings that come from the log (the quotes, the lines not read, and the
// texts and the summary that name what the log names) are escaped as
// apstctl's text output escapes them (safeio.EscapeTerminal: controls and
// bidirectional marks become visible escapes), and the page sets every
// string as text, never as markup.
type DiagnosisView struct {
	Controller string `json:"controller,omitempty"`
	Address    string `json:"address,omitempty"`
	Failure    bool   `json:"failure"`
	Summary    string `json:"summary"`
	// Consequences quote, without a failure, the lines of one whose own
	// lines the log lacks (a file system's I/O errors, nvme's hint).
	Consequences []view.Evidence `json:"consequences"`
	APSTRuledOut bool            `json:"apst_ruled_out"`
	Undecided    []string        `json:"undecided"`
	// Separate is the test that tells the Undecided layers apart.
	Separate *view.Test  `json:"separate,omitempty"`
	OnResume bool        `json:"on_resume"`
	Replace  bool        `json:"replace"`
	Causes   []CauseView `json:"causes"`
	Known    []KnownView `json:"known"`
	// Tried are the settings given as already tried, and those of the
	// log's command line a rule weighed (FromLog; the whole line is in
	// Log.CommandLine).
	Tried    []TriedView   `json:"tried"`
	Platform string        `json:"platform"`
	Unread   []view.Unread `json:"unread"`
	// Relayed are other programs' copies of the kernel's failure lines,
	// listed when the log holds nothing else of a failure.
	Relayed []view.Unread `json:"relayed"`
	Notes   []string      `json:"notes"`
	// Assumptions are what the plan of the capture assumed (describe's
	// lines, as apstctl diagnose --id-ctrl prints them); none without a
	// capture.
	Assumptions []string `json:"assumptions"`
	Log         LogView  `json:"log"`
}

// CauseView is one layer's verdict (diagnose.Cause).
type CauseView struct {
	Layer      string          `json:"layer"`
	Likelihood string          `json:"likelihood"`
	Score      int             `json:"score"`
	Evidence   []view.Evidence `json:"evidence"`
	Against    []view.Evidence `json:"against"`
	Tests      []view.Test     `json:"tests"`
}

// KnownView is a known regression or quirk the log matches.
type KnownView struct {
	ID     string `json:"id"`
	Layer  string `json:"layer"`
	Title  string `json:"title"`
	Fix    string `json:"fix"`
	Fixed  string `json:"fixed_in,omitempty"`
	Source string `json:"source"`
}

// TriedView is one setting already tried (diagnose.Tried).
type TriedView struct {
	Setting string `json:"setting"`
	Value   string `json:"value,omitempty"`
	Outcome string `json:"outcome"`
	FromLog bool   `json:"from_log"`
	Text    string `json:"text"`
}

// LogView is what was read of the log.
type LogView struct {
	Release     string `json:"release,omitempty"`
	CommandLine string `json:"command_line,omitempty"`
	Boots       int    `json:"boots"`
	Lines       int64  `json:"lines"`
	// Compression is the compressed file the log was read from ("gzip",
	// "bzip2"), empty for text.
	Compression string `json:"compression,omitempty"`
	Events      int64  `json:"events"`
	Incidents   int    `json:"incidents"`
}
