package apst_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

func TestEntry(t *testing.T) {
	e := apst.NewEntry(3, 100)
	assert.Equal(t, apst.Entry(0x6418), e)
	assert.Equal(t, uint8(3), e.TargetState())
	assert.Equal(t, apst.Milliseconds(100), e.IdleTime())
	assert.Equal(t, "->ps3@100ms", e.String())
	assert.Zero(t, e.Reserved())

	// Tolerance-mode timeouts are not masked (kernel-apst.md §4.5).
	big := apst.NewEntry(4, 1<<24)
	assert.Equal(t, apst.Entry(0x0000000100000020), big)
	assert.Equal(t, apst.Milliseconds(0), big.IdleTime(), "ITPT's 24 bits hold 0")
	assert.Equal(t, uint64(1)<<32, big.Reserved())
	assert.Contains(t, big.String(), "raw")
	assert.Equal(t, apst.Entry(0x20), apst.NewEntry(4, 1<<56), "2^56 shifts out of the u64")
	assert.Equal(t, "-", apst.Entry(0).String())
}

func TestTableErrors(t *testing.T) {
	_, err := apst.DecodeTable(make([]byte, 255))
	require.ErrorIs(t, err, apst.ErrTableSize)
	assert.Contains(t, err.Error(), "255")
	_, err = apst.DecodeFeature(1, make([]byte, 257))
	require.ErrorIs(t, err, apst.ErrTableSize)
	f, err := apst.DecodeFeature(1, make([]byte, 256))
	require.NoError(t, err)
	assert.True(t, f.Enabled)
}

func TestReachable(t *testing.T) {
	var tab apst.Table
	tab[0], tab[1], tab[2] = apst.NewEntry(3, 100), apst.NewEntry(3, 100), apst.NewEntry(3, 100)
	tab[3] = apst.NewEntry(4, 2000)
	assert.Equal(t, apst.States(1<<0|1<<3|1<<4), tab.Reachable(0))
	assert.Equal(t, apst.States(1<<4), tab.Reachable(4))
	// A cycle (not something the kernel builds) terminates.
	tab[4] = apst.NewEntry(3, 1)
	assert.Equal(t, apst.States(1<<0|1<<3|1<<4), tab.Reachable(0))
}

func TestTableJSON(t *testing.T) {
	var tab apst.Table
	tab[0] = apst.NewEntry(3, 100)
	tab[31] = apst.NewEntry(4, 1<<24)
	b, err := json.Marshal(tab)
	require.NoError(t, err)
	assert.Contains(t, string(b), `{"state":0,"value":"0x0000000000006418","target_state":3,"idle_time_ms":100}`)
	var back apst.Table
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, tab, back)
	require.Error(t, json.Unmarshal([]byte(`[{"state":40,"value":"0x0"}]`), &back))
}

func TestBuildErrors(t *testing.T) {
	_, err := apst.Build(nil, apst.DefaultParams(apst.Current))
	require.ErrorIs(t, err, apst.ErrNilController)
	var c powerstate.Controller
	_, err = apst.Build(&c, apst.Params{Generation: 7})
	require.ErrorIs(t, err, apst.ErrUnknownGeneration)
}

// The plan JSON carries the keys of the apstctl contract (cli.md).
func TestPlanJSONKeys(t *testing.T) {
	c := fixture(t, "samsung-990-evo-plus-1tb-2B2QKXG7.bin")
	plan, err := apst.Build(&c, apst.DefaultParams(apst.Current))
	require.NoError(t, err)
	b, err := json.Marshal(plan)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	for _, k := range []string{"sent", "enabled", "max_ps", "max_round_trip_us", "entries"} {
		assert.Contains(t, m, k)
	}
	assert.Equal(t, true, m["sent"])
	assert.EqualValues(t, 4, m["max_ps"])
	assert.EqualValues(t, 44600, m["max_round_trip_us"])
	entries := m["entries"].([]any)
	require.Len(t, entries, 32)
	assert.Equal(t, map[string]any{"state": 3.0, "value": "0x000000000007d020", "target_state": 4.0, "idle_time_ms": 2000.0}, entries[3])
}
