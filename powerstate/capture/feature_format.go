package capture

import (
	"errors"
	"fmt"
)

// FeatureFormat names the form of an APST feature capture (Get Features
// FID 0Ch): FeatureCapture.Format records it. The feature forms are this
// package's own enumeration, apart from powerstate.Format (which names the
// Identify Controller forms a powerstate.Controller records), so that a
// new get-feature form is a value here, its reader and its detection, all
// in this package. The zero value, FeatureUnknown, is no form.
type FeatureFormat uint8

// The APST feature capture forms.
const (
	FeatureUnknown   FeatureFormat = iota // not a feature capture, or not recognised
	FeatureBinary                         // the raw 256-byte APST data buffer (nvme get-feature -f 0x0c -b)
	FeatureText                           // nvme get-feature -f 0x0c -H, v0.9 to v2.x
	FeatureHexDump                        // nvme get-feature -f 0x0c (a hex dump of the buffer)
	FeatureJSON                           // nvme get-feature -f 0x0c -o json
	FeatureTextTable                      // nvme get-feature -f 0x0c -H, nvme-cli's "name : value" tables (feature_table.go)
)

// featureFormatNames are the names String and MarshalText write, the ones
// the command's reports print.
var featureFormatNames = [...]string{
	FeatureUnknown:   "unknown",
	FeatureBinary:    "feature-binary",
	FeatureText:      "feature-text",
	FeatureHexDump:   "feature-hexdump",
	FeatureJSON:      "feature-json",
	FeatureTextTable: "feature-text-table",
}

// String returns the form's name ("feature-text"), or "FeatureFormat(N)"
// for a value that is none of the constants.
func (f FeatureFormat) String() string {
	if int(f) < len(featureFormatNames) {
		return featureFormatNames[f]
	}
	return fmt.Sprintf("FeatureFormat(%d)", uint8(f))
}

// ErrFeatureFormatText is matched (errors.Is) by the error of
// FeatureFormat's MarshalText for a value that is none of the constants,
// and of UnmarshalText for a name that is none of theirs.
var ErrFeatureFormatText = errors.New("capture: not a feature capture form")

// MarshalText writes the form's name; a value that is none of the
// constants is refused.
func (f FeatureFormat) MarshalText() ([]byte, error) {
	if int(f) >= len(featureFormatNames) {
		return nil, fmt.Errorf("%w: FeatureFormat(%d)", ErrFeatureFormatText, uint8(f))
	}
	return []byte(featureFormatNames[f]), nil
}

// UnmarshalText reads a name MarshalText writes; any other is refused and
// *f is left as it was.
func (f *FeatureFormat) UnmarshalText(b []byte) error {
	for i, name := range featureFormatNames {
		if string(b) == name {
			*f = FeatureFormat(i)
			return nil
		}
	}
	return fmt.Errorf("%w: %q (want one of feature-binary, feature-text, feature-hexdump, feature-json, feature-text-table, unknown)", ErrFeatureFormatText, b)
}
