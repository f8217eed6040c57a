package analysis

import (
	"fmt"
	"time"

	"github.com/nvmeapst/nvmeapst/apst"
)

// DefaultLostAfter is how long a Replayer waits for a command's completion
// before it counts the command lost: the kernel's default NVMe I/O timeout
// (nvme_core.io_timeout, 30 s), after which the kernel itself aborts it.
const DefaultLostAfter = 30 * time.Second

// MaxLostAfter is the largest ReplayOptions.LostAfter.
const MaxLostAfter = 24 * time.Hour

// replayQueueMax bounds the dispatches a Replayer holds while it waits for
// their completions: a command outstanding while this many later ones were
// dispatched is counted lost however young it is.
const replayQueueMax = 1 << 16

// ReplayOptions tunes a Replayer. The zero value gives the defaults.
type ReplayOptions struct {
	// LostAfter is how long after its dispatch a command whose completion
	// has not come is counted lost (ReplayReport.LostCommands) and
	// replayed as if the trace did not hold it. 0 means DefaultLostAfter;
	// at most MaxLostAfter. A command is also counted lost when 65536
	// later commands were dispatched while it was outstanding.
	//
	// Only events with an ID (trace.Event.ID: every format the trace
	// package reads gives one) are matched and can be lost; a completion
	// with an ID no outstanding dispatch has is counted in
	// ReplayReport.UnmatchedCompletions and ignored.
	LostAfter time.Duration
}

// replayCmd is a dispatch in the queue of a Replayer: outstanding, or
// completed (done) while an older one was still outstanding.
type replayCmd struct {
	id   uint64
	t    int64
	done bool
}

// replayScanMax is the longest queue a Replayer searches from end to end
// for the dispatch a completion matches. A longer one is indexed by ID
// (lostState.live and skip) until it empties: a queue that stays short,
// as most do (a device has few commands in flight), costs no map
// operation per command.
const replayScanMax = 32

// replayPending are the idle periods a Replayer would count if the oldest
// outstanding command (the suspect) were lost: counted in when it is,
// dropped when its completion comes.
type replayPending struct {
	count, sumG [apst.Entries]uint64
}

// lostState is what a Replayer keeps to survive lost completions.
type lostState struct {
	after int64 // ns
	q     []replayCmd
	qHead int
	// While indexed (q has grown beyond scanMax entries since it was last
	// empty), live counts the outstanding dispatches per ID and skip the
	// completed ones still in q not marked done; otherwise both are empty
	// and a completion marks its dispatch done.
	indexed bool
	scanMax int
	live    map[uint64]uint32
	skip    map[uint64]uint32
	tracked uint64 // outstanding dispatches with an ID
	lost    uint64
	stray   uint64 // completions of no outstanding dispatch

	// lostAt holds the dispatch times of lost commands by ID (at most
	// replayQueueMax of them, made on the first loss) until their
	// completion comes; shortestLate is the shortest time from dispatch
	// to completion of those that came (ns, 0 when none did).
	lostAt       map[uint64]int64
	shortestLate int64
	late         bool // a lost command's completion came

	// The suspect is q's first outstanding command. shadowIdle and
	// shadowStart are the idle state the device would be in without it;
	// pending the periods that state has met; suspectG the period its
	// dispatch ended (when suspectHasG).
	shadowIdle     bool
	shadowStart    int64
	pending        []replayPending
	pendingPeriods uint64
	suspectG       uint64
	suspectHasG    bool
}

func (ls *lostState) init(opts ReplayOptions, configs int) error {
	switch d := opts.LostAfter; {
	case d == 0:
		ls.after = int64(DefaultLostAfter)
	case d < 0 || d > MaxLostAfter:
		return fmt.Errorf("%w: lost-after %v: want more than 0 and at most %v", ErrReplayConfig, d, MaxLostAfter)
	default:
		ls.after = int64(d)
	}
	ls.live, ls.skip = map[uint64]uint32{}, map[uint64]uint32{}
	ls.scanMax = replayScanMax
	ls.pending = make([]replayPending, configs)
	return nil
}

