package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Names with XML metacharacters come out escaped, and the plot stays
// well-formed XML whose text reads back as written.
func TestSVGPlotEscapes(t *testing.T) {
	var buf bytes.Buffer
	configs := []string{`a<b & "c"`, "policy=windows-balanced-dc", "x]]>y", "4", "5", "6"}
	p := newSVGPlot(&buf, "fleet <test> & co", configs)
	c := powerstate.Controller{NPSS: 1, APSTA: 1}
	c.PowerStates[1] = powerstate.Descriptor{NonOperational: true, ExitLatency: 43000, MaxPower: powerstate.MaxPowerOf(70, true)}
	cfgs := make([]analysis.Config, len(configs))
	for i := range cfgs {
		cfgs[i] = analysis.Config{Name: configs[i], Params: apst.DefaultParams(apst.Current)}
	}
	cfgs[1].Params.Bound = 0
	s, err := survey.New(cfgs...)
	require.NoError(t, err)
	row, err := s.Add(`drive "one" <&>`, &c)
	require.NoError(t, err)
	p.drive(&row)
	zero := powerstate.Controller{} // 0 W, no idle state: drawn in the "none" column and "0 W" row
	row, err = s.Add("zero", &zero)
	require.NoError(t, err)
	p.drive(&row)
	require.NoError(t, p.close())
	assert.Equal(t, 2*len(configs), p.points)

	var texts []string
	dec := xml.NewDecoder(&buf)
	points := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		switch tok := tok.(type) {
		case xml.StartElement:
			for _, a := range tok.Attr {
				if a.Name.Local == "class" && strings.HasPrefix(a.Value, "point ") {
					points++
				}
			}
		case xml.CharData:
			texts = append(texts, string(tok))
		}
	}
	assert.Equal(t, 2*len(configs), points)
	all := strings.Join(texts, "\n")
	assert.Contains(t, all, "fleet <test> & co")
	assert.Contains(t, all, `[1] a<b & "c"`)
	assert.Contains(t, all, "[3] x]]>y")
	assert.Contains(t, all, `drive "one" <&> [1]: ps1, worst stall 43000us, 0.0070W`)
	assert.Contains(t, all, `drive "one" <&> [2]: ps0, worst stall 0us, -`)
}

func TestSVGScales(t *testing.T) {
	assert.Equal(t, float64(svgNoneX), svgX(0))
	assert.Equal(t, float64(svgLeft), svgX(10))
	assert.Equal(t, float64(svgLeft), svgX(1), "clamped")
	assert.Equal(t, float64(svgRight), svgX(1_000_000))
	assert.Equal(t, float64(svgRight), svgX(1<<40), "clamped")
	assert.InDelta(t, svgLeft+3.0/5*(svgRight-svgLeft), svgX(10000), 1e-9)
	assert.Equal(t, float64(svgZeroY), svgY(0))
	assert.Equal(t, float64(svgBottom), svgY(100), "0.1 mW")
	assert.Equal(t, float64(svgTop), svgY(100_000_000), "100 W")
	assert.Equal(t, float64(svgTop), svgY(655_350_000), "clamped")
}
