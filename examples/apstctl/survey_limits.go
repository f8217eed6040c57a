package main

// Limits of "apstctl survey" on what its command line and its inputs
// control (docs/spec/cli.md, "survey: limits").
const (
	// surveyWorkersMax bounds --workers: each worker holds a read buffer
	// of up to a capture's 1 MiB and its batches of rows.
	surveyWorkersMax = 256
	// surveyUnreadableListMax and surveyUnreadableBytesMax bound the list
	// of unreadable files the report keeps for its end (text and JSON):
	// the files after those are counted, not listed. NDJSON lists every
	// one as it comes.
	surveyUnreadableListMax  = 10000
	surveyUnreadableBytesMax = 8 << 20
	// What --merge reads of a shard is bounded by apst/survey's decoder:
	// shard.ValueMax for each JSON value, shard.PathMax and
	// shard.VendorMax for a row's path (PATH_MAX) and vendor name.
)

// defaultSurveyWorkers is --workers' default: one per CPU, within the
// limit.
func defaultSurveyWorkers(procs int) int { return min(max(procs, 1), surveyWorkersMax) }

// unreadableListLimit, when not 0, replaces surveyUnreadableListMax in the
// surveys that start after it is set: tests lower it so that a list
// overflows with a few files instead of 10,000.
var unreadableListLimit int

// unreadableList is the survey's unreadable files: every one counted, the
// first surveyUnreadableListMax (within surveyUnreadableBytesMax bytes of
// paths and reasons) listed.
type unreadableList struct {
	listed []surveyUnreadable
	total  int
	// byReason counts every file by its Reason ("" counts as "other").
	byReason map[string]int
	bytes    int
	limit    int // the list's length limit; 0 means surveyUnreadableListMax (tests set less)
}

// max returns the most files the list holds.
func (l *unreadableList) max() int {
	if l.limit > 0 {
		return l.limit
	}
	return surveyUnreadableListMax
}

// add counts u and lists it while the list has room.
func (l *unreadableList) add(u surveyUnreadable) {
	l.total++
	if l.byReason == nil {
		l.byReason = make(map[string]int)
	}
	reason := u.Reason
	if reason == "" {
		reason = reasonUnclassified
	}
	l.byReason[reason]++
	if len(l.listed) < l.max() && l.bytes+len(u.Path)+len(u.Error) <= surveyUnreadableBytesMax {
		l.listed = append(l.listed, u)
		l.bytes += len(u.Path) + len(u.Error)
	}
}

// addUnlisted counts n unreadable files that are not listed (a merged
// shard's).
func (l *unreadableList) addUnlisted(n int) {
	l.total += n
	if n > 0 {
		if l.byReason == nil {
			l.byReason = make(map[string]int)
		}
		l.byReason[reasonUnlisted] += n
	}
}

// reasons returns the counts by reason (an empty map, not nil, for none).
func (l *unreadableList) reasons() map[string]int {
	if l.byReason == nil {
		return map[string]int{}
	}
	return l.byReason
}

// len returns the number of unreadable files, listed or not.
func (l *unreadableList) len() int { return l.total }

// notListed returns the number of unreadable files counted but not listed.
func (l *unreadableList) notListed() int { return l.total - len(l.listed) }
