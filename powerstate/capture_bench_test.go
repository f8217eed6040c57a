package powerstate_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// BenchmarkParse parses the captures of one device (Samsung SSD 990 EVO
// Plus 1TB) in every format.
func BenchmarkParse(b *testing.B) {
	sj, err := smartctlJSON(func() *powerstate.Controller {
		c, err := powerstate.Parse(bytes.NewReader(testfixture.ReadFile(b, filepath.Join("corpus", "smartctl", evoPlus+".txt"))))
		if err != nil {
			b.Fatal(err)
		}
		return &c
	}())
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		data []byte
	}{
		{"binary", testfixture.ReadFile(b, filepath.Join("corpus", "binary", "synthetic", evoPlus+".id-ctrl.bin"))},
		{"nvme-cli-text-v1", testfixture.ReadFile(b, filepath.Join("corpus", "nvme-cli", "synthetic", evoPlus+".v1.txt"))},
		{"nvme-cli-text-v2", testfixture.ReadFile(b, filepath.Join("corpus", "nvme-cli", "synthetic", evoPlus+".v2.txt"))},
		{"nvme-cli-text-v2.12", testfixture.ReadFile(b, filepath.Join("corpus", "nvme-cli", "synthetic", evoPlus+".v2_12.txt"))},
		{"nvme-cli-json", testfixture.ReadFile(b, filepath.Join("corpus", "nvme-cli", "synthetic", evoPlus+".json"))},
		{"smartctl-text", testfixture.ReadFile(b, filepath.Join("corpus", "smartctl", evoPlus+".txt"))},
		{"smartctl-json", sj},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.data)))
			for b.Loop() {
				if _, err := powerstate.Parse(bytes.NewReader(bc.data)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseCorpus parses every file of the corpus once per iteration.
func BenchmarkParseCorpus(b *testing.B) {
	var files [][]byte
	for _, dev := range corpusDevices(b) {
		paths := []string{dev.smartctl}
		for _, o := range dev.others {
			paths = append(paths, o.path)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			files = append(files, data)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, data := range files {
			if _, err := powerstate.Parse(bytes.NewReader(data)); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(files)), "files/op")
}
