package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst/persist/udev"
)

// persistGoldenCases cover persist for each scope and form, AC and battery,
// and the checker; they join goldenCases.
var persistGoldenCases = []struct {
	name string
	args []string
	code int
}{
	{"persist-all.txt", []string{"persist", "--bound", "25000"}, 0},
	{"persist-all.json", []string{"persist", "--bound", "25000", "-o", "json"}, 0},
	{"persist-model.txt", []string{"persist", "--bound", "25000", "--model", "Samsung SSD 990 EVO Plus 1TB"}, 0},
	{"persist-family.txt", []string{"persist", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "--max-stall", "25ms"}, 0},
	{"persist-family.json", []string{"persist", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "--max-stall", "25ms", "-o", "json"}, 0},
	{"persist-pci.txt", []string{"persist", "--bound", "25000", "--scope", "pci", "--pci-id", "144d:a80d"}, 0},
	{"persist-pci-capture.txt", []string{"persist", "testdata/identify/intel-ssdpekkw256g7-PSF109C.bin", "--scope", "pci", "--bound", "5000"}, 0},
	{"persist-serial.txt", []string{"persist", "--bound", "25000", "--serial", "S7U1NJ0X123456"}, 0},
	{"persist-zero-cmdline.txt", []string{"persist", "--bound", "0", "--form", "cmdline,modprobe"}, 0},
	{"persist-any-tuned.txt", []string{"persist", "--bound", "any", "--form", "tmpfiles,tuned"}, 0},
	{"persist-from.txt", []string{"persist", "--from", "examples/apstctl/testdata/golden/recommend-evo.json", "--model", "Samsung SSD 990 EVO Plus *"}, 0},
	{"persist-ac-battery-evo.txt", []string{"persist", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "--ac", "stall=25ms", "--battery", "deepest"}, 0},
	{"persist-ac-battery-evo.json", []string{"persist", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "--ac", "stall=25ms", "--battery", "deepest", "-o", "json"}, 0},
	{"persist-ac-battery-intel.txt", []string{"persist", "testdata/identify/intel-ssdpekkw256g7-PSF109C.bin", "--ac", "stall=25ms", "--battery", "deepest"}, 0},
	{"help-persist.txt", []string{"help", "persist"}, 0},
	{"survey-persist.txt", []string{"survey", "--persist", "stall=25ms", "testdata/identify"}, 0},
	{"persist-check-forum.txt", []string{"persist", "--check", "examples/apstctl/testdata/persist/forum.rules", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "--root", "testdata/bundle"}, 1},
	{"persist-check-forum.json", []string{"persist", "--check", "examples/apstctl/testdata/persist/forum.rules", "--root", "testdata/bundle", "-o", "json"}, 1},
	{"persist-check-5500.txt", []string{"persist", "--check-line", "nvme_core.default_ps_max_latency_us=5500", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "testdata/corpus/binary/synthetic/SKhynix_PC401_NVMe_512GB_80003E00.id-ctrl.bin"}, 1},
	{"persist-check-zero.txt", []string{"persist", "--check", "examples/apstctl/testdata/persist/global-zero.conf", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "testdata/identify/intel-ssdpekkw256g7-PSF109C.bin"}, 1},
	{"persist-check-tmpfiles.txt", []string{"persist", "--check", "examples/apstctl/testdata/persist/tmpfiles-device-path.conf", "--root", "testdata/bundle"}, 1},
	{"persist-check-tuned-zero.txt", []string{"persist", "--check", "examples/apstctl/testdata/persist/tuned-zero.conf", "--root", "testdata/bundle"}, 1},
	{"persist-check-own-rule.txt", []string{"persist", "--check", "examples/apstctl/testdata/persist/evo-family.rules", "--root", "testdata/bundle"}, 0},
}

func init() {
	goldenCases = append(goldenCases, persistGoldenCases...)
}

