package diagnose_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
)

// TestFactFilesCoverFacts: every Fact field of Facts and Function, but
// those read elsewhere (the ASPM policy, the command line, the release),
// is filled by exactly one file row, and the link rows are LinkPM.All's
// controls under link/.
func TestFactFilesCoverFacts(t *testing.T) {
	factType := reflect.TypeFor[diagnose.Fact]()
	{
		var f diagnose.Facts
		filled := map[*diagnose.Fact]string{}
		for _, r := range diagnose.ControllerFiles() {
			p := r.Fact(&f)
			_, dup := filled[p]
			require.False(t, dup, r.File)
			filled[p] = r.File
		}
		v := reflect.ValueOf(&f).Elem()
		for i := range v.NumField() {
			name := v.Type().Field(i).Name
			if v.Field(i).Type() != factType || name == "ASPMPolicy" || name == "CommandLine" || name == "KernelRelease" {
				continue
			}
			_, ok := filled[v.Field(i).Addr().Interface().(*diagnose.Fact)]
			assert.True(t, ok, "Facts.%s has no file row", name)
		}
	}
	var fn diagnose.Function
	filled := map[*diagnose.Fact]string{}
	for _, r := range diagnose.FunctionFiles() {
		p := r.Fact(&fn)
		_, dup := filled[p]
		require.False(t, dup, r.File)
		filled[p] = r.File
	}
	v := reflect.ValueOf(&fn).Elem()
	for i := range v.NumField() {
		if v.Field(i).Type() == factType {
			_, ok := filled[v.Field(i).Addr().Interface().(*diagnose.Fact)]
			assert.True(t, ok, "Function.%s has no file row", v.Type().Field(i).Name)
		}
	}
	for _, l := range fn.Link.All() {
		assert.Equal(t, "link/"+l.Name, filled[l.Fact])
		assert.True(t, strings.HasPrefix(filled[l.Fact], "link/"))
	}
}
