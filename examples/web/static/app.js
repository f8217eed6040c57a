// The APST page: reads the inputs, asks the WebAssembly engine
// (apstweb.compute, examples/web/app) for the answer, and draws it: the
// headline and the table first, then the sweep picture, then the rest.
// Every string from a capture or a kernel log is set as text (textContent,
// text nodes), never as markup. Nothing is sent anywhere: the only
// requests are for this page's own files.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const SVGNS = 'http://www.w3.org/2000/svg';
  const t0 = performance.now();

  // Test and measurement hooks: when the engine was ready, the last
  // answer with the time it took, and how many times a kernel log was
  // diagnosed.
  window.apstweb_metrics = { readyMs: null, last: null, computes: 0, diagnoses: 0, scriptMs: t0 };

  // Typing recomputes once the typist pauses this long; a paste, a drop,
  // a picked file and a button answer at once.
  const DEBOUNCE_MS = 150;
  // The address follows the answer once it has been stable this long, so
  // that typing does not fill the history or rewrite the URL each key.
  const LINK_MS = 800;

  const state = {
    capture: null,    // Uint8Array of a picked binary file, or null (the textarea is the capture)
    captureName: '',
    feature: null,    // likewise for the get-feature capture
    featureName: '',
    featureLinked: false, // the get-feature box holds the table of a shared link
    blank: {},        // the box whose last paste was empty (nothing but white space)
    log: null,        // likewise for the kernel log (also a text file too large to show in the box)
    logName: '',
    drive: '',        // a shared drive from the link, used while there is no capture
    shownBand: -1,
    good: null,       // the last answer with a plan: kept while a setting is invalid
    sweep: null,      // the sweep drawn, redrawn when the width changes
  };

  function el(tag, attrs, ...children) {
    const e = tag.startsWith('svg:') ? document.createElementNS(SVGNS, tag.slice(4)) : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') e.setAttribute('class', v);
      else if (k === 'text') e.textContent = v;
      else e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children) {
      if (c === null || c === undefined) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  // One unit style for the whole page: µs below 1 ms, ms below 1 s, s
  // above; mW below 1 W, W above (as the engine's formatMicros and
  // formatWatts).
  const trim = (f) => f.toFixed(3).replace(/\.?0+$/, '');
  const fmtUS = (us) => us < 1000 ? us + ' µs' : us < 1e6 ? trim(us / 1e3) + ' ms' : trim(us / 1e6) + ' s';
  const fmtW = (w) => w < 1 ? trim(w * 1000) + ' mW' : trim(w) + ' W';

  // ---- the link (URL fragment) ----
  const fields = { bound: 'bound', kernel: 'kernel', pci: 'pci-id', a: 'compare-a', b: 'compare-b', gaps: 'gaps', count: 'count', seed: 'seed' };

  // readHash sets the inputs from the address. Opened in a tab that
  // already shows the page (reset), a field the link does not name goes
  // back to its default, and the capture and the get-feature capture give
  // way to the link's drive and table.
  function readHash(reset) {
    const h = new URLSearchParams(location.hash.slice(1));
    for (const [k, id] of Object.entries(fields)) {
      if (h.has(k)) $(id).value = h.get(k);
      else if (reset) $(id).value = $(id).defaultValue;
    }
    state.drive = h.get('d') || '';
    if (reset) {
      $('capture').value = '';
      state.capture = null;
      state.blank = {};
    }
    const f = h.has('f') ? featureText(h.get('f')) : null;
    if (f !== null || reset) {
      $('feature').value = f || '';
      state.feature = null;
      state.featureLinked = false;
    }
    if (h.has('f')) state.featureLinked = f === null ? 'bad' : true;
    if (f !== null) $('feature-box').open = true;
  }

  // The get-feature table a link carries ("f="): the feature as the
  // engine's check read it (check.feature), in the fewest characters:
  // APSTE, H when the capture gave ITPS and ITPT alone (the -H text) or X
  // when it gave every bit (a hex dump, the raw buffer), how many entries
  // it showed, and those entries in hex up to the last that is not zero:
  // "enabled.H.32.6418_6418_6418". Nothing else of the capture (a prompt,
  // a host name) is carried. null when the link cannot hold it exactly.
  function featureLink(f) {
    if (!f || !Array.isArray(f.Table) || f.Table.some((e) => !Number.isSafeInteger(e))) return null;
    const known = f.Unknown === 'none' ? 32 : +(/^ps(\d+)/.exec(f.Unknown) || [0, 99])[1];
    const unknown = [];
    for (let i = known; i < 32; i += 1) unknown.push('ps' + i);
    if (known > 32 || (known < 32 && f.Unknown !== unknown.join(','))) return null;
    if (f.APSTE === 'unknown' && !f.Masked && known === 0) return null;
    const t = f.Table.slice(0, known).map((e) => e.toString(16));
    while (t.length && t[t.length - 1] === '0') t.pop();
    return `${f.APSTE}.${f.Masked ? 'H' : 'X'}.${known}.${t.join('_')}`;
  }

  // featureText is the capture that the engine reads as the table of
  // featureLink's f (its -H text, or its header and hex dump), or null.
  function featureText(f) {
    const m = /^(unknown|disabled|enabled)\.([HX])\.([0-9]|[12][0-9]|3[0-2])\.((?:[0-9a-f]{1,16})(?:_[0-9a-f]{1,16}){0,31})?$/.exec(f || '');
    if (!m) return null;
    const [, apste, form, k, list] = m;
    const known = +k;
    const hex = list ? list.split('_') : [];
    if (hex.length > known || (apste === 'unknown' && form === 'X' && known === 0)) return null;
    while (hex.length < known) hex.push('0');
    const out = [];
    if (apste !== 'unknown') out.push(`get-feature:0x0c (Autonomous Power State Transition), Current value:0x0000000${apste === 'enabled' ? 1 : 0}`);
    if (form === 'H') {
      if (apste !== 'unknown') out.push(`\tAutonomous Power State Transition Enable (APSTE): ${apste === 'enabled' ? 'Enabled' : 'Disabled'}`);
      out.push('\tAuto PST Entries\t.................');
      hex.forEach((h, i) => {
        const e = parseInt(h.slice(-8), 16);
        out.push(`\tEntry[${String(i).padStart(2)}]`, '\t.................', `\tIdle Time Prior to Transition (ITPT): ${e >>> 8} ms`,
          `\tIdle Transition Power State   (ITPS): ${(e >>> 3) & 31}`, '\t.................');
      });
    } else {
      // The hex dump of the buffer: each entry 8 bytes, little-endian.
      const bytes = hex.flatMap((h) => h.padStart(16, '0').match(/../g).reverse());
      for (let o = 0; o < bytes.length; o += 16) out.push(o.toString(16).padStart(4, '0') + ': ' + bytes.slice(o, o + 16).join(' '));
    }
    return out.join('\n') + '\n';
  }

  function linkFor(drive, check) {
    const h = new URLSearchParams();
    h.set('d', drive);
    for (const [k, id] of Object.entries(fields)) {
      const v = $(id).value.trim();
      if (v !== $(id).defaultValue) h.set(k, v);
    }
    const f = check ? featureLink(check.feature) : null;
    if (f) h.set('f', f);
    return location.href.split('#')[0] + '#' + h.toString();
  }

  // applied is the address the page shows the answer of: the page's own
  // rewrites of it (replaceAddress) fire no event, a link followed in the
  // tab does (followLink).
  let applied = location.href;
  function replaceAddress(url) {
    history.replaceState(null, '', url);
    applied = location.href;
  }

  let linkTimer = 0;
  function setLinkLater(link) {
    clearTimeout(linkTimer);
    linkTimer = setTimeout(() => { if (location.href !== link) replaceAddress(link); }, LINK_MS);
  }

  // dropLink takes the drive out of the address once the page shows no
  // answer for it (the capture replaced by text that is none, a kernel
  // log, an empty box), as the Clear button does: a reload or a copy of
  // the address then gives what the page shows, not the last drive. The
  // drive of a link the page is still showing (a setting of the link that
  // does not read) stays.
  function dropLink() {
    clearTimeout(linkTimer);
    const d = new URLSearchParams(location.hash.slice(1)).get('d');
    if (d && d !== state.drive) replaceAddress(location.href.split('#')[0]);
  }

  // ---- inputs ----
  const enc = new TextEncoder();
  function captureBytes() {
    if (state.capture) return state.capture;
    const s = $('capture').value;
    return s.trim() === '' ? null : enc.encode(s);
  }
  function featureBytes() {
    if (state.feature) return state.feature;
    const s = $('feature').value;
    return s.trim() === '' ? null : enc.encode(s);
  }
  function logBytes() {
    if (state.log) return state.log;
    const s = $('log').value;
    return s.trim() === '' ? null : enc.encode(s);
  }

  // A kernel log file over this size is kept as bytes rather than shown.
  const LOG_BOX_MAX = 1 << 20;

  // A file that is valid UTF-8 text without NUL bytes is shown in the box;
  // anything else (a 4096-byte image, the 256-byte feature buffer, a binary
  // journal file, a kernel log too long for the box) is kept as bytes and
  // named.
  async function loadFile(file, which) {
    const buf = new Uint8Array(await file.arrayBuffer());
    let text = null;
    if (!buf.includes(0) && !(which === 'log' && buf.length > LOG_BOX_MAX)) {
      try { text = new TextDecoder('utf-8', { fatal: true }).decode(buf); } catch (_) { text = null; }
    }
    const box = $(which);
    if (text !== null) {
      state[which] = null;
      box.value = text;
    } else {
      state[which] = buf;
      state[which + 'Name'] = file.name;
      box.value = '';
    }
    replaced(which);
    update();
  }

  // replaced notes that the user gave the box of which something new: a
  // get-feature table of a link, a drive of a link and a note of an empty
  // paste no longer stand.
  function replaced(which) {
    if (which === 'capture') state.drive = '';
    if (which === 'feature') state.featureLinked = false;
    state.blank[which] = false;
  }

  // A paste longer than this goes to the capture or the log as bytes,
  // not into its box: a browser takes seconds to put megabytes in a text
  // box (3.7 s for 5 MB), and the page answered only after.
  const PASTED = 'the pasted text';
  // useText puts text pasted or dropped in the box of which: in the box,
  // or kept as bytes when too long for it; text that is empty or white
  // space only is said to be so, beside the box.
  function useText(which, t) {
    const box = $(which);
    replaced(which);
    state.blank[which] = t.trim() === '';
    if (which !== 'feature' && t.length > LOG_BOX_MAX) {
      state[which] = enc.encode(t);
      state[which + 'Name'] = PASTED;
      box.value = '';
    } else {
      state[which] = null;
      box.value = t;
    }
    update();
  }
  function wireInput(which) {
    const box = $(which);
    box.addEventListener('paste', (ev) => {
      const t = ev.clipboardData ? ev.clipboardData.getData('text/plain') : '';
      // Pasted over the whole box or into an empty one, the text is the
      // box's; a part pasted into a capture is left to the browser.
      const whole = box.value === '' || (box.selectionStart === 0 && box.selectionEnd === box.value.length);
      if (t.length <= LOG_BOX_MAX && !(t.trim() === '' && whole)) return;
      ev.preventDefault();
      useText(which, t);
    });
    box.addEventListener('input', (ev) => {
      state[which] = null;
      replaced(which);
      state.blank[which] = ev.inputType === 'insertFromPaste' && box.value.trim() === '';
      schedule(/^insertFrom(Paste|Drop)$/.test(ev.inputType || '') ? 0 : DEBOUNCE_MS);
    });
    $(which + '-file').addEventListener('change', (ev) => {
      const f = ev.target.files && ev.target.files[0];
      if (f) loadFile(f, which);
    });
    box.addEventListener('dragover', (ev) => { ev.preventDefault(); box.classList.add('drag'); });
    box.addEventListener('dragleave', () => box.classList.remove('drag'));
    // A dropped file is read; dropped text (a selection dragged from
    // another window) replaces the box's content, as a dropped file does.
    box.addEventListener('drop', (ev) => {
      ev.preventDefault();
      box.classList.remove('drag');
      const dt = ev.dataTransfer;
      const f = dt && dt.files && dt.files[0];
      if (f) loadFile(f, which);
      else if (dt && dt.types && Array.from(dt.types).includes('text/plain')) useText(which, dt.getData('text/plain'));
    });
  }

  // ---- the engines ----
  // app.wasm answers for a capture; app-log.wasm, the same with the kernel
  // log's diagnosis, is fetched the first time the log box is used, and
  // then answers everything.
  let ready = false;
  let pending = false;
  let timer = 0;
  let logEngine = null; // the promise of app-log.wasm, once asked for

  function schedule(delay) {
    clearTimeout(timer);
    if (delay <= 0) { update(); return; }
    timer = setTimeout(() => update(true), delay);
  }

  // The kernel log's diagnosis is kept with what it reads (the log, the
  // capture or the link's drive, what was tried, the platform), so that a
  // change of anything else (the bound, the comparison, the gaps) does not
  // read the log again: a 20 MB log takes a second to diagnose (four on a
  // slow machine). A log over BIG_LOG bytes is diagnosed again only once
  // the typist has paused BIG_LOG_MS, not at every pause of DEBOUNCE_MS.
  const BIG_LOG = 1 << 20;
  const BIG_LOG_MS = 1000;
  let diagnosed = null; // {key, diagnosis, errors}
  const sameKey = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

  function engineMessage(name, e) {
    if (location.protocol === 'file:') {
      return 'This page was opened as a file (file://), and browsers do not let such a page load its engine. Serve the folder ' +
        'instead: "go run ./examples/web" in the repository, or "python3 -m http.server" in this folder, then open ' +
        'http://localhost:8000/.';
    }
    if (navigator.onLine === false || /fetch|network/i.test(String(e))) {
      return `The engine (${name}) could not be downloaded: you seem to be offline. Reload the page once connected.`;
    }
    return `The engine (${name}) failed to load: ${e}. Reload the page; if it fails again, the browser may not support WebAssembly.`;
  }

  function loadEngine(name) {
    const go = new Go();
    const get = () => fetch(name).then((r) => {
      if (!r.ok) throw new Error(`${name}: the server answered ${r.status} ${r.statusText}`);
      return r;
    });
    return WebAssembly.instantiateStreaming(get(), go.importObject)
      .catch(() => get().then((r) => r.arrayBuffer()).then((b) => WebAssembly.instantiate(b, go.importObject)))
      .then((r) => { go.run(r.instance); });
  }

  function wantLogEngine() {
    if (logEngine || !ready || window.apstweb.withLog !== false) return;
    say('log-status', 'Loading the kernel log engine…');
    logEngine = loadEngine('app-log.wasm').catch((e) => {
      logEngine = null;
      $('log-error').textContent = engineMessage('app-log.wasm', e);
      say('log-status', '');
    });
  }

  function update(typed) {
    clearTimeout(timer);
    if (!ready) { pending = true; return; }
    const cap = captureBytes();
    const hasLog = state.log ? true : $('log').value.trim() !== '';
    const note = $('capture-note');
    note.textContent = state.capture ? `Using ${state.captureName} (${state.capture.length} bytes, ${state.captureName === PASTED ? 'too long to show in the box' : 'binary'}). Type or paste in the box to replace it.`
      : (state.drive && !cap ? 'Showing the drive of a shared link (no capture, no serial number). Paste a capture to replace it.' : '');
    $('log-note').textContent = state.log ? `Using ${state.logName} (${state.log.length} bytes${state.logName === PASTED ? ', too long to show in the box' : ''}). Type or paste in the box to replace it.` : '';
    $('feature-note').textContent = state.feature ? `Using ${state.featureName} (${state.feature.length} bytes, binary). Type or paste in the box to replace it.`
      : state.featureLinked === 'bad' ? 'The get-feature table in the link could not be read: nothing is checked.'
        : state.featureLinked ? 'The get-feature table of the shared link, written as nvme get-feature -H prints it (or its hex dump). Paste a capture to replace it.' : '';
    if (!cap && !state.drive && !hasLog) { render(null); return; }
    if (hasLog && window.apstweb.withLog === false) wantLogEngine();
    // The number of gaps and the seed are read whole or refused beside
    // their field: parseInt took "1e6" for 1, "-5" or "abc" for the
    // default, and a number past 2^53 was rounded, or not read at all.
    const count = wholeNumber('count', 1, 1000000);
    const seed = wholeNumber('seed', 0, Number.MAX_SAFE_INTEGER);
    const opts = {
      drive: cap ? '' : state.drive,
      bound: $('bound').value, kernel: $('kernel').value, pci_id: $('pci-id').value,
      compare_a: $('compare-a').value, compare_b: $('compare-b').value,
      gaps: $('gaps').value, count: count.n, seed: seed.n,
      tried: $('tried').value, platform: $('platform').value,
    };
    const withLog = window.apstweb.withLog !== false;
    const key = withLog && hasLog ? [state.log || $('log').value, state.capture || $('capture').value, opts.drive, opts.tried, opts.platform] : null;
    const kept = key && diagnosed && sameKey(key, diagnosed.key);
    if (key && !kept && typed && (state.log ? state.log.length : 0) > BIG_LOG) {
      // Typed: the big log waits for a longer pause.
      timer = setTimeout(update, BIG_LOG_MS);
      return;
    }
    const start = performance.now();
    let out;
    if (kept) {
      // Without a capture or a drive there is nothing else to compute.
      out = cap || state.drive ? JSON.parse(window.apstweb.compute(cap, featureBytes(), JSON.stringify(opts), null)) : { millis: {} };
      out.diagnosis = diagnosed.diagnosis;
      if (Object.keys(diagnosed.errors).length) out.errors = Object.assign({}, out.errors, diagnosed.errors);
    } else {
      out = JSON.parse(window.apstweb.compute(cap, featureBytes(), JSON.stringify(opts), withLog ? logBytes() : null));
      if (key) {
        const errors = {};
        for (const f of ['log', 'tried', 'platform']) if (out.errors && out.errors[f]) errors[f] = out.errors[f];
        diagnosed = { key, diagnosis: out.diagnosis || null, errors };
        window.apstweb_metrics.diagnoses += 1;
      }
    }
    if (out.diagnosis === null) delete out.diagnosis;
    const ms = performance.now() - start;
    if (count.err || seed.err) {
      // No simulation of numbers other than those typed.
      out.errors = Object.assign({}, out.errors, count.err ? { count: count.err } : {}, seed.err ? { seed: seed.err } : {});
      out.simulate = null;
    }
    window.apstweb_metrics.computes += 1;
    window.apstweb_metrics.last = { ms, millis: out.millis, response: out };
    render(out, !withLog && hasLog);
    const m = out.millis || {};
    const planSweep = (m.parse || 0) + (m.plan || 0) + (m.sweep || 0);
    $('timing').textContent = `Last answer computed in ${ms.toFixed(1)} ms in this browser (parse, plan and sweep ${planSweep.toFixed(1)} ms).`;
    window.apstweb_metrics.rendered = performance.now() - start;
  }

  // wholeNumber reads a field that wants a whole number from min to max:
  // {n} (0 for an empty field: the default), or {n: 0, err} saying why not.
  function wholeNumber(id, min, max) {
    const v = $(id).value.trim();
    if (v === '') return { n: 0 };
    if (!/^[0-9]+$/.test(v)) return { n: 0, err: `"${v}": want a whole number, digits only` };
    const n = Number(v);
    if (n < min || n > max) return { n: 0, err: `${v}: want ${min} to ${max}` };
    return { n };
  }

  // ---- drawing ----
  const errorFields = ['capture', 'feature', 'bound', 'kernel', 'pci_id', 'compare_a', 'compare_b', 'gaps', 'count', 'seed', 'log', 'tried', 'platform'];
  const settingFields = ['bound', 'kernel', 'pci_id'];

  // say puts text in a live region only when it changed, so that an
  // answer recomputed for another input is not announced again.
  function say(id, text) {
    if ($(id).textContent !== text) $(id).textContent = text;
  }

  // What is said of a box whose last paste was empty.
  const BLANK = { capture: 'The paste was empty (no text, or white space only): copy the capture again.',
    feature: 'The paste was empty (no text, or white space only): copy the get-feature capture again.',
    log: 'The paste was empty (no text, or white space only): copy the kernel log again.' };

  function render(r, logWaiting) {
    const errs = (r && r.errors) || {};
    // An alert is rewritten only when its text changes: the same text set
    // again is announced again.
    for (const f of errorFields) {
      if ($(f + '-error') && !(f === 'log' && logWaiting && $('log-error').textContent)) say(f + '-error', errs[f] || (state.blank[f] && BLANK[f]) || '');
    }
    for (const [f, id] of [['capture', 'capture'], ['feature', 'feature'], ['bound', 'bound'], ['kernel', 'kernel'],
      ['pci_id', 'pci-id'], ['compare_a', 'compare-a'], ['compare_b', 'compare-b'], ['gaps', 'gaps'],
      ['count', 'count'], ['seed', 'seed'], ['log', 'log'], ['tried', 'tried'], ['platform', 'platform']]) {
      if (errs[f]) $(id).setAttribute('aria-invalid', 'true'); else $(id).removeAttribute('aria-invalid');
    }
    if (errs.feature) $('feature-box').open = true;
    const show = (id, on) => { $(id).hidden = !on; };
    show('diagnosis', !!(r && r.diagnosis));
    say('log-status', r && r.diagnosis ? 'Diagnosis: ' + message(r.diagnosis.summary) : logWaiting ? 'Loading the kernel log engine…' : '');
    if (r && r.diagnosis) renderDiagnosis(r.diagnosis);

    // A setting being typed (the bound, the kernel, the PCI ID) that does
    // not read yet keeps the last answer for the same drive, said to be
    // that, with the problem beside the field.
    const bad = settingFields.filter((f) => errs[f]);
    if (r && r.controller && !r.plan && bad.length && state.good && state.good.drive === r.drive) {
      $('stale').textContent = `The answer shown is for the last settings that could be read (bound ${state.good.sweep.bound_text}): ` +
        `correct the ${bad.map((f) => ({ bound: 'latency bound', kernel: 'kernel release', pci_id: 'PCI ID' })[f]).join(' and ')} to update it.`;
      say('status', 'Showing the last answer: a setting could not be read (see beside the field).');
      return;
    }
    $('stale').textContent = '';
    const answer = !!(r && r.plan);
    if (!(answer && r.drive)) dropLink();
    if (!answer) $('status').classList.remove('sr');
    // The skip link leads to the answer once there is one, and to the
    // capture box before: a link to a hidden section goes nowhere.
    $('skip').href = answer ? '#answer' : '#capture';
    $('skip').textContent = answer ? 'Skip to the answer' : 'Skip to the capture';
    show('answer', answer);
    show('drive', !!(r && r.controller));
    show('plan', answer);
    show('sweep', !!(r && r.sweep));
    show('compare', answer);
    show('simulate', answer);
    show('check', !!(r && r.check));
    show('share', !!(r && r.drive && r.plan));
    if (!r || !r.controller) {
      state.good = null;
      if (!ready) return;
      say('status', r && errs.capture ? 'The capture could not be read: see the message under the capture box.'
        : r && r.diagnosis ? 'The kernel log is diagnosed below (no capture).' : 'Ready: paste a capture, or try the example.');
      return;
    }
    renderDrive(r);
    if (!answer) {
      say('status', 'No answer: see the message beside the setting.');
      return;
    }
    state.good = r;
    $('headline').textContent = r.headline.text;
    // An assumption that can overturn the answer is said beside it, not
    // only in the list of assumptions a screen further down.
    $('assumed').textContent = r.controller.apsta === 'unknown' ? 'APST support was assumed: this capture does not record ' +
      'APSTA (nvme id-ctrl prints it). If the drive lacks APST, the kernel programs no table, whatever the bound.' : '';
    // The status says the answer to a screen reader; on screen the
    // headline right below says it already.
    $('status').classList.add('sr');
    say('status', 'Answer: ' + r.headline.text);
    renderPlan(r.plan);
    renderSweep(r.sweep);
    renderCompare(r.compare);
    renderSimulate(r.simulate);
    if (r.check) renderCheck(r.check);
    if (r.drive) {
      const link = linkFor(r.drive, r.check);
      $('share-link').value = link;
      $('share-check').textContent = !r.check ? '' : featureLink(r.check.feature)
        ? 'The link holds the get-feature table checked above too.'
        : 'The get-feature table checked above is not in the link (its capture gave entries the link cannot hold exactly).';
      setLinkLater(link);
    }
  }

  // message is a sentence of the diagnosis (its summary, a note, an
  // assumption) as apstctl prints it (view.EscapeMessage): the engine
  // escapes every string of a log (view.Escape, which doubles a
  // backslash), and a message without a control character is printed as
  // it is, "0000\:00" as the log has it, not "0000\\:00".
  function message(s) {
    return /\\/.test(s.replace(/\\\\/g, '')) ? s : s.replace(/\\\\/g, '\\');
  }

  // The diagnosis of the kernel log: the answer first (the summary, the
  // undecided pair and the test that separates it), then the causes with
  // their quoted lines and tests, the lines not read, the known issues, and
  // what was tried, assumed and read. The log's strings come escaped from
  // the engine and are set as text.
  function renderDiagnosis(d) {
    const s = $('diagnosis-summary');
    s.textContent = message(d.summary);
    s.className = 'headline' + (d.replace ? ' verdict-bad' : !d.failure && d.unread.length === 0 && d.relayed.length === 0 && d.consequences.length === 0 ? ' verdict-ok' : '');
    const about = [];
    if (d.controller) about.push(`Controller ${d.controller}${d.address ? ' (' + d.address + ')' : ''}.`);
    if (d.on_resume) about.push('The failure came with a system sleep transition (suspend or resume).');
    if (d.apst_ruled_out) about.push('APST is probably not the cause.');
    if (d.replace) about.push('The evidence says the drive is failing: back it up and replace it.');
    $('diagnosis-about').textContent = about.join(' ');

    const und = $('diagnosis-undecided');
    und.replaceChildren();
    if (d.undecided.length > 1) {
      und.append(el('p', { class: 'outcome', text: `Undecided between ${d.undecided.length > 2 ? d.undecided.slice(0, -1).join(', ') + ' and ' + d.undecided[d.undecided.length - 1] : d.undecided.join(' and ')}: the evidence does not separate them.` }));
      if (d.separate) und.append(el('p', { class: 'label', text: 'The test that tells them apart:' }), el('div', { class: 'test separate' }, ...testParts(d.separate)));
    }

    const box = $('diagnosis-causes');
    box.replaceChildren();
    const quiet = [];
    const ranked = d.causes.filter((c) => {
      if (c.score <= 0 && c.evidence.length === 0 && c.against.length === 0) { quiet.push(c.layer); return false; }
      return true;
    });
    if (ranked.length) {
      const ol = el('ol', { class: 'causes' });
      for (const c of ranked) {
        const li = el('li', { class: 'cause', 'data-layer': c.layer },
          el('p', { class: 'cause-head' }, el('strong', { text: c.layer }), ' ',
            el('span', { class: 'likelihood ' + c.likelihood, text: c.likelihood }), ` (score ${c.score})`));
        if (c.evidence.length || c.against.length) {
          li.append(el('ul', { class: 'evidence', 'aria-label': `Evidence for and against ${c.layer}` },
            ...c.evidence.map((l) => evidenceItem(l, true)), ...c.against.map((l) => evidenceItem(l, false))));
        }
        if (c.likelihood !== 'unlikely' && c.tests.length) {
          li.append(el('p', { class: 'label', text: 'Tests, cheapest first:' }),
            el('ol', { class: 'tests' }, ...c.tests.map((t) => el('li', { class: 'test' }, ...testParts(t)))));
        }
        ol.append(li);
      }
      box.append(el('h3', { class: 'sub', text: 'Causes, most likely first' }), ol);
    }
    if (quiet.length) box.append(el('p', { class: 'help', text: 'No evidence for: ' + quiet.join(', ') + '.' }));
    // Without a failure, the lines of one whose own lines are missing
    // (a file system's I/O errors, nvme's hint): quoted, as evidence is.
    if (d.consequences.length) {
      box.append(el('h3', { class: 'sub', text: 'What the log shows of that failure' }),
        el('ul', { class: 'evidence consequences' }, ...d.consequences.map((l) => el('li', {}, l.text, ' ', el('span', { class: 'source', text: `(${l.source})` }),
          el('div', { class: 'quote-line' }, el('span', { class: 'ln', text: `line ${l.line}` }), ' ', el('code', { class: 'quote', text: l.quote }))))));
    }

    const un = $('diagnosis-unread');
    un.replaceChildren();
    if (d.relayed.length) {
      const n = d.relayed.length;
      un.append(el('h3', { class: 'sub', text: `${n} ${n === 1 ? 'line' : 'lines'} of other programs repeat the kernel's NVMe/PCIe failure messages` }),
        el('ul', { class: 'unread' }, ...d.relayed.map((u) => el('li', { class: 'quote-line' },
          el('span', { class: 'ln', text: `line ${u.line} (${u.program}'s, not the kernel's)` }), ' ', el('code', { class: 'quote', text: u.text })))),
        el('p', { class: 'help' }, 'Paste the kernel\'s own lines: ',
          el('code', { text: 'journalctl -k -b -1 --no-pager > kern.log' }), ', then paste or pick kern.log.'));
    }
    if (d.unread.length) {
      const n = d.unread.length;
      un.append(el('h3', { class: 'sub', text: `${n} ${n === 1 ? 'line looks' : 'lines look'} like NVMe/PCIe messages but could not be read` }),
        el('ul', { class: 'unread' }, ...d.unread.map((u) => el('li', { class: 'quote-line' },
          el('span', { class: 'ln', text: `line ${u.line}` }), ' ', el('code', { class: 'quote', text: u.text })))),
        el('p', { class: 'help' }, 'Re-paste the log as the system wrote it (not retyped, reflowed or cut): ',
          el('code', { text: 'journalctl -k -b -1 --no-pager > kern.log' }), ', then paste or pick kern.log.'));
    }

    const kn = $('diagnosis-known');
    kn.replaceChildren();
    if (d.known.length) {
      kn.append(el('h3', { class: 'sub', text: 'Known issues this log matches' }), el('ul', {}, ...d.known.map((k) => el('li', {},
        el('strong', { text: k.id }), ` (${k.layer}): ${k.title}; fixed by ${k.fix}${k.fixed_in ? ' (in ' + k.fixed_in + ')' : ''}. Source: `,
        /^https:\/\//.test(k.source) ? el('a', { href: k.source, rel: 'noreferrer', text: k.source }) : k.source))));
    }

    $('diagnosis-tried').textContent = d.tried.length ? 'Tried: ' + d.tried.map((t) => t.text).join('; ') + '.' : '';
    $('diagnosis-notes').replaceChildren(...d.assumptions.map((a) => el('li', { class: /^warning/.test(a) ? 'warn' : null, text: message(a) })),
      ...d.notes.map((n) => el('li', { text: 'note: ' + message(n) })));
    const lg = d.log;
    $('diagnosis-log').textContent = `Read ${lg.lines} lines` + (lg.compression ? ` (from a ${lg.compression}-compressed file)` : '') +
      `: ${lg.events} NVMe and PCIe events, ${lg.incidents} ${lg.incidents === 1 ? 'incident' : 'incidents'}` +
      (lg.release ? `; kernel ${lg.release}` : '') + (lg.command_line ? `; command line: ${lg.command_line}` : '') +
      `; lasting settings written for: ${d.platform || 'the usual places'}.`;
  }

  // evidenceItem is one line of evidence: for or against (said in words,
  // not by colour alone), what it means, where it comes from, and the
  // log line quoted with its number.
  function evidenceItem(l, isFor) {
    return el('li', { class: isFor ? 'for' : 'against' },
      el('span', { class: 'sign', text: isFor ? 'for' : 'against' }), ' ', l.text, ' ', el('span', { class: 'source', text: `(${l.source})` }),
      l.quote ? el('div', { class: 'quote-line' }, el('span', { class: 'ln', text: l.line ? `line ${l.line}` : 'quoted' }), ' ',
        el('code', { class: 'quote', text: l.quote })) : null);
  }

  // testParts is one test: what to do, the command, where a lasting
  // setting goes, and the cost.
  function testParts(t) {
    return [el('span', { class: 'action', text: t.action }),
      t.command ? el('pre', { class: 'command' }, el('code', { text: t.command })) : null,
      (t.where || []).length ? el('ol', { class: 'where', 'aria-label': 'Where the setting goes' }, ...t.where.map((w) => el('li', { text: w }))) : null,
      el('p', { class: 'cost', text: 'Cost: ' + t.cost })];
  }

  function renderDrive(r) {
    $('drive-line').textContent = r.controller.describe;
    const ul = $('assumptions');
    ul.replaceChildren();
    const list = (r.assumptions || []).slice();
    if (r.controller.had_serial) list.push('the serial number is not shown and is not in the link');
    if (list.length === 0) list.push('nothing: the capture carries every field the answer depends on');
    for (const a of list) ul.append(el('li', { class: /^(warning|kernel warning)/.test(a) ? 'warn' : null, text: a }));
  }

  // The plan: one row per state; the reachable ones marked in words (the
  // "reachable" column) and by weight and a bar, not by colour alone.
  function renderPlan(p) {
    $('plan-params').textContent = p.params;
    $('plan-outcome').textContent = p.outcome;
    const tb = $('plan-table').tBodies[0];
    tb.replaceChildren();
    for (const s of p.states) {
      const reach = p.reachable.includes(s.state) && s.state !== 0;
      tb.append(el('tr', { class: (reach ? 'reachable' : 'unreachable') + (s.selected ? ' selected' : ''), 'data-state': s.state, 'data-reachable': reach ? 'yes' : 'no' },
        el('th', { scope: 'row', text: 'ps' + s.state }),
        el('td', { class: 'reach' }, reach ? el('span', { class: 'mark', text: '✓ reachable' }) : s.state === 0 ? 'start' : 'no'),
        el('td', { class: 'num', 'data-w': s.max_power_w, text: s.max_power }),
        el('td', { class: 'num enlat', 'data-us': s.enlat_us, text: fmtUS(s.enlat_us) }),
        el('td', { class: 'num exlat', 'data-us': s.exlat_us, text: fmtUS(s.exlat_us) }),
        el('td', { text: s.op === 'op' ? 'active' : 'idle (NOPS)' }),
        el('td', { class: 'mono', text: s.entry }),
        el('td', { text: s.decision })));
    }
    $('kernel-log').textContent = p.logs ? p.kernel_log : (p.kernel_log ? `(none in this generation; later kernels log: ${p.kernel_log})` : '(nothing logged)');
  }

  // The sweep picture. The x axis gives every interval of bounds a band at
  // least MIN_BAND px wide, the rest of the width shared by how many
  // decades of bounds each spans between 1 µs and the last change (10 s
  // at least): off (bound 0) at the left, unlimited at the right end, and
  // within a band a bound sits at its place on a log scale. The upper panel
  // is the worst wake stall (log, 1 µs to 1 s, "none" below), the lower
  // the deepest state's maximum power (log, 1 mW to 10 W).
  const MIN_BAND = 28, H = 416, LEFT = 64, RIGHT_PAD = 10;
  const BOUND_Y = 14, DEFAULT_Y = 30, BAND_LABEL_Y = 50, S_TOP = 78, S_BOT = 196, S_NONE = 212, P_TOP = 248, P_BOT = 346;

  function sweepLayout(ivs, width) {
    const last = ivs.length ? ivs[ivs.length - 1] : null;
    const cap = Math.max(1e7, last && last.lo >= 1 ? last.lo * 10 : 0);
    const logOf = (v) => Math.log10(Math.min(Math.max(v, 1), cap));
    const spans = ivs.map((iv) => Math.max(0, logOf(iv.hi) - logOf(Math.max(iv.lo, 1))));
    const total = spans.reduce((a, b) => a + b, 0);
    const right = Math.max(width - RIGHT_PAD, LEFT + ivs.length * MIN_BAND);
    const spare = right - LEFT - ivs.length * MIN_BAND;
    const x0 = [], x1 = [];
    let x = LEFT;
    ivs.forEach((iv, i) => {
      const w = MIN_BAND + (total > 0 ? spare * spans[i] / total : spare / ivs.length);
      x0.push(x); x1.push(x + w); x += w;
    });
    // xOf places a bound: in its band, at its log place within the band's
    // decades (the half of MIN_BAND at each end keeps it off the edges).
    function xOf(v) {
      let i = ivs.findIndex((iv) => v >= iv.lo && v < iv.hi);
      if (i < 0) i = v < 1 ? 0 : ivs.length - 1;
      const iv = ivs[i], pad = MIN_BAND / 2;
      if (spans[i] === 0) return (x0[i] + x1[i]) / 2;
      const f = (logOf(v) - logOf(Math.max(iv.lo, 1))) / spans[i];
      return x0[i] + pad + Math.min(Math.max(f, 0), 1) * (x1[i] - x0[i] - 2 * pad);
    }
    return { x0, x1, xOf, width: right + RIGHT_PAD, cap };
  }

  function yStall(us) { return us < 1 ? S_NONE : S_BOT - Math.min(Math.log10(us) / 6, 1) * (S_BOT - S_TOP); }
  function yPower(w) { return w <= 0 ? P_BOT : P_BOT - Math.max(0, Math.min((Math.log10(w) + 3) / 4, 1)) * (P_BOT - P_TOP); }
  // A band is labelled with its deepest state: "off" for bound 0 (APST
  // off), "none" for the bounds too small for any idle state.
  const bandLabel = (iv) => iv.max_ps >= 0 ? 'ps' + iv.deepest : iv.lo < 1 ? 'off' : 'none';

  function renderSweep(sw) {
    state.sweep = sw;
    const fig = $('sweep-figure');
    const active = document.activeElement;
    const focused = active && active.closest && active.closest('#sweep-svg .band') ? +active.dataset.index : -1;
    const ivs = sw.intervals;
    // The figure's width, down to a 320 px phone's (a hidden figure has
    // none: 320 then).
    const L = sweepLayout(ivs, Math.max(fig.clientWidth || 320, 240));
    const W = L.width;
    $('sweep-params').textContent = sw.params + '; every bound from 0 (off) to unlimited';
    const svg = el('svg:svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'group', id: 'sweep-svg',
      'aria-label': `Sweep: ${ivs.length} ranges of bounds; the bound set (${sw.bound_text}) and the default (${sw.default_text}) are marked` });
    svg.append(el('svg:title', { text: 'Worst wake stall and idle power against the latency bound' }));
    // Bands first, so that the lines and the axes are drawn over them.
    const bands = el('svg:g', { class: 'bands' });
    ivs.forEach((iv, i) => {
      // The name holds the band's visible label (WCAG 2.5.3): "ps3",
      // "off", "none".
      const x1 = L.x0[i], x2 = L.x1[i];
      const label = `bounds ${iv.min} to ${iv.max}: ${iv.max_ps >= 0 ? 'deepest ps' + iv.deepest : iv.lo < 1 ? 'APST off, ps0' : 'none: no idle state, ps0'} (${iv.deepest_power}), worst wake stall ${iv.worst_exit}`;
      const g = el('svg:g', { class: `band ${i % 2 ? 'b' : 'a'}${iv.current ? ' current' : ''}`, tabindex: 0, role: 'button',
        'aria-label': label, 'data-index': i });
      g.append(el('svg:rect', { x: x1.toFixed(1), y: BAND_LABEL_Y - 14, width: (x2 - x1).toFixed(1), height: P_BOT - BAND_LABEL_Y + 14 }));
      g.append(el('svg:title', { text: label }));
      g.append(el('svg:text', { x: ((x1 + x2) / 2).toFixed(1), y: BAND_LABEL_Y, 'text-anchor': 'middle', class: 'state-label', text: bandLabel(iv) }));
      const showIt = () => showBand(sw, i);
      const pick = () => setBound(iv.min === 'unlimited' ? 'unlimited' : String(iv.min_us));
      g.addEventListener('mouseenter', showIt);
      g.addEventListener('focus', showIt);
      g.addEventListener('click', pick);
      g.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); pick(); }
      });
      bands.append(g);
    });
    svg.append(bands);
    const axes = el('svg:g', { 'aria-hidden': 'true' });
    const right = L.x1[L.x1.length - 1];
    for (let d = 0; d <= 6; d += 1) {
      const y = yStall(10 ** d);
      axes.append(el('svg:line', { class: 'grid', x1: LEFT - 6, x2: right, y1: y, y2: y }));
      if (d % 2 === 0 || d === 6) axes.append(el('svg:text', { x: LEFT - 8, y: y + 4, 'text-anchor': 'end', class: 'tick-stall', 'data-us': 10 ** d, text: fmtUS(10 ** d) }));
    }
    axes.append(el('svg:text', { x: LEFT - 8, y: S_NONE + 4, 'text-anchor': 'end', text: 'none' }));
    for (let d = -3; d <= 1; d += 1) {
      const y = yPower(10 ** d);
      axes.append(el('svg:line', { class: 'grid', x1: LEFT - 6, x2: right, y1: y, y2: y }));
      axes.append(el('svg:text', { x: LEFT - 8, y: y + 4, 'text-anchor': 'end', text: fmtW(10 ** d) }));
    }
    // The x ticks: the decades from 1 µs to the last change, as many as
    // fit; "off" and "unlimited" at the ends.
    let lastX = -1e9;
    const ticks = [];
    for (let v = 1; v <= L.cap; v *= 10) ticks.push(v);
    for (const v of ticks) {
      const x = L.xOf(v);
      if (x - lastX < 46 || x > right - 40) continue;
      lastX = x;
      axes.append(el('svg:line', { class: 'axis', x1: x, x2: x, y1: P_BOT, y2: P_BOT + 5 }));
      axes.append(el('svg:text', { x, y: P_BOT + 18, 'text-anchor': 'middle', class: 'tick-bound', 'data-us': v, text: fmtUS(v) }));
    }
    if (ivs.length && ivs[0].lo < 1) axes.append(el('svg:text', { x: (L.x0[0] + L.x1[0]) / 2, y: P_BOT + 34, 'text-anchor': 'middle', class: 'end-mark', text: 'off' }));
    axes.append(el('svg:text', { x: right, y: P_BOT + 34, 'text-anchor': 'end', class: 'end-mark', text: 'unlimited →' }));
    axes.append(el('svg:line', { class: 'axis', x1: LEFT - 6, x2: right, y1: P_BOT, y2: P_BOT }));
    axes.append(el('svg:text', { x: (LEFT + right) / 2, y: H - 8, 'text-anchor': 'middle', text: 'latency bound (each band: one table)' }));
    axes.append(el('svg:text', { x: 2, y: S_TOP - 12, class: 'panel-label', text: 'wake stall' }));
    axes.append(el('svg:text', { x: 2, y: P_TOP - 14, class: 'panel-label', text: 'idle power' }));
    svg.append(axes);
    // The two step lines, one segment per band.
    let ds = '', dp = '';
    ivs.forEach((iv, i) => {
      const x1 = L.x0[i], x2 = L.x1[i];
      const ys = yStall(iv.worst_exit_us), yp = yPower(iv.deepest_power_w);
      ds += `${i ? 'L' : 'M'}${x1.toFixed(1)},${ys.toFixed(1)}L${x2.toFixed(1)},${ys.toFixed(1)}`;
      dp += `${i ? 'L' : 'M'}${x1.toFixed(1)},${yp.toFixed(1)}L${x2.toFixed(1)},${yp.toFixed(1)}`;
    });
    const lines = el('svg:g', { 'aria-hidden': 'true', 'pointer-events': 'none' });
    lines.append(el('svg:path', { class: 'stall', d: ds }), el('svg:path', { class: 'power', d: dp }));
    // The bound set and the kernel's default.
    const mark = (v, cls, y, text) => {
      const x = L.xOf(v);
      const anchor = x > W - 120 ? 'end' : x < 120 ? 'start' : 'middle';
      lines.append(el('svg:line', { class: cls, x1: x, x2: x, y1: y + 4, y2: P_BOT, 'data-us': v }));
      lines.append(el('svg:text', { class: cls + '-label', x: anchor === 'end' ? x + 4 : anchor === 'start' ? x - 4 : x, y, 'text-anchor': anchor, text }));
    };
    if (sw.default !== sw.bound) mark(sw.default, 'default', DEFAULT_Y, 'default ' + sw.default_text);
    mark(sw.bound, 'bound', BOUND_Y, (sw.default === sw.bound ? 'bound (the default) ' : 'bound ') + sw.bound_text);
    svg.append(lines);
    const legend = el('div', { class: 'legend', 'aria-hidden': 'true' },
      el('span', { class: 'l-stall', text: 'worst wake stall' }), el('span', { class: 'l-power', text: 'idle power (deepest state)' }),
      el('span', { class: 'l-bound', text: 'bound set' }), el('span', { class: 'l-default', text: 'default bound' }));
    // A list of the intervals for reading without the picture.
    const list = el('table', { class: 'intervals', id: 'sweep-table' },
      el('caption', { class: 'sr', text: 'The ranges of bounds, each with its table' }),
      el('thead', {}, el('tr', {}, ...['bounds', 'deepest state', 'worst wake stall', 'idle power', 'table'].map((h) => el('th', { scope: 'col', text: h })))));
    const tb = el('tbody');
    for (const iv of ivs) {
      tb.append(el('tr', { class: iv.current ? 'selected' : null },
        el('th', { scope: 'row', class: 'mono', text: `${iv.min} to ${iv.max}` }),
        el('td', { text: bandLabel(iv) }), el('td', { class: 'num', text: iv.worst_exit }),
        el('td', { class: 'num', text: iv.deepest_power }), el('td', { class: 'mono', text: iv.table })));
    }
    list.append(tb);
    fig.replaceChildren(el('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'The sweep picture' }, svg), legend,
      el('details', {}, el('summary', { text: 'The ranges as a table' }), el('div', { class: 'scroll' }, list)));
    const cur = ivs.findIndex((iv) => iv.current);
    showBand(sw, state.shownBand >= 0 && state.shownBand < ivs.length ? state.shownBand : cur, true);
    // Focus stays where the user is: on the band they were on.
    if (focused >= 0 && focused < ivs.length) document.querySelectorAll('#sweep-svg .band')[focused].focus({ preventScroll: true });
  }

  function showBand(sw, i, quiet) {
    if (i < 0) return;
    if (!quiet) state.shownBand = i;
    const iv = sw.intervals[i];
    document.querySelectorAll('#sweep-svg .band').forEach((b) => b.classList.toggle('shown', +b.dataset.index === i));
    const rows = iv.entries.map((e, s) => el('tr', {}, el('th', { scope: 'row', text: 'ps' + s }), el('td', { class: 'mono', text: e })));
    say('sweep-detail-head', `Bounds ${iv.min} to ${iv.max}${iv.current ? ' (the bound set)' : ''}: ${iv.outcome}`);
    $('sweep-detail-body').replaceChildren(
      el('p', { text: iv.max_ps < 0 ? `${iv.lo < 1 ? 'APST off' : 'No idle state within these bounds'}: the drive stays in ps0 when idle.` : `Deepest reachable state ps${iv.deepest}, idle power up to ${iv.deepest_power}; worst wake stall ${iv.worst_exit}${iv.worst_exit_state >= 0 ? ' (ps' + iv.worst_exit_state + ')' : ''}.` }),
      el('table', {}, el('caption', { class: 'sr', text: 'The table of this range' }),
        el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'state' }), el('th', { scope: 'col', text: 'entry' }))), el('tbody', {}, ...rows)));
  }

  function setBound(v) {
    $('bound').value = v;
    update();
  }

  // Compare: the first configuration, then the second, in every sentence
  // and column.
  function renderCompare(c) {
    const thead = $('compare-table').tHead, tb = $('compare-table').tBodies[0];
    thead.replaceChildren();
    tb.replaceChildren();
    $('compare-diffs').replaceChildren();
    if (!c) { $('compare-delta').textContent = ''; return; }
    const [a, b] = c.configs;
    const more = c.power_delta_w > 0 ? `costs ${fmtW(c.power_delta_w)} more` : c.power_delta_w < 0 ? `saves ${fmtW(-c.power_delta_w)}` : 'draws the same';
    $('compare-delta').textContent = `First (${a.name}), then second (${b.name}): deepest state ps${a.deepest}, then ps${b.deepest}; ` +
      `idle power ${a.deepest_power}, then ${b.deepest_power} (delta ${c.power_delta}: the second ${more} once the drive has settled); ` +
      `worst wake stall ${a.worst_exit}, then ${b.worst_exit}.`;
    // The corner cell heads nothing: a td, not an empty header.
    thead.append(el('tr', {}, el('td'),
      el('th', { scope: 'col', class: 'mono', text: 'first: ' + a.name }), el('th', { scope: 'col', class: 'mono', text: 'second: ' + b.name })));
    const row = (h, f) => tb.append(el('tr', {}, el('th', { scope: 'row', text: h }), ...[a, b].map((x) => el('td', { text: f(x) }))));
    row('parameters', (x) => x.params);
    row('outcome', (x) => x.outcome);
    row('deepest reachable', (x) => `ps${x.deepest} (${x.deepest_power})`);
    row('worst wake stall', (x) => x.worst_exit);
    row('kernel log', (x) => x.kernel_log || '-');
    for (const r of c.rows) {
      tb.append(el('tr', { class: r.differs ? 'differs' : null }, el('th', { scope: 'row' }, 'ps' + r.state, r.differs ? el('span', { class: 'mark', text: ' ≠ differs' }) : null),
        ...r.entries.map((e, i) => el('td', { class: 'mono', text: `${e} (${r.reasons[i]})` }))));
    }
    for (const d of c.differences) $('compare-diffs').append(el('li', { text: d }));
  }

  function renderSimulate(sims) {
    const tb = $('sim-table').tBodies[0];
    tb.replaceChildren();
    $('sim-source').textContent = sims && sims.length ? sims[0].source + ', ' + sims[0].total_idle + ' idle in total' : '';
    for (const s of sims || []) {
      tb.append(el('tr', {}, el('th', { scope: 'row', class: 'mono', text: s.name }),
        el('td', { class: 'num', text: fmtW(s.avg_idle_power_w) }),
        el('td', { class: 'num', text: s.p50 }), el('td', { class: 'num', text: s.p90 }), el('td', { class: 'num', text: s.p99 }),
        el('td', { class: 'num', text: s.max }), el('td', { text: s.residency.join('; ') })));
    }
  }

  function renderCheck(c) {
    const s = $('check-summary');
    s.textContent = c.summary;
    s.className = 'outcome ' + (c.match ? 'verdict-ok' : 'verdict-bad');
    $('check-diffs').replaceChildren(...c.differences.map((d) => el('li', { text: d })));
    $('check-repro').replaceChildren(...(c.reproduced_by.length ? c.reproduced_by.map((r) => el('li', {},
      el('code', { text: r.config }), ` (bounds ${r.min}..${r.max}): ${r.reason}`)) : [el('li', { text: 'no configuration the check tries programs it' })]));
    $('check-notes').replaceChildren(...c.notes.map((n) => el('li', { text: 'note: ' + n })));
  }

  // ---- wiring ----
  wireInput('capture');
  wireInput('feature');
  wireInput('log');
  for (const id of ['bound', 'kernel', 'pci-id', 'compare-a', 'compare-b', 'gaps', 'count', 'seed', 'tried']) $(id).addEventListener('input', () => schedule(DEBOUNCE_MS));
  $('platform').addEventListener('input', () => schedule(0));
  for (const id of ['log', 'log-file']) $(id).addEventListener('focus', wantLogEngine);
  $('log-input').addEventListener('dragenter', wantLogEngine);
  document.querySelectorAll('[data-bound]').forEach((b) => b.addEventListener('click', () => setBound(b.dataset.bound)));
  $('to-bound').addEventListener('click', (ev) => { ev.preventDefault(); $('bound').focus(); });
  $('example').addEventListener('click', async () => {
    try {
      const res = await fetch('example-samsung-990-evo-plus.txt');
      if (!res.ok) throw new Error(`the server answered ${res.status}`);
      $('capture').value = await res.text();
    } catch (e) {
      $('capture-error').textContent = (location.protocol === 'file:' || navigator.onLine === false || e instanceof TypeError)
        ? 'The example could not be loaded: you seem to be offline (or the page was opened as a file). Paste a capture instead, or reload once connected.'
        : `The example could not be loaded (${e.message}). Paste a capture instead.`;
      return;
    }
    state.capture = null;
    replaced('capture');
    update();
  });
  $('clear').addEventListener('click', () => {
    $('capture').value = '';
    state.capture = null;
    replaced('capture');
    clearTimeout(linkTimer);
    replaceAddress(location.href.split('#')[0]);
    update();
    $('capture').focus();
  });
  $('clear-log').addEventListener('click', () => {
    $('log').value = '';
    state.log = null;
    replaced('log');
    update();
    $('log').focus();
  });
  $('copy-link').addEventListener('click', async () => {
    const link = $('share-link').value;
    try { await navigator.clipboard.writeText(link); $('copy-note').textContent = 'Copied.'; } catch (_) {
      $('share-link').select();
      $('copy-note').textContent = 'Select the link and copy it.';
    }
  });
  let resizeTimer = 0;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { if (state.sweep && !$('sweep').hidden) renderSweep(state.sweep); }, 100);
  });
  readHash();

  // A link followed in this tab (pasted in the address bar, or Back and
  // Forward between links) changes only the fragment: the page shows that
  // link's drive, and the address update still pending for the answer
  // before is cancelled. hashchange and popstate both fire for one
  // navigation: the second finds the address applied already. A fragment
  // without a drive (an in-page target typed by hand) is no link.
  function followLink() {
    if (location.href === applied) return;
    applied = location.href;
    if (!new URLSearchParams(location.hash.slice(1)).has('d')) return;
    clearTimeout(linkTimer);
    readHash(true);
    update();
  }
  window.addEventListener('hashchange', followLink);
  window.addEventListener('popstate', followLink);

  // The page's own links to a part of it ("terms", "more", a column's
  // term, the skip link) scroll to it and move the focus there without
  // changing the address, which holds the answer's link: following one
  // had replaced it with "#glossary". The href stays for a middle click,
  // a modified click and a page without script.
  document.addEventListener('click', (ev) => {
    const a = ev.target.closest ? ev.target.closest('a[href^="#"]') : null;
    if (!a || ev.defaultPrevented || ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
    const target = document.getElementById(decodeURIComponent(a.getAttribute('href').slice(1)));
    if (!target) return;
    ev.preventDefault();
    target.scrollIntoView();
    if (!target.matches('a[href], button, input, select, textarea, [tabindex]')) target.setAttribute('tabindex', '-1');
    target.focus({ preventScroll: true });
  });

  window.addEventListener('apstweb-ready', () => {
    const first = !ready;
    ready = true;
    if (first) {
      window.apstweb_metrics.readyMs = performance.now() - t0;
      window.apstweb_metrics.navReadyMs = performance.now();
      $('status').textContent = 'Ready: paste a capture, or try the example.';
    } else {
      window.apstweb_metrics.logEngineMs = performance.now();
    }
    update();
    if (!first) return;
    // Warm the engine up once, out of the way: the first call of a code
    // path compiles it, and the first paste should not pay for that.
    const warm = () => fetch('example-samsung-990-evo-plus.txt').then((r) => r.arrayBuffer()).then((b) => {
      window.apstweb.compute(new Uint8Array(b), null, JSON.stringify({ compare_a: 'ps-max-latency-us=100000', compare_b: 'ps-max-latency-us=25000', count: 100 }));
      window.apstweb_metrics.warm = true;
    }).catch(() => {});
    (window.requestIdleCallback || ((f) => setTimeout(f, 50)))(warm);
  });
  if (typeof Go === 'undefined' || typeof WebAssembly === 'undefined') {
    $('status').textContent = 'The engine cannot start.';
    $('engine-error').textContent = location.protocol === 'file:' ? engineMessage('app.wasm', '')
      : 'This browser cannot run WebAssembly, which the page needs (or wasm_exec.js did not load).';
    return;
  }
  if (location.protocol === 'file:') {
    $('status').textContent = 'The engine cannot start.';
    $('engine-error').textContent = engineMessage('app.wasm', '');
    return;
  }
  loadEngine('app.wasm').catch((e) => {
    $('status').textContent = 'The engine did not load.';
    $('engine-error').textContent = engineMessage('app.wasm', e);
  });
})();
