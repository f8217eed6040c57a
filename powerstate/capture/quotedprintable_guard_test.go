package capture

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A plain capture whose serial number ends in "=" (padded with blanks, as
// nvme-cli pads it) has what looks like one soft line break and no escape:
// it is not a mail body. foundErr by FuzzParseNVMeCLIText through convert.
func TestSoftBreakAloneIsNotQuotedPrintable(t *testing.T) {
	plain := "NVME Identify Controller:\nsn        : SYNTHETI=           \nmn        : Samsung 980 PRO 1TB\n"
	assert.False(t, looksQuotedPrintable(plain))
	got, decoded := decodeQuotedPrintable(plain)
	assert.False(t, decoded)
	assert.Equal(t, plain, got)

	mail := "sn        : SYNTHETI=20=20=20\nmn        : Samsung 980 PRO =\n1TB\n"
	assert.True(t, looksQuotedPrintable(mail), "escapes and a soft break: a mail body")
	assert.True(t, looksQuotedPrintable("ab=\ncd\n"), "a soft break at the very end of a line: a mail body")
}
