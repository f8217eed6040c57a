package capture

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failure is the error a test failFn builds.
type failure struct {
	line     int
	expected string
	err      error
}

func (f *failure) Error() string {
	return fmt.Sprintf("line %d: expected %s: %v", f.line, f.expected, f.err)
}
func (f *failure) Unwrap() error { return f.err }

func testFail(line int, expected string, err error) error {
	return &failure{line: line, expected: expected, err: err}
}

// walk reads any value with the walker into a Go value, as encoding/json
// would (numbers as json.Number).
func walk(w *jsonWalker) (any, error) {
	switch w.Peek() {
	case '{':
		m := map[string]any{}
		err := w.Object("obj", func(key string, _ int) error {
			v, err := walk(w)
			m[strings.Clone(key)] = v
			return err
		})
		return m, err
	case '[':
		a := []any{}
		err := w.Array("arr", func(int, int) error {
			v, err := walk(w)
			a = append(a, v)
			return err
		})
		return a, err
	case '"':
		s, err := w.String("str")
		return strings.Clone(s), err
	case 't', 'f':
		return w.Bool("bool")
	case 'n':
		return nil, w.Skip("null")
	}
	start := w.pos
	if _, err := w.valueText(kindValue, "num", 0); err != nil {
		return nil, err
	}
	return json.Number(w.src[start:w.pos]), nil
}

func TestJSONAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`{}`, `[]`, `{"a":1,"b":[1,2,{"c":"d"}],"e":null,"f":true,"g":false}`,
		`{"s":"a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00"}`, `{"n":-0.5e+10}`, `[0, 10, 1e3, -1]`,
		" \n {\"a\" : [ 1 , 2 ] } ",
	} {
		var want any
		d := json.NewDecoder(strings.NewReader(in))
		d.UseNumber()
		require.NoError(t, d.Decode(&want), in)
		got, err := walk(newJSONWalker(in, 0, testFail))
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
}

func TestJSONErrors(t *testing.T) {
	for _, tc := range []struct {
		in       string
		sentinel error
		line     int
		expected string
	}{
		{"{\n\"a\":\n01}", ErrSyntax, 3, "num"},
		{"{\n\"a\" 1}", ErrSyntax, 2, "':' after a key of obj"},
		{"{\"a\":1", ErrTruncated, 1, "num"},
		{"{\"a\":1 ", ErrTruncated, 1, "',' or the end of obj"},
		{"{\"a\":\"xy", ErrTruncated, 1, "str"},
		{"[1,\n2\n3]", ErrSyntax, 3, "',' or the end of arr"},
		{"{\"a\":\"\\q\"}", ErrSyntax, 1, "a JSON escape"},
		{"{\"a\":\"\x01\"}", ErrSyntax, 1, "a control character"},
		{"{\"a\":tru}", ErrSyntax, 1, "bool"},
		{"{\"a\":tr", ErrTruncated, 1, "bool"},
		{"{1:2}", ErrSyntax, 1, "a key of obj"},
		{strings.Repeat("[", maxDepth+1), ErrSyntax, 1, "nested"},
	} {
		_, err := walk(newJSONWalker(tc.in, 0, testFail))
		require.Error(t, err, tc.in)
		assert.ErrorIs(t, err, tc.sentinel, tc.in)
		var f *failure
		require.True(t, errors.As(err, &f), tc.in)
		assert.Equal(t, tc.line, f.line, "%q: %v", tc.in, err)
		assert.Contains(t, f.expected, tc.expected, tc.in)
	}
}

func TestJSONNumbers(t *testing.T) {
	for _, tc := range []struct {
		in   string
		bits int
		v    uint64
		ok   bool
	}{
		{"0}", 8, 0, true}, {"255}", 8, 255, true}, {"256}", 8, 0, false}, {"-1}", 8, 0, false},
		{"1.0}", 8, 0, false}, {"1e2}", 8, 0, false}, {"18446744073709551615}", 64, 1<<64 - 1, true},
		{"18446744073709551616}", 64, 0, false}, {`"7"}`, 8, 0, false}, {"null}", 8, 0, false},
	} {
		v, ok, found, err := newJSONWalker(tc.in, 0, testFail).UintOK("n", tc.bits)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.ok, ok, tc.in)
		if ok {
			assert.Equal(t, tc.v, v, tc.in)
		} else {
			assert.Equal(t, strings.TrimSuffix(tc.in, "}"), found, tc.in)
		}
	}
	w := newJSONWalker("-2147483648,2147483648}", 0, testFail)
	v, err := w.Int("i")
	require.NoError(t, err)
	assert.Equal(t, int64(-2147483648), v)
	w.pos++
	_, err = w.Int("i")
	assert.ErrorIs(t, err, ErrSyntax)
}

// TestJSONScope: an element's values are named scope[index].key without
// the caller building the name.
func TestJSONScope(t *testing.T) {
	w := newJSONWalker(`{"k":"x"}`, 0, testFail)
	w.SetScope("psds", 3)
	err := w.Object("", func(string, int) error {
		_, err := w.Uint("max_power", 16)
		return err
	})
	var f *failure
	require.ErrorAs(t, err, &f)
	assert.Equal(t, "an unsigned 16-bit integer for psds[3].max_power", f.expected)
}

func FuzzJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":"c\u00e9"}],"d":-1.5e3}`, `[`, `{"a":"\ud83d`, "\"\\", `{"a":01}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := walk(newJSONWalker(s, 0, testFail))
		var want any
		d := json.NewDecoder(strings.NewReader(s))
		d.UseNumber()
		stdErr := d.Decode(&want)
		if err != nil {
			var f *failure
			if !errors.As(err, &f) || f.line < 1 || !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrTruncated) {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		if stdErr != nil {
			t.Fatalf("%q: walker accepted what encoding/json refuses: %v", s, stdErr)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) && strings.ToValidUTF8(s, "") == s {
			t.Fatalf("%q: %v != %v", s, got, want)
		}
	})
}
