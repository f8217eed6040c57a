package persist

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/persist/udev"
)

// TestLiteralModel: a model read from a drive matches only itself, glob
// characters and all.
func TestLiteralModel(t *testing.T) {
	for model, want := range map[string]string{
		"Samsung SSD 990 EVO Plus 1TB": "Samsung SSD 990 EVO Plus 1TB",
		"*":                            "[*]",
		"A?B[1]":                       "A[?]B[[]1]",
	} {
		assert.Equal(t, want, LiteralModel(model))
		s := ExactModelScope(model)
		require.NoError(t, s.Validate(), model)
		ok := udev.Match(s.Model, model)
		assert.True(t, ok, "%q matches %q", s.Model, model)
		if model != "*" {
			ok = udev.Match(s.Model, "Samsung SSD 970 EVO 1TB")
			assert.False(t, ok, model)
		}
	}
	ok := udev.Match(ExactModelScope("*").Model, "Samsung SSD 990 EVO Plus 1TB")
	assert.False(t, ok, "a model * from a capture matches no other model")
	glob, ok := ModelFamily("Weird*Drive 1TB")
	assert.True(t, ok)
	assert.Equal(t, "Weird[*]Drive *", glob)
}