func TestPersistUsage(t *testing.T) {
	inRepoRoot(t)
	evo := "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"persist"}, "give a bound"},
		{[]string{"persist", "--bound", "25000", "--goal", "deepest"}, "give one of --bound, --goal"},
		{[]string{"persist", "--bound", "-5"}, "want µs 0..2147483646, or any (unlimited)"},
		{[]string{"persist", "--bound", "auto"}, "want µs"},
		{[]string{"persist", "--goal", "deepest"}, "needs a CAPTURE"},
		{[]string{"persist", "--bound", "1", "--scope", "model"}, "from a CAPTURE"},
		{[]string{"persist", "--bound", "1", "--scope", "pci"}, "give --pci-id"},
		{[]string{"persist", "--bound", "1", "--scope", "disk"}, "want all, model, family, pci or serial"},
		{[]string{"persist", "--bound", "1", "--model", "a", "--serial", "b"}, "give one of --model and --serial"},
		{[]string{"persist", "--bound", "1", "--model", "a", "--form", "tuned"}, "cannot select"},
		{[]string{"persist", "--bound", "1", "--model", "a[b", "--form", "udev"}, "apstctl persist: scope: model \"a[b\": unbalanced [ ] in the glob\n"},
		{[]string{"persist", "--bound", "1", "--form", "grub"}, "want a comma list"},
		{[]string{"persist", "--bound", "1", "--output", "x.rules"}, "--output writes one file"},
		{[]string{"persist", "--ac", "1"}, "give both --ac and --battery"},
		{[]string{"persist", "--ac", "1", "--battery", "fast"}, "--battery fast"},
		{[]string{"persist", "--ac", "1", "--battery", "2", "--bound", "3"}, "drop --bound"},
		{[]string{"persist", evo, evo, "--bound", "1"}, "one CAPTURE"},
		{[]string{"persist", "--root", "x", "--bound", "1"}, "--root goes with --check"},
		{[]string{"persist", "--bound", "1", "--model", `a"b`}, "cannot match"},
		{[]string{"persist", "--bound", "1", "--kernel", "v4.12"}, "--kernel describes the kernel"},
		{[]string{"persist", "--check-line", "x", "--bound", "1"}, "--bound does not go with --check"},
		// Given is given, whatever the value: the kernel's default named
		// without a CAPTURE, an empty --model with --check.
		{[]string{"persist", "--bound", "1", "--kernel", "current"}, "--kernel describes the kernel"},
		{[]string{"persist", "--check-line", "x", "--model", ""}, "--model does not go with --check"},
		{[]string{"persist", "--check-line", "hello", evo}, "no udev rule, nvme_core.default_ps_max_latency_us, options nvme_core, tmpfiles w line or tuned [sysfs] line found"},
		{[]string{"persist", "--check-line", "nvme_core.default_ps_max_latency_us=-1", evo}, "want an unsigned number"},
	} {
		code, _, errOut := apstctl(t, nil, tc.args...)
		assert.Equal(t, 2, code, "%q: %s", tc.args, errOut)
		assert.Contains(t, errOut, tc.want, "%q", tc.args)
	}
	code, _, errOut := apstctl(t, nil, "persist", evo, "--max-stall", "100us")
	assert.Equal(t, 2, code, errOut)
	assert.Contains(t, errOut, "above the exit-latency limit 100us")
}

// --output writes the one form's file atomically, and it parses as udev
// rules; a failed write leaves the old file and is exit status 1.
func TestPersistOutput(t *testing.T) {
	inRepoRoot(t)
	path := filepath.Join(t.TempDir(), "61-nvme-apst-latency.rules")
	code, out, errOut := apstctl(t, nil, "persist", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "--max-stall", "25ms", "--output", path)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "(written to "+path+")")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	rs, err := udev.ParseRules(string(b))
	require.NoError(t, err)
	require.Len(t, rs, 1)
	assert.True(t, strings.HasSuffix(string(b), `ATTR{power/pm_qos_latency_tolerance_us}="25000"`+"\n"))
	code, _, errOut = apstctl(t, nil, "persist", "--bound", "1", "--form", "udev", "--output", filepath.Join(t.TempDir(), "no", "such", "dir"))
	assert.Equal(t, exitFailure, code, "a failed write is a runtime failure: %s", errOut)
	assert.Contains(t, errOut, "--output")
	assert.NotContains(t, errOut, "--help")
}

// recommend's JSON has one value, and persist --from takes it.
func TestRecommendValue(t *testing.T) {
	inRepoRoot(t)
	code, out, errOut := apstctl(t, nil, "recommend", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "--max-stall", "25ms")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "recommended bound: 25000us ")
	assert.Contains(t, out, "every bound in 4600..42999 programs the same table")
	assert.Contains(t, out, "apply now:  apstctl set-latency nvmeN 25000")
	assert.Contains(t, out, "for good:   apstctl persist --bound 25000 --model 'Samsung SSD 990 EVO Plus *'")
	assert.NotContains(t, out, "accepted stall")
	code, out, errOut = apstctl(t, nil, "recommend", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "--max-stall", "25ms", "-o", "json")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `"recommended_us": 25000,`)
}

