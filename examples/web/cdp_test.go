//go:build browser

package main

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// A minimal Chrome DevTools Protocol client over --remote-debugging-pipe:
// Chromium reads commands from its fd 3 and writes replies and events to
// its fd 4, each a JSON message ended by a NUL byte. No websocket, no
// third-party module: the test drives the browser with nothing but the
// standard library.

type cdpMessage struct {
	ID        int64           `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *cdpError       `json:"error,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
}

type cdpError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type browser struct {
	cmd     *exec.Cmd
	w       io.WriteCloser
	mu      sync.Mutex
	next    int64
	pending map[int64]chan cdpMessage
	events  chan cdpMessage
	logs    chan string
	done    chan struct{}
}

// chromiumFlags are the flags of a headless Chromium that runs as root in a
// container and talks to nothing but the page.
func chromiumFlags(profile string) []string {
	return []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--disable-extensions", "--mute-audio", "--hide-scrollbars",
		"--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank",
	}
}

func startBrowser(t *testing.T, path string) *browser {
	t.Helper()
	toR, toW, err := os.Pipe() // we write, Chromium reads (its fd 3)
	if err != nil {
		t.Fatal(err)
	}
	fromR, fromW, err := os.Pipe() // Chromium writes (its fd 4), we read
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, chromiumFlags(t.TempDir())...)
	cmd.ExtraFiles = []*os.File{toR, fromW}
	if testing.Verbose() {
		cmd.Stderr = os.Stderr
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	toR.Close()
	fromW.Close()
	b := &browser{cmd: cmd, w: toW, pending: map[int64]chan cdpMessage{}, events: make(chan cdpMessage, 256),
		logs: make(chan string, 256), done: make(chan struct{})}
	go b.read(fromR)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = b.call(ctx, "", "Browser.close", nil, nil)
		cancel()
		select {
		case <-b.done:
		case <-time.After(5 * time.Second):
		}
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
		}
		_ = cmd.Wait()
		toW.Close()
	})
	return b
}

func (b *browser) read(r io.Reader) {
	defer close(b.done)
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		raw, err := br.ReadBytes(0)
		if err != nil {
			b.mu.Lock()
			for id, ch := range b.pending {
				close(ch)
				delete(b.pending, id)
			}
			b.mu.Unlock()
			return
		}
		var m cdpMessage
		if json.Unmarshal(raw[:len(raw)-1], &m) != nil {
			continue
		}
		if m.ID != 0 {
			b.mu.Lock()
			ch := b.pending[m.ID]
			delete(b.pending, m.ID)
			b.mu.Unlock()
			if ch != nil {
				ch <- m
			}
			continue
		}
		switch m.Method {
		case "Runtime.consoleAPICalled", "Runtime.exceptionThrown", "Log.entryAdded":
			select {
			case b.logs <- m.Method + " " + string(m.Params):
			default:
			}
		}
		select {
		case b.events <- m:
		default: // nobody waits for it
		}
	}
}

// call sends a command (to a session, or the browser for "") and decodes
// its result into result.
func (b *browser) call(ctx context.Context, session, method string, params, result any) error {
	b.mu.Lock()
	b.next++
	id := b.next
	ch := make(chan cdpMessage, 1)
	b.pending[id] = ch
	b.mu.Unlock()
	var p json.RawMessage
	if params != nil {
		var err error
		if p, err = json.Marshal(params); err != nil {
			return err
		}
	}
	msg, _ := json.Marshal(cdpMessage{ID: id, Method: method, Params: p, SessionID: session})
	if _, err := b.w.Write(append(msg, 0)); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return fmt.Errorf("%s: the browser went away", method)
		}
		if m.Error != nil {
			return fmt.Errorf("%s: %s (%d)", method, m.Error.Message, m.Error.Code)
		}
		if result != nil {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// page is one tab, attached with a flat session.
type page struct {
	t       *testing.T
	b       *browser
	session string
}

func (b *browser) newPage(t *testing.T) *page {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		t.Fatal(err)
	}
	var att struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att); err != nil {
		t.Fatal(err)
	}
	p := &page{t: t, b: b, session: att.SessionID}
	for _, m := range []string{"Page.enable", "Runtime.enable", "Log.enable"} {
		p.do(m, nil, nil)
	}
	return p
}

func (p *page) do(method string, params, result any) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := p.b.call(ctx, p.session, method, params, result); err != nil {
		p.t.Fatal(err)
	}
}

