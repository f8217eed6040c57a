package apst

// PowerManagement is the Power Management feature (FID 02h) as Get Features
// returns it in completion dword 0: the power state the controller is in
// and the workload hint. The zero value is PS0 with no hint.
type PowerManagement struct {
	// State is PS, bits 4:0: the power state the controller is in.
	State uint8
	// WorkloadHint is WH, bits 7:5: 0 none, 1 workload #1, 2 workload #2.
	WorkloadHint uint8
}

// DecodePowerManagement decodes completion dword 0 of a Get Features FID
// 02h command. Reserved bits 31:8 are ignored.
func DecodePowerManagement(dword0 uint32) PowerManagement {
	return PowerManagement{State: uint8(dword0 & 0x1f), WorkloadHint: uint8(dword0>>5) & 0x7}
}
