package kernlog

import (
	"bytes"
	"encoding/json"
)

// dmesgJSON reads a line of dmesg --json (util-linux 2.38 and later):
// each record is an object over several lines, "pri", "time" (seconds
// since boot), "caller" and "msg" (util-linux's tests/expected/dmesg/json):
//
//	},{
//	   "pri": 4,
//	   "time":   812.104211,
//	   "msg": "nvme nvme0: controller is down; will reset: ..."
//
// A "time" line is kept for the "msg" after it, which becomes the line
// dmesg itself prints ("[  812.104211] nvme nvme0: ..."); "pri" and
// "caller" lines are consumed (b nil). ok is false, and b unchanged, for
// any other line.
func (st *state) dmesgJSON(b []byte) (_ []byte, ok bool) {
	t := bytes.TrimLeft(b, " \t")
	if len(t) == 0 || t[0] != '"' {
		return b, false
	}
	switch {
	case bytes.HasPrefix(t, []byte(`"time": `)):
		v := bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(t[len(`"time": `):]), []byte(",")))
		if _, ok := parseSeconds(string(v)); !ok {
			return b, false
		}
		st.jsonTime, st.jsonTimeOn = append(st.jsonTime[:0], v...), true
		return nil, true
	case bytes.HasPrefix(t, []byte(`"pri": `)), bytes.HasPrefix(t, []byte(`"caller": "`)):
		return nil, true
	case bytes.HasPrefix(t, []byte(`"msg": "`)):
		v := bytes.TrimSuffix(bytes.TrimSpace(t[len(`"msg": `):]), []byte(","))
		var msg string
		if json.Unmarshal(v, &msg) != nil {
			return b, false
		}
		line := make([]byte, 0, len(msg)+20)
		if st.jsonTimeOn {
			line = append(line, '[')
			for i := len(st.jsonTime); i < 12; i++ {
				line = append(line, ' ')
			}
			line = append(line, st.jsonTime...)
			line = append(line, "] "...)
		}
		st.jsonTimeOn = false
		return append(line, msg...), true
	}
	return b, false
}