// eval runs a JavaScript expression in the page (awaiting a promise) and
// decodes its value into out.
func (p *page) eval(expr string, out any) {
	p.t.Helper()
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	p.do("Runtime.evaluate", map[string]any{"expression": expr, "awaitPromise": true, "returnByValue": true}, &r)
	if r.Exception != nil {
		p.t.Fatalf("eval %s: %s %s", expr, r.Exception.Text, r.Exception.Exception.Description)
	}
	if out != nil && len(r.Result.Value) > 0 {
		if err := json.Unmarshal(r.Result.Value, out); err != nil {
			p.t.Fatalf("eval %s: %v (%s)", expr, err, r.Result.Value)
		}
	}
}

func (p *page) str(expr string) string {
	p.t.Helper()
	var s string
	p.eval(expr, &s)
	return s
}

func (p *page) num(expr string) float64 {
	p.t.Helper()
	var f float64
	p.eval(expr, &f)
	return f
}

// waitFor polls a JavaScript condition until it is true.
func (p *page) waitFor(cond string, timeout time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		var ok bool
		p.eval("!!("+cond+")", &ok)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waited %s for %s", timeout, cond)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// navigate loads url and waits for its load event.
func (p *page) navigate(url string) {
	p.t.Helper()
	p.do("Page.navigate", map[string]any{"url": url}, nil)
	p.waitFor("document.readyState === 'complete'", 30*time.Second)
}

// typeInto focuses the element, selects its content and replaces it with
// text: short text is typed (Input.insertText, one input event), longer
// text pasted (the value set and an input event of inputType
// insertFromPaste, what a paste fires: Chromium's insertText takes seconds
// for a few kilobytes in a textarea).
func (p *page) typeInto(id, text string) {
	p.t.Helper()
	p.eval(fmt.Sprintf("(() => { const e = document.getElementById(%q); e.focus(); e.select(); })()", id), nil)
	switch {
	case text == "":
		p.do("Input.dispatchKeyEvent", map[string]any{"type": "keyDown", "key": "Delete", "code": "Delete", "windowsVirtualKeyCode": 46}, nil)
		p.do("Input.dispatchKeyEvent", map[string]any{"type": "keyUp", "key": "Delete", "code": "Delete", "windowsVirtualKeyCode": 46}, nil)
	case len(text) < 64:
		p.do("Input.insertText", map[string]any{"text": text}, nil)
	default:
		js, _ := json.Marshal(text)
		p.eval(fmt.Sprintf("(e => { e.value = %s; e.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertFromPaste'})); e.setSelectionRange(0, 0); })(document.getElementById(%q))", js, id), nil)
	}
}

// screenshotOf writes a PNG of a width × height viewport (CSS pixels, at
// scale device pixels each) scrolled to the element of id. Headless
// Chromium can wait forever for a frame when nothing changed since the
// last capture, so a capture that takes over 10 s is retried with the
// viewport one pixel higher (a resize makes a frame).
func (p *page) screenshotOf(path, id string, width, height int, scale float64, mobile bool) error {
	var shot struct {
		Data string `json:"data"`
	}
	var err error
	for try := range 3 {
		p.do("Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height + try, "deviceScaleFactor": scale, "mobile": mobile}, nil)
		p.eval(fmt.Sprintf("document.getElementById(%q).scrollIntoView()", id), nil)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err = p.b.call(ctx, p.session, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot)
		cancel()
		if err == nil {
			break
		}
	}
	if err != nil {
		return err
	}
	b, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		return err
	}
	if len(b) == 0 {
		return errors.New("empty screenshot")
	}
	return os.WriteFile(path, b, 0o644)
}

// pickFile sets the files of the file input of id, as choosing them in the
// file dialog does (the page's change handler runs).
func (p *page) pickFile(id, path string) {
	p.t.Helper()
	var doc struct {
		Root struct {
			NodeID int `json:"nodeId"`
		} `json:"root"`
	}
	p.do("DOM.getDocument", map[string]any{"depth": 0}, &doc)
	var q struct {
		NodeID int `json:"nodeId"`
	}
	p.do("DOM.querySelector", map[string]any{"nodeId": doc.Root.NodeID, "selector": "#" + id}, &q)
	abs, err := filepath.Abs(path)
	if err != nil {
		p.t.Fatal(err)
	}
	p.do("DOM.setFileInputFiles", map[string]any{"nodeId": q.NodeID, "files": []string{abs}}, nil)
}
