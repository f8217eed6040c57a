package sniff_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/sniff"
)

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		file string
		want sniff.Kind
	}{
		{"apst.log", sniff.KernelLog},
		{"trace.blkparse", sniff.BlockTrace},
		{"samsung-990-evo-plus-1tb-2B2QKXG7.bin", sniff.IdentifyImage},
		{"idctrl.json", sniff.IdentifyCapture},
		{"idctrl.txt", sniff.IdentifyCapture},
		{"smart.txt", sniff.SmartctlReport},
		{"feat.txt", sniff.FeatureCapture},
		{"fj_ok.json", sniff.FeatureCapture},
		{"survey.json", sniff.SurveyReport},
		{"survey.txt", sniff.SurveyReport},
		{"o.rules", sniff.PersistFile},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", tc.file))
			require.NoError(t, err)
			assert.Equal(t, tc.want, sniff.Of(b))
			assert.NotEmpty(t, sniff.Looks(b))
			assert.Empty(t, sniff.Looks(b, tc.want))
		})
	}
	for name, b := range map[string][]byte{
		"empty":        nil,
		"prose":        []byte("Hello, this is a letter.\n"),
		"plain times":  []byte("0.001\n0.002\n"),
		"4096 zero":    make([]byte, 4096),
		"recommend":    []byte(`{"recommended_us": 25000}`),
		"one log line": []byte("a note\nabout\nthe\n[    1.000000] nvme nvme0: x\n"),
		// measure's report names the tolerance file; it sets nothing.
		"measure report": []byte("3 trials per row\n\npm_qos_latency_tolerance_us restored to 100000\n"),
	} {
		want := sniff.Unknown
		if name == "recommend" {
			want = sniff.RecommendResult
		}
		assert.Equal(t, want, sniff.Of(b), name)
	}
}
