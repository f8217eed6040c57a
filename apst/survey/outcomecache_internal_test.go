package survey

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Every leaf field of powerstate.Controller (descriptors included, in the
// last one) but the serial number and the notes of its reading is in
// outcomeKey: changing it alone changes the key, so two controllers that
// the evaluation could tell apart never share an outcome.
func TestOutcomeKeyCoversController(t *testing.T) {
	var zero powerstate.Controller
	base, ok := outcomeKeyOf(&zero)
	require.True(t, ok)
	n := 0
	for _, path := range leafFields(reflect.TypeFor[powerstate.Controller](), nil) {
		name := fieldPath(reflect.TypeFor[powerstate.Controller](), path)
		for _, v := range []uint64{1, 0xff} {
			var c powerstate.Controller
			if !setLeaf(reflect.ValueOf(&c).Elem(), path, v) {
				t.Errorf("field %s: the test cannot set it; extend setLeaf", name)
				break
			}
			k, ok := outcomeKeyOf(&c)
			require.True(t, ok, name)
			switch name {
			case "Serial", "Notes": // not read by the evaluation
				assert.Equal(t, base, k, name)
			default:
				assert.NotEqual(t, base, k, "field %s = %d is not in outcomeKey", name, v)
			}
			n++
		}
	}
	assert.Greater(t, n, 60)
}

// The longest strings fit; longer ones are refused, not cut.
func TestOutcomeKeyStrings(t *testing.T) {
	c := powerstate.Controller{Model: strings.Repeat("M", maxKeyModel), Firmware: strings.Repeat("F", maxKeyFirmware)}
	for i := range c.PowerStates {
		c.PowerStates[i].ExitLatency = 0xffffffff
	}
	a, ok := outcomeKeyOf(&c)
	require.True(t, ok)
	c.Model += "M"
	_, ok = outcomeKeyOf(&c)
	assert.False(t, ok)
	c.Model, c.Firmware = c.Model[:maxKeyModel], c.Firmware+"F"
	_, ok = outcomeKeyOf(&c)
	assert.False(t, ok)
	// A model and firmware split differently are different keys.
	c = powerstate.Controller{Model: "AB", Firmware: "C"}
	b, _ := outcomeKeyOf(&c)
	c = powerstate.Controller{Model: "A", Firmware: "BC"}
	d, _ := outcomeKeyOf(&c)
	assert.NotEqual(t, b, d)
	assert.NotEqual(t, a, b)
}

// leafFields lists the paths (field and array indexes; an array's last
// element) of every exported leaf field of t.
func leafFields(t reflect.Type, prefix []int) [][]int {
	var out [][]int
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			if !t.Field(i).IsExported() {
				out = append(out, append(append([]int{}, prefix...), -1-i)) // reported by setLeaf
				continue
			}
			out = append(out, leafFields(t.Field(i).Type, append(append([]int{}, prefix...), i))...)
		}
	case reflect.Array:
		if t.Elem().Kind() == reflect.Struct {
			return leafFields(t.Elem(), append(append([]int{}, prefix...), t.Len()-1))
		}
		return [][]int{append(append([]int{}, prefix...), t.Len()-1)}
	default:
		return [][]int{prefix}
	}
	return out
}

// fieldPath names a path of leafFields.
func fieldPath(t reflect.Type, path []int) string {
	var parts []string
	for _, i := range path {
		switch {
		case i < 0:
			return strings.Join(append(parts, t.Field(-1-i).Name), ".")
		case t.Kind() == reflect.Struct:
			parts = append(parts, t.Field(i).Name)
			t = t.Field(i).Type
		default:
			parts[len(parts)-1] += "[last]"
			t = t.Elem()
		}
	}
	return strings.Join(parts, ".")
}

// setLeaf sets the leaf at path to v (a string "x" repeated, a slice of v
// elements, a bool true); false for a kind it does not know or an
// unexported field.
func setLeaf(root reflect.Value, path []int, v uint64) bool {
	f := root
	for _, i := range path {
		if i < 0 {
			return false
		}
		if f.Kind() == reflect.Struct {
			f = f.Field(i)
		} else {
			f = f.Index(i)
		}
	}
	switch f.Kind() {
	case reflect.Bool:
		f.SetBool(true)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint:
		f.SetUint(v)
	case reflect.String:
		f.SetString(strings.Repeat("x", int(v%7)+1))
	case reflect.Slice:
		f.Set(reflect.MakeSlice(f.Type(), 1, 1))
	default:
		return false
	}
	return true
}

// Every bit of every integer and boolean field of powerstate.Controller
// (each element of its arrays, each descriptor's) lands on a bit of
// outcomeKey that no other lands on: set alone, each gives a key of its
// own. A field written over another's bytes, or a descriptor word whose
// fields overlap, gives two bits one key.
func TestOutcomeKeyBitsDistinct(t *testing.T) {
	var zero powerstate.Controller
	base, _ := outcomeKeyOf(&zero)
	seen := map[outcomeKey]string{base: "the zero controller"}
	n := 0
	eachBit(reflect.TypeFor[powerstate.Controller](), nil, "", func(path []int, name string, bit int) {
		var c powerstate.Controller
		f := reflect.ValueOf(&c).Elem()
		for _, i := range path {
			if f.Kind() == reflect.Struct {
				f = f.Field(i)
			} else {
				f = f.Index(i)
			}
		}
		if f.Kind() == reflect.Bool {
			f.SetBool(true)
		} else {
			f.SetUint(1 << bit)
		}
		k, ok := outcomeKeyOf(&c)
		require.True(t, ok)
		what := fmt.Sprintf("%s bit %d", name, bit)
		if other, dup := seen[k]; dup {
			t.Errorf("%s and %s give one key", what, other)
		}
		seen[k] = what
		n++
	})
	assert.Greater(t, n, 5000)
}

// eachBit calls f for every bit of every exported integer or boolean leaf
// of t (every element of arrays), with its path and name; strings and
// slices are left out (TestOutcomeKeyStrings, and the notes are not in
// the key).
func eachBit(t reflect.Type, path []int, name string, f func(path []int, name string, bit int)) {
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				eachBit(t.Field(i).Type, append(slices.Clone(path), i), strings.TrimPrefix(name+"."+t.Field(i).Name, "."), f)
			}
		}
	case reflect.Array:
		for i := range t.Len() {
			eachBit(t.Elem(), append(slices.Clone(path), i), fmt.Sprintf("%s[%d]", name, i), f)
		}
	case reflect.Bool:
		f(path, name, 0)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		for b := range t.Bits() {
			f(path, name, b)
		}
	}
}
