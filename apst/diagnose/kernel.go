package diagnose

import "github.com/nvmeapst/nvmeapst/apst"

// refusesSetFeatures lists the first release of each line that has
// "nvme: reject passthrough of driver-managed Set Features" (1161be71d1ec,
// v7.3-rc1, backported to 7.2.6, 6.18.52, 6.12.110 and 6.6.158;
// kernel-apst.md §14).
var refusesSetFeatures = []apst.Release{
	{Major: 7, Minor: 2, Patch: 6}, {Major: 6, Minor: 18, Patch: 52}, {Major: 6, Minor: 12, Patch: 110}, {Major: 6, Minor: 6, Patch: 158},
}

// RefusesAPSTPassthrough reports whether kernel release r refuses Set
// Features 0Ch (APST) from user space, so that "someone rewrote the table
// with nvme set-feature" is not a cause there and nvme set-feature -f 0x0c
// is no workaround. known is false for the zero release. A distribution
// kernel whose release does not carry its stable base is judged by the
// release as given.
func RefusesAPSTPassthrough(r apst.Release) (refuses, known bool) {
	if r.IsZero() {
		return false, false
	}
	if r.Compare(apst.Release{Major: 7, Minor: 3}) >= 0 {
		return true, true
	}
	for _, first := range refusesSetFeatures {
		if r.Major == first.Major && r.Minor == first.Minor {
			return r.Patch >= first.Patch, true
		}
	}
	return false, true
}
