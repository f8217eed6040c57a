package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Numbers that are scaled or added either fit or are refused with their
// range: never a negative stall or time printed with exit status 0.
func TestScaledNumbersFitOrAreRefused(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "two.plain")
	assert.NoError(t, os.WriteFile(plain, []byte("0.0\n5.0\n"), 0o644))
	biosnoop := filepath.Join(dir, "huge.biosnoop")
	assert.NoError(t, os.WriteFile(biosnoop, []byte("TIME(s)     COMM           PID    DISK    T SECTOR     BYTES   LAT(ms)\n"+
		"0.000200000  fio            4242   nvme0n1 R 2048       4096    9200000000000.200000\n"+
		"9000000000.216968000  fio            4242   nvme0n1 R 2048       4096    0.200000\n"), 0o644))
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"replay", evoImage, plain, "--cpu-wake-us", "9223372036854775808"}, "--cpu-wake-us 9223372036854775808: want 0 to 4294967295"},
		{[]string{"simulate", evoImage, "--gaps", "exp:1s", "--cpu-wake-us", "4294967296"}, "want 0 to 4294967295"},
		{[]string{"replay", evoImage, plain, "--exit-factor", "300000000000000"}, "--exit-factor 300000000000000: analysis: invalid exit-latency factor: out of range: 300000000000000: want a factor above 0 and at most 10000"},
		{[]string{"measure", "--simulate", evoImage, "--exit-factor", "1000000000000"}, "--exit-factor 1000000000000: want 0 to 1000"},
		{[]string{"replay", evoImage, biosnoop}, "biosnoop line 2: expected an event time within ±4611686018.427387903 s (2^62-1 ns, 146 years)"},
	} {
		code, out, errOut := apstctl(t, nil, tt.args...)
		assert.Equal(t, exitUsage, code, "%q: %s", tt.args, out)
		assert.Contains(t, errOut, tt.want, "%q", tt.args)
		assert.NotContains(t, out, "-9223372036854", "%q", tt.args)
	}
	code, out, errOut := apstctl(t, nil, "replay", evoImage, plain, "--cpu-wake-us", "4294967295")
	assert.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "stall 4295010.2 ms over 1 wake", "the largest CPU wake fits")
}

// measure bounds the trials of a run as a whole (trials x configurations x
// idle times), refused before anything changes.
func TestMeasureTotalTrialsLimit(t *testing.T) {
	idle := "1ms"
	for i := 2; i <= 32; i++ {
		idle += ",1ms"
	}
	code, out, errOut := apstctl(t, nil, "measure", "--simulate", evoImage, "--trials", "100000", "--idle-list", idle,
		"--with", "pm-qos=100000", "--with", "pm-qos=25000")
	assert.Equal(t, exitUsage, code, out)
	assert.Contains(t, errOut, "100000 trials x 2 configurations x 32 idle times = 6400000 trials: want at most 100000 in all")
	assert.Empty(t, out)
}