// outstanding returns the number of outstanding commands.
func (r *Replayer) outstandingAll() uint64 { return r.lost.tracked + r.outstanding }

// normalize drops the completed commands from the front of the queue, so
// that q[qHead] is the suspect (when tracked > 0).
func (ls *lostState) normalize() {
	for ls.qHead < len(ls.q) {
		h := &ls.q[ls.qHead]
		if !h.done {
			if !ls.indexed {
				return
			}
			n := ls.skip[h.id]
			if n == 0 {
				return
			}
			if n == 1 {
				delete(ls.skip, h.id)
			} else {
				ls.skip[h.id] = n - 1
			}
		}
		ls.qHead++
	}
	ls.q, ls.qHead = ls.q[:0], 0
	ls.indexed = false // live and skip are empty
}

// push queues an outstanding dispatch.
func (ls *lostState) push(c replayCmd) {
	if len(ls.q) < cap(ls.q) && !ls.indexed && len(ls.q)-ls.qHead < ls.scanMax {
		// The common case, inlined: room, and a queue short enough to
		// search (as below, without the cases that do not apply).
		ls.q = append(ls.q, c)
		ls.tracked++
		return
	}
	ls.pushSlow(c)
}

func (ls *lostState) pushSlow(c replayCmd) {
	if ls.qHead > 0 && len(ls.q) == cap(ls.q) && ls.qHead >= len(ls.q)/2 {
		n := copy(ls.q, ls.q[ls.qHead:])
		ls.q, ls.qHead = ls.q[:n], 0
	}
	ls.q = append(ls.q, c)
	ls.tracked++
	switch {
	case ls.indexed:
		ls.live[c.id]++
	case len(ls.q)-ls.qHead > ls.scanMax:
		for _, o := range ls.q[ls.qHead:] {
			if !o.done {
				ls.live[o.id]++
			}
		}
		ls.indexed = true
	}
}

// complete marks the oldest outstanding dispatch with id, other than the
// suspect, completed. It reports false when there is none.
func (ls *lostState) complete(id uint64) bool {
	if ls.indexed {
		if ls.live[id] == 0 {
			return false
		}
		ls.unlive(id)
		ls.skip[id]++
		return true
	}
	for i := ls.qHead + 1; i < len(ls.q); i++ {
		if c := &ls.q[i]; c.id == id && !c.done {
			c.done = true
			ls.tracked--
			return true
		}
	}
	return false
}

// popSuspect removes the suspect from the queue and from live.
func (ls *lostState) popSuspect() {
	id := ls.q[ls.qHead].id
	ls.qHead++
	ls.unlive(id)
	ls.normalize()
}

func (ls *lostState) unlive(id uint64) {
	if !ls.indexed {
		ls.tracked--
		return
	}
	if n := ls.live[id]; n <= 1 {
		delete(ls.live, id)
	} else {
		ls.live[id] = n - 1
	}
	ls.tracked--
}

// resetPending starts a new suspect's watch: no pending periods.
func (r *Replayer) resetPending(shadowIdle bool, start int64) {
	ls := &r.lost
	if ls.pendingPeriods > 0 { // else pending is clear: only pendingPeriod writes it
		for i := range ls.pending {
			ls.pending[i] = replayPending{}
		}
	}
	ls.pendingPeriods = 0
	ls.shadowIdle, ls.shadowStart = shadowIdle, start
	ls.suspectG, ls.suspectHasG = 0, false
}

// pendingPeriod counts an idle period of g ns as pending.
func (r *Replayer) pendingPeriod(g uint64) {
	ls := &r.lost
	ls.pendingPeriods++
	for i := range r.counts {
		k := r.counts[i].step(g)
		ls.pending[i].count[k]++
		ls.pending[i].sumG[k] += g
	}
}

