package shard_test

import (
	"bytes"
	"fmt"
	"github.com/nvmeapst/nvmeapst/apst/survey/shard"
	"os"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// Two machines survey their own drives and write their shards (NDJSON
// here, as "apstctl survey --format ndjson" does); a third reads both back
// into one survey of the fleet, refusing a shard given twice: each shard is
// read into a survey of its own, merged once its identity is accepted.
func ExampleDecode() {
	var configs []analysis.Config
	for _, s := range []string{"ps-max-latency-us=100000", "ps-max-latency-us=25000"} {
		p, err := apst.ParseConfig(s, apst.DefaultParams(apst.Current))
		if err != nil {
			panic(err)
		}
		configs = append(configs, analysis.Config{Name: s, Params: p})
	}
	makeShard := func(files ...string) []byte {
		s, err := survey.New(configs...)
		if err != nil {
			panic(err)
		}
		var b bytes.Buffer
		var id shard.ID
		b.WriteString(`{"configs":[],"kernel_quirks":false}` + "\n")
		for _, name := range files {
			f, err := os.Open("../../../testdata/corpus/smartctl/" + name)
			if err != nil {
				panic(err)
			}
			c, err := capture.Parse(f)
			f.Close()
			if err != nil {
				panic(err)
			}
			row, err := s.Add(name, &c)
			if err != nil {
				panic(err)
			}
			line := shard.AppendRow(nil, &row, c.Format.String())
			id.CompactRow(line)
			fmt.Fprintf(&b, "{\"drive\":%s}\n", line)
		}
		fmt.Fprintf(&b, "{\"summary\":{\"drives\":%d,\"shards\":[%q]}}\n", len(files), id.Sum())
		return b.Bytes()
	}
	a := makeShard("Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.txt", "SKhynix_PC401_NVMe_512GB_80003E00.txt")
	b := makeShard("Kingston_SNV3S1000G_ERFK1N.3.txt")

	fleet, err := survey.New(configs...)
	if err != nil {
		panic(err)
	}
	var seen shard.Set
	for i, sh := range [][]byte{a, b, a} {
		source := fmt.Sprintf("shard%d", i+1)
		part, err := survey.New(configs...)
		if err != nil {
			panic(err)
		}
		sum, id, err := shard.Decode(bytes.NewReader(sh), shard.Visitor{
			Drive: func(d *shard.Drive) error { return part.AddRecord(d.Decoded.Record) },
		})
		if err != nil {
			fmt.Println(err)
			continue
		}
		if err := seen.Add(source, sum.Shards, id); err != nil {
			fmt.Println(strings.Replace(err.Error(), id, "sha256:…", 1))
			continue
		}
		if err := fleet.Merge(part); err != nil {
			panic(err)
		}
		fmt.Printf("%s: %d drives\n", source, sum.Drives)
	}
	c := fleet.Summary().Comparisons[0]
	fmt.Printf("fleet: %d drives, %d change\n", c.Drives, c.Changed)
	// Output:
	// shard1: 2 drives
	// shard2: 1 drives
	// shard: "shard1" and "shard3" both hold the survey sha256:…: its drives would be counted twice
	// fleet: 3 drives, 2 change
}