// survey --persist writes its rules file atomically with -o json; the
// rules parse and reach the model they name.
func TestSurveyPersistRules(t *testing.T) {
	inRepoRoot(t)
	path := filepath.Join(t.TempDir(), "fleet.rules")
	code, out, errOut := apstctl(t, nil, "survey", "--persist", "stall=25ms", "--persist-rules", path, "-o", "json", "testdata/identify")
	require.Equal(t, 0, code, errOut)
	assert.True(t, json.Valid([]byte(out)))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	rs, err := udev.ParseRules(string(b))
	require.NoError(t, err)
	require.Len(t, rs, 1)
	w, ok := udev.Tolerance(rs.Apply(udev.Drive{Model: "Samsung SSD 990 EVO Plus 1TB", HasTolerance: true}))
	require.True(t, ok)
	assert.Equal(t, "25000", w.Value)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"survey", "--persist", "stall=25ms", "-o", "json", "testdata/identify"}, "give --persist-rules FILE"},
		{[]string{"survey", "--persist", "25000", "testdata/identify"}, "needs a goal"},
		{[]string{"survey", "--persist-rules", path, "testdata/identify"}, "goes with --persist GOAL"},
		{[]string{"survey", "--persist", "fast", "testdata/identify"}, "--persist fast"},
	} {
		code, _, errOut := apstctl(t, nil, tc.args...)
		assert.Equal(t, 2, code, "%q: %s", tc.args, errOut)
		assert.Contains(t, errOut, tc.want, "%q", tc.args)
	}
}

// --check without drives checks this machine's controllers; persist
// prints JSON with -o json before or after its arguments.
func TestPersistCheckLiveAndJSON(t *testing.T) {
	inRepoRoot(t)
	saved := liveSystem
	t.Cleanup(func() { liveSystem = saved })
	liveSystem = func() (*nvmeapst.System, error) { return nvmeapst.OpenRoot("testdata/bundle") }
	code, out, errOut := apstctl(t, nil, "persist", "--check", "examples/apstctl/testdata/persist/evo-family.rules")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "nvme2 (this machine): Samsung SSD 990 EVO Plus 1TB")
	assert.Contains(t, out, "reached by the rule of line 3: bound 25000us")
	for _, args := range [][]string{
		{"persist", "--bound", "25000"},
		{"persist", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "--ac", "stall=25ms", "--battery", "deepest"},
		{"persist", "--check-line", "nvme_core.default_ps_max_latency_us=100000", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"},
	} {
		for _, before := range []bool{true, false} {
			line := append([]string{"persist", "-o", "json"}, args[1:]...)
			if !before {
				line = append(append([]string{}, args...), "--output-format=json")
			}
			code, out, errOut := apstctl(t, nil, line...)
			assert.Equal(t, 0, code, "%q: %s", line, errOut)
			assert.True(t, json.Valid([]byte(out)), "%q: not JSON:\n%s", line, out)
		}
	}
}

// A --check or --from file over the 1 MiB limit is refused (exit 2) by name,
// as what it is (a rules file, a recommend result), with the limit; nothing
// calls it a capture.
func TestPersistFileTooLarge(t *testing.T) {
	big := filepath.Join(t.TempDir(), "99-nvme\x1b.rules")
	require.NoError(t, os.WriteFile(big, bytes.Repeat([]byte("# a comment line of a udev rules file\n"), (maxCapture>>5)+1), 0o644))
	for _, c := range []struct{ flag, what string }{{"--check", "rules file"}, {"--from", "recommend result"}} {
		code, out, errOut := apstctl(t, nil, "persist", c.flag, big)
		assert.Equal(t, 2, code, c.flag)
		assert.Empty(t, out, c.flag)
		assert.Contains(t, errOut, c.flag+" "+strings.ReplaceAll(big, "\x1b", `\x1b`)+": "+c.what+" is larger than the limit of 1048576 bytes (1 MiB)", c.flag)
		assert.NotContains(t, errOut, "capture", c.flag)
		assert.NotContains(t, errOut, "\x1b", c.flag)
	}
}