// expire counts lost the suspects that have waited longer than the bound
// (or behind too many later dispatches) at time t: their pending periods
// are counted, the period their dispatch ended is not, and the device's
// state becomes what it would have been without them.
func (r *Replayer) expire(t int64) {
	ls := &r.lost
	for ls.tracked > 0 {
		if !ls.due(t) {
			return
		}
		ls.noteLost(ls.q[ls.qHead])
		ls.popSuspect()
		ls.lost++
		r.periods += ls.pendingPeriods
		for i := range r.counts {
			cs := &r.counts[i]
			for k := range cs.count {
				cs.count[k] += ls.pending[i].count[k]
				cs.sumG[k] += ls.pending[i].sumG[k]
			}
			if ls.suspectHasG {
				k := cs.step(ls.suspectG)
				cs.count[k]--
				cs.sumG[k] -= ls.suspectG
			}
		}
		if ls.suspectHasG {
			r.periods--
		}
		if r.outstandingAll() == 0 {
			r.idle, r.idleStart = ls.shadowIdle, ls.shadowStart
		}
		// The next suspect's own shadow is not known back to its
		// dispatch: periods while two lost commands overlap are missed.
		r.resetPending(false, 0)
	}
}

// due reports whether the suspect (tracked > 0) is to be counted lost at
// time t: it has waited longer than the bound, or behind too many later
// dispatches.
func (ls *lostState) due(t int64) bool {
	return t-ls.q[ls.qHead].t > ls.after || len(ls.q)-ls.qHead > replayQueueMax
}

// dispatchTracked records a dispatch with an ID at t; ended and g say
// whether it ended an idle period, and its length.
func (r *Replayer) dispatchTracked(id uint64, t int64, wasIdle bool, idleStart int64, g uint64, ended bool) {
	ls := &r.lost
	if ls.tracked == 0 {
		// The suspect from now on: without it the device would still be
		// idle (if it was and nothing else is outstanding).
		r.resetPending(wasIdle && r.outstanding == 0, idleStart)
		ls.suspectG, ls.suspectHasG = g, ended
	} else if ls.shadowIdle {
		if d := t - ls.shadowStart; d > 0 {
			r.pendingPeriod(uint64(d))
		}
		ls.shadowIdle = false
	}
	ls.push(replayCmd{id: id, t: t})
}

// completeTracked records a completion with an ID at t and reports whether
// it matched an outstanding dispatch.
func (r *Replayer) completeTracked(id uint64, t int64) bool {
	ls := &r.lost
	if ls.tracked > 0 && ls.q[ls.qHead].id == id {
		// The suspect completed: what it kept from being idle was not
		// idle. The next one, if any, is watched from now on.
		ls.popSuspect()
		r.resetPending(ls.tracked > 0 && r.outstandingAll() == 1, t)
		return true
	}
	if !ls.complete(id) {
		ls.stray++
		ls.lateCompletion(id, t)
		return false
	}
	if r.outstandingAll() == 1 { // only the suspect is left
		ls.shadowIdle, ls.shadowStart = true, t
	}
	return true
}

// noteLost remembers the dispatch time of the lost command c, for its
// completion if it comes (lateCompletion), while fewer than replayQueueMax
// are remembered.
func (ls *lostState) noteLost(c replayCmd) {
	if ls.lostAt == nil {
		ls.lostAt = map[uint64]int64{}
	}
	if _, ok := ls.lostAt[c.id]; ok || len(ls.lostAt) < replayQueueMax {
		ls.lostAt[c.id] = c.t
	}
}

// lateCompletion records a completion at t of no outstanding dispatch: if
// it is a lost command's, how long that command took.
func (ls *lostState) lateCompletion(id uint64, t int64) {
	d0, ok := ls.lostAt[id]
	if !ok {
		return
	}
	delete(ls.lostAt, id)
	if d := t - d0; !ls.late || d < ls.shortestLate {
		ls.shortestLate, ls.late = d, true
	}
}

// step returns the step of the idle timeline an idle period of g ns ends
// in: the last whose From × 1000 ≤ g.
func (cs *replayCounts) step(g uint64) int {
	if cs.n == 1 || g < cs.fromNs[1] {
		return 0 // most idle periods end in the first step
	}
	k := cs.n - 1
	for k > 0 && cs.fromNs[k] > g {
		k--
	}
	return k
}
