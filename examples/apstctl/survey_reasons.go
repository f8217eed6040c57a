package main

import (
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// Why a survey could not read a file: the keys of the text report's
// "unreadable by reason" line and of unreadable_by_reason in JSON.
const (
	reasonNotRegular   = "not-a-regular-file"
	reasonRead         = "read-error"
	reasonBundle       = "bundle"
	reasonSurvey       = "not-surveyed"
	reasonEmpty        = "empty"
	reasonZero         = "all-zero"
	reasonNamespace    = "namespace-image"
	reasonRandom       = "random-bytes"
	reasonOtherFile    = "other-file-kind"
	reasonImpossible   = "impossible-field"
	reasonImageSize    = "wrong-image-size"
	reasonFeature      = "feature-capture"
	reasonUnknown      = "unknown-format"
	reasonTooLarge     = "too-large"
	reasonTruncated    = "truncated"
	reasonNoStates     = "no-power-states"
	reasonMultiple     = "multiple-captures"
	reasonMalformed    = "malformed"
	reasonUnclassified = "other"
	// reasonUnlisted counts a merged shard's files beyond its list, whose
	// reasons the shard does not keep.
	reasonUnlisted = "not-listed-in-shard"
)

// captureReason classifies the error of capture.ParseBytes.
func captureReason(err error) string {
	var ne *powerstate.NotIdentifyError
	if errors.As(err, &ne) && ne.Kind != "" {
		return ne.Kind // the library's class: all-zero, namespace-image, ...
	}
	for _, r := range []struct {
		err    error
		reason string
	}{
		{capture.ErrEmpty, reasonEmpty},
		{powerstate.ErrImageSize, reasonImageSize},
		{capture.ErrFeatureCapture, reasonFeature},
		{capture.ErrUnknownFormat, reasonUnknown},
		{capture.ErrTooLarge, reasonTooLarge},
		{capture.ErrTruncated, reasonTruncated},
		{capture.ErrNoPowerStates, reasonNoStates},
		{capture.ErrMultipleCaptures, reasonMultiple},
		{capture.ErrSyntax, reasonMalformed},
		{capture.ErrDuplicateKey, reasonMalformed},
	} {
		if errors.Is(err, r.err) {
			return r.reason
		}
	}
	return reasonUnclassified
}

// reasonCounts writes counts as "empty 2, random-bytes 1", most first.
func reasonCounts(counts map[string]int) string {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if counts[keys[i]] != counts[keys[j]] {
			return counts[keys[i]] > counts[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k)
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(counts[k]))
	}
	return b.String()
}
