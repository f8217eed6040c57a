package promtext_test

import (
	"fmt"

	"github.com/nvmeapst/nvmeapst/internal/promtext"
)

func ExampleWriter() {
	var w promtext.Writer
	w.Family("nvmeapst_latency_tolerance_seconds", promtext.Gauge, "The bound in effect.")
	w.Sample("nvmeapst_latency_tolerance_seconds", 0.025, promtext.Label{Name: "device", Value: "nvme0"})
	w.Family("nvmeapst_controller_info", promtext.Gauge, "A controller; value 1.")
	w.Sample("nvmeapst_controller_info", 1, promtext.Label{Name: "device", Value: "nvme0"}, promtext.Label{Name: "model", Value: `say "hi"`})
	if err := w.Err(); err != nil {
		fmt.Println(err)
	}
	fmt.Print(string(w.Bytes()))
	// Output:
	// # HELP nvmeapst_latency_tolerance_seconds The bound in effect.
	// # TYPE nvmeapst_latency_tolerance_seconds gauge
	// nvmeapst_latency_tolerance_seconds{device="nvme0"} 0.025
	// # HELP nvmeapst_controller_info A controller; value 1.
	// # TYPE nvmeapst_controller_info gauge
	// nvmeapst_controller_info{device="nvme0",model="say \"hi\""} 1
}
