//go:build !unix

package nvmeapst_test

import (
	"testing"
	"time"
)

// cpuTime is not measured here: the benchmark's cpu-ns/op reads 0.
func cpuTime(*testing.B) time.Duration { return 0 }
