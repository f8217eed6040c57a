package apst_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

// The pure packages are safe for concurrent use: many goroutines building,
// sweeping and looking up quirks on one shared controller see the same
// results (run under -race in CI).
func TestConcurrentUse(t *testing.T) {
	c := fixture(t, "samsung-990-evo-plus-1tb-2B2QKXG7.bin")
	p := apst.DefaultParams(apst.Current)
	want, err := apst.Build(&c, p)
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				got, err := apst.Build(&c, p)
				if err != nil || got != want {
					errs <- err
					return
				}
				if _, err := analysis.Sweep(&c, p); err != nil {
					errs <- err
					return
				}
				_ = apst.LookupQuirks(apst.Identity{VendorID: c.VendorID, Model: c.Model})
				_ = got.KernelLog()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("concurrent Build differs or failed: %v", err)
	}
}
