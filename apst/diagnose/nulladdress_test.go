package diagnose

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNullAddress reads an IOMMU fault's address 0 (AMD-Vi's, posted
// ze-03; Intel's DMAR form) and nothing else.
func TestNullAddress(t *testing.T) {
	for text, want := range map[string]bool{
		"nvme 0000:41:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0018 address=0x0 flags=0x0000]":                   true,
		"AMD-Vi: Event logged [IO_PAGE_FAULT device=01:00.0 domain=0x000e address=0x0000000000000000 flags=0x0020]":        true,
		"DMAR: [DMA Read NO_PASID] Request device [02:00.0] fault addr 0x0 [fault reason 0x06] PTE Read access is not set": true,
		"nvme 0000:01:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x000c address=0xfc345000 flags=0x0020]":            false,
		"DMAR: [DMA Write NO_PASID] Request device [02:00.0] fault addr 0xfffff000 [fault reason 0x05]":                    false,
		"AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x000c address=0x":                                                     false,
	} {
		assert.Equal(t, want, nullAddress(text), text)
	}
}