// A model read from a capture is matched exactly: a drive whose model is
// "*" gets a rule that reaches no other model, and an empty --model or
// --serial is refused rather than read as every controller.
func TestPersistScopesFromCapturesAreExact(t *testing.T) {
	img, err := os.ReadFile(evoImage)
	require.NoError(t, err)
	copy(img[24:64], "*                                       ")
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "star.bin"), img, 0o644))
	path := filepath.Join(t.TempDir(), "fleet.rules")
	code, _, errOut := apstctl(t, nil, "survey", "--persist", "stall=25ms", "--persist-rules", path, dir)
	require.Equal(t, 0, code, errOut)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(b), `ATTR{model}=="[*]"`)
	rs, err := udev.ParseRules(string(b))
	require.NoError(t, err)
	_, ok := udev.Tolerance(rs.Apply(udev.Drive{Model: "Samsung SSD 990 EVO Plus 1TB", HasTolerance: true}))
	assert.False(t, ok, "the rule of model * reaches another model")
	_, ok = udev.Tolerance(rs.Apply(udev.Drive{Model: "*", HasTolerance: true}))
	assert.True(t, ok)

	code, out, _ := apstctl(t, nil, "persist", filepath.Join(dir, "star.bin"), "--bound", "25000", "--scope", "model", "--form", "udev")
	require.Equal(t, 0, code)
	assert.Contains(t, out, `ATTR{model}=="[*]"`)

	for _, flag := range []string{"--serial", "--model"} {
		code, out, errOut := apstctl(t, nil, "persist", "--bound", "0", flag, "")
		assert.Equal(t, 2, code, "%s '': %s", flag, out)
		assert.Contains(t, errOut, flag+" is empty")
	}
}

// persist --check looks up the paths a setting writes inside --root only:
// a tmpfiles line climbing out of the controller with ".." is a mistake
// (exit 1) checked on no drive, and a udev rule's ATTR{../..} that would
// land on a file outside the tree is not found there, never looked up
// outside it.
func TestPersistCheckStaysInsideRoot(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "a", "b", "bundle")
	require.NoError(t, os.MkdirAll(filepath.Dir(root), 0o755))
	require.NoError(t, os.CopyFS(root, os.DirFS(bundleDir)))
	// What a lexical join of the controller's directory and the path
	// reaches, outside the tree.
	require.NoError(t, os.WriteFile(filepath.Join(top, "secret"), []byte("x"), 0o600))
	climb := "../../../../../../secret" // class/nvme/nvme0 + 6 x ".." = top

	code, out, errOut := apstctl(t, nil, "persist", "--root", root, "-o", "json", "--check-line", "w /sys/class/nvme/nvme0/"+climb+" - - - - 0")
	assert.Equal(t, exitFailure, code, errOut)
	var v settingCheckJSON
	require.NoError(t, json.Unmarshal([]byte(out), &v), out)
	require.Len(t, v.Findings, 1)
	assert.Equal(t, "leaves-controller", v.Findings[0].Mistake)
	for _, d := range v.Drives {
		assert.Empty(t, d.Writes, d.Drive)
	}

	rules := filepath.Join(top, "99-x.rules")
	require.NoError(t, os.WriteFile(rules, []byte(`ACTION=="add|change", SUBSYSTEM=="nvme", KERNEL=="nvme0", ATTR{`+climb+`}="0"`+"\n"), 0o644))
	code, out, errOut = apstctl(t, nil, "persist", "--root", root, "-o", "json", "--check", rules)
	require.NotEqual(t, exitUsage, code, errOut)
	v = settingCheckJSON{}
	require.NoError(t, json.Unmarshal([]byte(out), &v), out)
	found := false
	for _, d := range v.Drives {
		for _, w := range d.Writes {
			if w.Attr == climb {
				found = true
				assert.False(t, w.Exists, "%s: a file outside --root is not looked up", d.Drive)
			}
		}
	}
	assert.True(t, found, out)
}

