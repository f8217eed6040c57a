package kernlog

import "time"

// Sub returns t-u and whether the two can be compared: both times since
// boot, or both wall-clock times of the same kind (with or without a
// year).
func (t Timestamp) Sub(u Timestamp) (time.Duration, bool) { return t.sub(u) }
