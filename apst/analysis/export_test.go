package analysis

// SetReplayScanMax sets the longest queue r searches without an index
// (replayScanMax), so that tests can compare the searched and the indexed
// queue on the same events.
func SetReplayScanMax(r *Replayer, n int) { r.lost.scanMax = n }
