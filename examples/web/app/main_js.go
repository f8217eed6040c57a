//go:build js && wasm

package main

import (
	"encoding/json"
	"fmt"
	"syscall/js"
)

// main registers apstweb.compute(capture, feature, options, log) on the
// page: capture, feature and log (the kernel log, which may be left out)
// are Uint8Arrays (or null), options the JSON of a Request; it returns the
// JSON of a Response; apstweb.withLog says whether this build diagnoses
// kernel logs (app-log.wasm) or not (app.wasm). It then fires the event
// "apstweb-ready" on window and waits for calls.
func main() {
	api := js.Global().Get("Object").New()
	api.Set("compute", js.FuncOf(compute))
	api.Set("withLog", withLog)
	js.Global().Set("apstweb", api)
	js.Global().Call("dispatchEvent", js.Global().Get("Event").New("apstweb-ready"))
	select {}
}

func compute(_ js.Value, args []js.Value) (out any) {
	defer func() {
		// A panic would stop the program and the page with it; report it
		// at the capture instead (it is a bug: please file the capture).
		if e := recover(); e != nil {
			out = errorJSON(fmt.Sprintf("internal error (please report it with the capture or the kernel log): %v", e))
		}
	}()
	if len(args) != 3 && len(args) != 4 {
		return errorJSON("internal error: the page asked the engine with the wrong number of inputs (please report it)")
	}
	var req Request
	if err := json.Unmarshal([]byte(args[2].String()), &req); err != nil {
		return errorJSON("internal error: the page sent settings the engine could not read (please report it): " + err.Error())
	}
	req.Capture = bytesOf(args[0], maxCapture)
	req.Feature = bytesOf(args[1], maxCapture)
	if len(args) == 4 {
		req.Log = bytesOf(args[3], maxLog)
	}
	b, err := json.Marshal(Compute(&req))
	if err != nil {
		return errorJSON(err.Error())
	}
	return string(b)
}

// bytesOf copies a Uint8Array into Go; null and undefined are nil, and
// anything over limit (reported by Compute) is cut short first.
func bytesOf(v js.Value, limit int) []byte {
	if v.IsNull() || v.IsUndefined() {
		return nil
	}
	n := v.Get("length").Int()
	if n > limit+1 {
		n = limit + 1
		v = v.Call("subarray", 0, n)
	}
	b := make([]byte, n)
	js.CopyBytesToGo(b, v)
	return b
}

// errorJSON is the page's answer for an error of the capture. Not inlined:
// 1.5 KB of wasm in copies.
//
//go:noinline
func errorJSON(msg string) string {
	b, _ := json.Marshal(Response{Errors: map[string]string{"capture": msg}, Millis: map[string]float64{}})
	return string(b)
}