// persist --check on a machine without NVMe (no drive named) is no
// mistake: the file is checked on its own, that is said, and only a
// serious mistake in it gives status 1; a --root without NVMe controllers
// is an input that is not a sysfs tree with NVMe (2).
func TestPersistCheckWithoutNVMe(t *testing.T) {
	saved := liveSystem
	t.Cleanup(func() { liveSystem = saved })
	rules := "testdata/persist/evo-family.rules"
	for name, mk := range map[string]func(dir string){
		"no class/nvme":    func(dir string) { require.NoError(t, os.MkdirAll(filepath.Join(dir, "class", "block"), 0o755)) },
		"empty class/nvme": func(dir string) { require.NoError(t, os.MkdirAll(filepath.Join(dir, "class", "nvme"), 0o755)) },
		"no class at all":  func(dir string) {},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			mk(dir)
			liveSystem = func() (*nvmeapst.System, error) { return nvmeapst.OpenRoot(dir) }
			code, out, errOut := apstctl(t, nil, "persist", "--check", rules)
			assert.Equal(t, exitOK, code, errOut)
			assert.Contains(t, out, "this machine has no NVMe controller")
			assert.Contains(t, out, "no known mistake")

			code, out, errOut = apstctl(t, nil, "persist", "-o", "json", "--check-line", "nvme_core.default_ps_max_latency_us=0")
			assert.Equal(t, exitFailure, code, "a serious mistake: %s", errOut)
			var v settingCheckJSON
			require.NoError(t, json.Unmarshal([]byte(out), &v), out)
			assert.True(t, v.Serious)
			assert.Contains(t, v.DrivesNotEvaluated, "no NVMe controller")

			code, _, errOut = apstctl(t, nil, "persist", "--root", dir, "--check", rules)
			assert.Equal(t, exitUsage, code, errOut)
		})
	}
}

// A bound with a leading 0 is refused wherever a bound is given: the
// kernel reads it as octal (010 is 8), a person as decimal (10), and the
// commands had disagreed (persist --bound read 8, --goal and plan 10).
func TestLeadingZeroBoundRefused(t *testing.T) {
	inRepoRoot(t)
	for _, args := range [][]string{
		{"persist", "--bound", "010", "--form", "cmdline"},
		{"persist", "--goal", "010", "--form", "cmdline"},
		{"plan", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "--ps-max-latency-us", "010"},
		{"compare", "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "--with", "ps-max-latency-us=010", "--with", "ps-max-latency-us=25000"},
	} {
		code, out, errOut := apstctl(t, nil, args...)
		assert.Equal(t, exitUsage, code, "%v: %s", args, out)
		assert.Contains(t, errOut, "octal to the kernel", args)
	}
	code, out, errOut := apstctl(t, nil, "persist", "--bound", "0", "--form", "cmdline")
	assert.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "bound: 0us (APST off)")
}

// Flags persist would ignore are refused (the bound the drive has now
// beside --bound, which weighs no goal against it; a form named twice), and
// a bar on a state the drive does not have is said (no bound reaches it).
func TestPersistIgnoredFlags(t *testing.T) {
	inRepoRoot(t)
	const id = "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--bound", "25000", "--ps-max-latency-us", "3", id}, "--bound and --ps-max-latency-us contradict each other"},
		{[]string{"--bound", "25000", "--pm-qos", "3", id}, "--bound and --pm-qos contradict each other"},
		{[]string{"--bound", "25000", "--default-ps-max-latency-us", "3", id}, "--bound and --default-ps-max-latency-us contradict each other"},
		{[]string{"--bound", "25000", "--form", "udev,udev"}, "--form udev,udev names udev twice"},
	} {
		code, out, errOut := apstctl(t, nil, append([]string{"persist"}, tc.args...)...)
		assert.Equal(t, exitUsage, code, "%v: %s", tc.args, out)
		assert.Contains(t, errOut, tc.says, tc.args)
	}
	code, out, errOut := apstctl(t, nil, "persist", "--goal", "stall=25ms", "--ps-max-latency-us", "100000", id)
	assert.Equal(t, exitOK, code, "the bound now, with a goal, is read: %s", errOut)
	assert.Contains(t, out, "bound: 25000us")
	code, out, errOut = apstctl(t, nil, "persist", "--bar-state", "ps9", id)
	assert.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "note: ps9 is not a state of this drive (NPSS 4: ps0 to ps4): no bound reaches it")
}

// In persist --pci-id does more than pick quirks (it keys --scope pci's
// rule and the rules --check matches), so it stands beside --quirks.
func TestPersistPCIIDBesideQuirks(t *testing.T) {
	inRepoRoot(t)
	code, out, errOut := apstctl(t, nil, "persist", "testdata/identify/intel-ssdpekkw256g7-PSF109C.bin", "--goal", "deepest", "--scope", "pci", "--pci-id", "8086:f1a5", "--quirks", "none")
	assert.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, `ATTRS{device}=="0xf1a5"`)
}
