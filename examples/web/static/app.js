// The APST page: reads the inputs, asks the WebAssembly engine
// (apstweb.compute, examples/web/app) for the answer, and draws it. Every
// string from a capture or a kernel log is set as text (textContent, text
// nodes), never as markup. Nothing is sent
// anywhere: the only requests are for this page's own files.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const SVGNS = 'http://www.w3.org/2000/svg';
  const t0 = performance.now();

  // Test and measurement hooks: when the engine was ready, and the last
  // answer with the time it took.
  window.apstweb_metrics = { readyMs: null, last: null };

  const state = {
    capture: null,    // Uint8Array of a picked binary file, or null (the textarea is the capture)
    captureName: '',
    feature: null,    // likewise for the get-feature capture
    featureName: '',
    log: null,        // likewise for the kernel log (also a text file too large to show in the box)
    logName: '',
    drive: '',        // a shared drive from the link, used while there is no capture
    shownBand: -1,
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

  // ---- the link (URL fragment) ----
  const fields = { bound: 'bound', kernel: 'kernel', pci: 'pci-id', a: 'compare-a', b: 'compare-b', gaps: 'gaps', count: 'count', seed: 'seed' };

  function readHash() {
    const h = new URLSearchParams(location.hash.slice(1));
    for (const [k, id] of Object.entries(fields)) {
      if (h.has(k)) $(id).value = h.get(k);
    }
    state.drive = h.get('d') || '';
  }

  function linkFor(drive) {
    const h = new URLSearchParams();
    h.set('d', drive);
    for (const [k, id] of Object.entries(fields)) {
      const v = $(id).value.trim();
      if (v !== $(id).defaultValue) h.set(k, v);
    }
    return location.href.split('#')[0] + '#' + h.toString();
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
    if (which === 'capture') state.drive = '';
    update();
  }

  function wireInput(which) {
    const box = $(which);
    box.addEventListener('input', () => {
      state[which] = null;
      if (which === 'capture') state.drive = '';
      update();
    });
    $(which + '-file').addEventListener('change', (ev) => {
      const f = ev.target.files && ev.target.files[0];
      if (f) loadFile(f, which);
    });
    box.addEventListener('dragover', (ev) => { ev.preventDefault(); box.classList.add('drag'); });
    box.addEventListener('dragleave', () => box.classList.remove('drag'));
    box.addEventListener('drop', (ev) => {
      ev.preventDefault();
      box.classList.remove('drag');
      const f = ev.dataTransfer && ev.dataTransfer.files && ev.dataTransfer.files[0];
      if (f) loadFile(f, which);
    });
  }

  // ---- the engine ----
  let ready = false;
  let pending = false;
  function update() {
    if (!ready) { pending = true; return; }
    const cap = captureBytes();
    const log = logBytes();
    const note = $('capture-note');
    note.textContent = state.capture ? `Using ${state.captureName} (${state.capture.length} bytes, binary). Type or paste in the box to replace it.`
      : (state.drive && !cap ? 'Showing the drive of a shared link (no capture, no serial number). Paste a capture to replace it.' : '');
    $('log-note').textContent = state.log ? `Using ${state.logName} (${state.log.length} bytes). Type or paste in the box to replace it.` : '';
    if (!cap && !state.drive && !log) { render(null); return; }
    const opts = {
      drive: cap ? '' : state.drive,
      bound: $('bound').value, kernel: $('kernel').value, pci_id: $('pci-id').value,
      compare_a: $('compare-a').value, compare_b: $('compare-b').value,
      gaps: $('gaps').value, count: parseInt($('count').value, 10) || 0, seed: Math.max(0, parseInt($('seed').value, 10) || 0),
      tried: $('tried').value, platform: $('platform').value,
    };
    const start = performance.now();
    const out = JSON.parse(window.apstweb.compute(cap, featureBytes(), JSON.stringify(opts), log));
    const ms = performance.now() - start;
    window.apstweb_metrics.last = { ms, millis: out.millis, response: out };
    render(out);
    const m = out.millis || {};
    const planSweep = (m.parse || 0) + (m.plan || 0) + (m.sweep || 0);
    $('timing').textContent = `Last answer computed in ${ms.toFixed(1)} ms in this browser (parse, plan and sweep ${planSweep.toFixed(1)} ms).`;
    window.apstweb_metrics.rendered = performance.now() - start;
  }

  // ---- drawing ----
  const sections = ['diagnosis', 'drive', 'plan', 'sweep', 'compare', 'simulate', 'check', 'share'];
  const errorFields = ['capture', 'feature', 'bound', 'kernel', 'pci_id', 'compare_a', 'compare_b', 'gaps', 'count', 'log', 'tried', 'platform'];

  // say puts text in a live region only when it changed, so that an
  // answer recomputed for another input is not announced again.
  function say(id, text) {
    if ($(id).textContent !== text) $(id).textContent = text;
  }

  function render(r) {
    const errs = (r && r.errors) || {};
    for (const f of errorFields) {
      const e = $(f + '-error');
      if (e) e.textContent = errs[f] || '';
    }
    for (const [f, id] of [['capture', 'capture'], ['feature', 'feature'], ['bound', 'bound'], ['kernel', 'kernel'],
      ['pci_id', 'pci-id'], ['compare_a', 'compare-a'], ['compare_b', 'compare-b'], ['gaps', 'gaps'],
      ['log', 'log'], ['tried', 'tried'], ['platform', 'platform']]) {
      if (errs[f]) $(id).setAttribute('aria-invalid', 'true'); else $(id).removeAttribute('aria-invalid');
    }
    if (errs.feature) $('feature-box').open = true;
    const show = (id, on) => { $(id).hidden = !on; };
    show('diagnosis', !!(r && r.diagnosis));
    say('log-status', r && r.diagnosis ? 'Diagnosis: ' + r.diagnosis.summary : '');
    show('drive', !!(r && r.controller));
    show('plan', !!(r && r.plan));
    show('sweep', !!(r && r.sweep));
    show('compare', !!(r && r.plan));
    show('simulate', !!(r && r.plan));
    show('check', !!(r && r.check));
    show('share', !!(r && r.drive && r.plan));
    if (!r) return;
    if (r.diagnosis) renderDiagnosis(r.diagnosis);
    if (r.controller) renderDrive(r);
    if (r.plan) renderPlan(r.plan);
    if (r.sweep) renderSweep(r.sweep);
    renderCompare(r.compare);
    renderSimulate(r.simulate);
    if (r.check) renderCheck(r.check);
    if (r.drive && r.plan) {
      const link = linkFor(r.drive);
      $('share-link').value = link;
      history.replaceState(null, '', link);
    }
  }

  // The diagnosis of the kernel log: the answer first (the summary, the
  // undecided pair and the test that separates it), then the causes with
  // their quoted lines and tests, the lines not read, the known issues, and
  // what was tried, assumed and read. The log's strings come escaped from
  // the engine and are set as text.
  function renderDiagnosis(d) {
    const s = $('diagnosis-summary');
    s.textContent = d.summary;
    s.className = 'headline' + (d.replace ? ' verdict-bad' : !d.failure && d.unread.length === 0 ? ' verdict-ok' : '');
    const about = [];
    if (d.controller) about.push(`Controller ${d.controller}${d.address ? ' (' + d.address + ')' : ''}.`);
    if (d.on_resume) about.push('The failure came right after a system sleep transition (suspend or resume).');
    if (d.apst_ruled_out) about.push('APST is probably not the cause.');
    if (d.replace) about.push('The evidence says the drive is failing: back it up and replace it.');
    $('diagnosis-about').textContent = about.join(' ');

    const und = $('diagnosis-undecided');
    und.replaceChildren();
    if (d.undecided.length > 1) {
      und.append(el('p', { class: 'outcome', text: `Undecided between ${d.undecided.join(' and ')}: the evidence does not separate them.` }));
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

    const un = $('diagnosis-unread');
    un.replaceChildren();
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
    $('diagnosis-notes').replaceChildren(...d.assumptions.map((a) => el('li', { class: /^warning/.test(a) ? 'warn' : null, text: a })),
      ...d.notes.map((n) => el('li', { text: 'note: ' + n })));
    const lg = d.log;
    $('diagnosis-log').textContent = `Read ${lg.lines} lines: ${lg.events} NVMe and PCIe events, ${lg.incidents} ${lg.incidents === 1 ? 'incident' : 'incidents'}` +
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
      t.where.length ? el('ol', { class: 'where', 'aria-label': 'Where the setting goes' }, ...t.where.map((w) => el('li', { text: w }))) : null,
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

  function renderPlan(p) {
    $('plan-params').textContent = p.params;
    $('plan-outcome').textContent = p.outcome;
    const tb = $('plan-table').tBodies[0];
    tb.replaceChildren();
    for (const s of p.states) {
      const reach = p.reachable.includes(s.state) && s.state !== 0;
      tb.append(el('tr', { class: s.selected ? 'selected' : null, 'data-state': s.state, 'data-reachable': reach ? 'yes' : 'no' },
        el('th', { scope: 'row', text: 'ps' + s.state }),
        el('td', { text: s.op }),
        el('td', { class: 'num', text: s.max_power }),
        el('td', { class: 'num', text: s.enlat_us }),
        el('td', { class: 'num', text: s.exlat_us }),
        el('td', { class: 'mono', text: s.entry }),
        el('td', { text: (reach ? 'reachable: ' : '') + s.decision })));
    }
    $('kernel-log').textContent = p.logs ? p.kernel_log : (p.kernel_log ? `(none in this generation; later kernels log: ${p.kernel_log})` : '(nothing logged)');
  }

  // The sweep picture: x is the bound, 0 in a column of its own and then
  // log10 from 1 µs to 2^64 (unlimited); the upper panel is the worst wake
  // stall (log, 1 µs to 1 s, "none" below), the lower the deepest state's
  // max power (log, 1 mW to 10 W).
  const W = 820, H = 380, X0 = 64, XL = 104, XR = 800, DEC = Math.log10(2 ** 64);
  const S_TOP = 34, S_BOT = 170, S_NONE = 186, P_TOP = 222, P_BOT = 330;
  function xOf(v) { return v < 1 ? X0 : XL + Math.min(Math.log10(v) / DEC, 1) * (XR - XL); }
  function yStall(us) { return us < 1 ? S_NONE : S_BOT - Math.min(Math.log10(us) / 6, 1) * (S_BOT - S_TOP); }
  function yPower(w) { return w <= 0 ? P_BOT : P_BOT - Math.max(0, Math.min((Math.log10(w) + 3) / 4, 1)) * (P_BOT - P_TOP); }
  const fmtUS = (us) => us === 0 ? 'none' : us >= 1e6 ? (us / 1e6) + ' s' : us >= 1000 ? (us / 1000) + ' ms' : us + ' µs';

  function renderSweep(sw) {
    $('sweep-params').textContent = sw.params + '; every bound from 0 to 2^64-1';
    const svg = el('svg:svg', { viewBox: `0 0 ${W} ${H}`, role: 'group', id: 'sweep-svg',
      'aria-label': `Sweep: ${sw.intervals.length} intervals of bounds; the current bound ${sw.bound_text} is marked` });
    svg.append(el('svg:title', { text: 'Worst wake stall and deepest state power against the latency bound' }));
    // Bands first, so that the lines and the axes are drawn over them.
    const bands = el('svg:g', { class: 'bands' });
    sw.intervals.forEach((iv, i) => {
      const x1 = iv.lo < 1 ? X0 - 4 : xOf(iv.lo), x2 = xOf(iv.hi);
      const label = `bounds ${iv.min} to ${iv.max}: deepest ps${iv.deepest} (${iv.deepest_power}), worst wake stall ${iv.worst_exit_us} µs; table ${iv.table}`;
      const g = el('svg:g', { class: `band ${i % 2 ? 'b' : 'a'}${iv.current ? ' current' : ''}`, tabindex: 0, role: 'button',
        'aria-label': label, 'data-index': i });
      g.append(el('svg:rect', { x: x1.toFixed(1), y: S_TOP - 14, width: Math.max(x2 - x1, 2).toFixed(1), height: P_BOT - S_TOP + 14 }));
      g.append(el('svg:title', { text: label }));
      if (x2 - x1 > 26) g.append(el('svg:text', { x: ((x1 + x2) / 2).toFixed(1), y: S_TOP - 2, 'text-anchor': 'middle', class: 'state-label', text: iv.max_ps < 0 ? (iv.lo < 1 ? 'off' : 'none') : 'ps' + iv.deepest }));
      const showIt = () => showBand(sw, i);
      g.addEventListener('mouseenter', showIt);
      g.addEventListener('focus', showIt);
      g.addEventListener('click', () => setBound(iv.min === 'unlimited' ? 'unlimited' : iv.min.replace(/us$/, '')));
      g.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); setBound(iv.min.replace(/us$/, '')); }
      });
      bands.append(g);
    });
    svg.append(bands);
    const axes = el('svg:g', { 'aria-hidden': 'true' });
    // Grid and labels.
    for (let d = 0; d <= 6; d += 1) {
      const y = yStall(10 ** d);
      axes.append(el('svg:line', { class: 'grid', x1: X0 - 6, x2: XR, y1: y, y2: y }));
      if (d % 2 === 0 || d === 6) axes.append(el('svg:text', { x: X0 - 8, y: y + 4, 'text-anchor': 'end', text: fmtUS(10 ** d) }));
    }
    axes.append(el('svg:text', { x: X0 - 8, y: S_NONE + 4, 'text-anchor': 'end', text: 'none' }));
    for (let d = -3; d <= 1; d += 1) {
      const y = yPower(10 ** d);
      axes.append(el('svg:line', { class: 'grid', x1: X0 - 6, x2: XR, y1: y, y2: y }));
      axes.append(el('svg:text', { x: X0 - 8, y: y + 4, 'text-anchor': 'end', text: d < 0 ? (10 ** (d + 3)) + ' mW' : (10 ** d) + ' W' }));
    }
    const ticks = [[0, '0'], [1, '1µs'], [100, '100µs'], [1e4, '10ms'], [1e6, '1s'], [1e8, '100s'], [1e12, '10⁶s'], [2 ** 64, 'unlimited']];
    for (const [v, t] of ticks) {
      const x = xOf(v);
      axes.append(el('svg:line', { class: 'axis', x1: x, x2: x, y1: P_BOT, y2: P_BOT + 5 }));
      axes.append(el('svg:text', { x, y: P_BOT + 18, 'text-anchor': v === 2 ** 64 ? 'end' : 'middle', text: t }));
    }
    axes.append(el('svg:line', { class: 'axis', x1: X0 - 6, x2: XR, y1: P_BOT, y2: P_BOT }));
    axes.append(el('svg:text', { x: (XL + XR) / 2, y: H - 10, 'text-anchor': 'middle', text: 'latency bound ps_max_latency_us (log scale)' }));
    axes.append(el('svg:text', { x: 4, y: 16, text: 'worst wake stall' }));
    axes.append(el('svg:text', { x: 4, y: P_TOP - 12, text: 'deepest state max power' }));
    svg.append(axes);
    // The two step lines.
    let ds = '', dp = '';
    sw.intervals.forEach((iv, i) => {
      const x1 = iv.lo < 1 ? X0 - 4 : xOf(iv.lo), x2 = xOf(iv.hi);
      const ys = yStall(iv.worst_exit_us), yp = yPower(iv.deepest_power_w);
      ds += `${i ? 'L' : 'M'}${x1.toFixed(1)},${ys.toFixed(1)}L${x2.toFixed(1)},${ys.toFixed(1)}`;
      dp += `${i ? 'L' : 'M'}${x1.toFixed(1)},${yp.toFixed(1)}L${x2.toFixed(1)},${yp.toFixed(1)}`;
    });
    const lines = el('svg:g', { 'aria-hidden': 'true', 'pointer-events': 'none' });
    lines.append(el('svg:path', { class: 'stall', d: ds }), el('svg:path', { class: 'power', d: dp }));
    // The current bound.
    const bx = xOf(sw.bound);
    lines.append(el('svg:line', { class: 'bound', x1: bx, x2: bx, y1: S_TOP - 14, y2: P_BOT }));
    lines.append(el('svg:text', { class: 'bound-label', x: bx + (bx > XR - 140 ? -4 : 4), y: P_TOP - 26, 'text-anchor': bx > XR - 140 ? 'end' : 'start', text: 'bound ' + sw.bound_text }));
    svg.append(lines);
    const legend = el('div', { class: 'legend', 'aria-hidden': 'true' },
      el('span', { class: 'l-stall', text: 'worst wake stall' }), el('span', { class: 'l-power', text: 'deepest state max power' }),
      el('span', { class: 'l-bound', text: 'current bound' }));
    // A list of the intervals for reading without the picture.
    const list = el('table', { class: 'intervals', id: 'sweep-table' },
      el('caption', { class: 'sr', text: 'The intervals of bounds, each with its table' }),
      el('thead', {}, el('tr', {}, ...['bounds', 'max_ps', 'deepest', 'worst stall', 'deepest max power', 'table'].map((h) => el('th', { scope: 'col', text: h })))));
    const tb = el('tbody');
    for (const iv of sw.intervals) {
      tb.append(el('tr', { class: iv.current ? 'selected' : null },
        el('td', { class: 'mono', text: `${iv.min}..${iv.max}` }), el('td', { class: 'num', text: iv.max_ps }),
        el('td', { text: 'ps' + iv.deepest }), el('td', { class: 'num', text: iv.worst_exit_us + ' µs' }),
        el('td', { class: 'num', text: iv.deepest_power }), el('td', { class: 'mono', text: iv.table })));
    }
    list.append(tb);
    const fig = $('sweep-figure');
    fig.replaceChildren(el('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'The sweep picture (scrolls sideways on a narrow screen)' }, svg), legend, el('details', {}, el('summary', { text: 'The intervals as a table' }), el('div', { class: 'scroll' }, list)));
    const cur = sw.intervals.findIndex((iv) => iv.current);
    showBand(sw, state.shownBand >= 0 && state.shownBand < sw.intervals.length ? state.shownBand : cur, true);
  }

  function showBand(sw, i, quiet) {
    if (i < 0) return;
    if (!quiet) state.shownBand = i;
    const iv = sw.intervals[i];
    document.querySelectorAll('#sweep-svg .band').forEach((b) => b.classList.toggle('shown', +b.dataset.index === i));
    const rows = iv.entries.map((e, s) => el('tr', {}, el('th', { scope: 'row', text: 'ps' + s }), el('td', { class: 'mono', text: e })));
    $('sweep-detail').replaceChildren(
      el('p', { class: 'outcome', text: `Bounds ${iv.min} to ${iv.max}${iv.current ? ' (the current bound)' : ''}: ${iv.outcome}` }),
      el('p', { text: `Deepest reachable state ps${iv.deepest} at ${iv.deepest_power}; worst wake stall ${iv.worst_exit_us} µs${iv.worst_exit_state >= 0 ? ' (ps' + iv.worst_exit_state + ')' : ''}.` }),
      el('table', {}, el('caption', { class: 'sr', text: 'The table of this interval' }),
        el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'state' }), el('th', { scope: 'col', text: 'entry' }))), el('tbody', {}, ...rows)));
  }

  function setBound(v) {
    $('bound').value = v;
    update();
  }

  function renderCompare(c) {
    const thead = $('compare-table').tHead, tb = $('compare-table').tBodies[0];
    thead.replaceChildren();
    tb.replaceChildren();
    $('compare-diffs').replaceChildren();
    if (!c) { $('compare-delta').textContent = ''; return; }
    const [a, b] = c.configs;
    const saves = c.power_delta_w < 0 ? 'saves' : 'costs';
    $('compare-delta').textContent = `Idle power delta (${b.name} against ${a.name}): ${c.power_delta}: the second ${saves} ${Math.abs(c.power_delta_w * 1000).toFixed(1)} mW once the drive has settled; worst wake stall ${a.worst_exit_us} µs against ${b.worst_exit_us} µs.`;
    thead.append(el('tr', {}, el('th', { scope: 'col', text: '' }), ...c.configs.map((x) => el('th', { scope: 'col', class: 'mono', text: x.name }))));
    const row = (h, f) => tb.append(el('tr', {}, el('th', { scope: 'row', text: h }), ...c.configs.map((x) => el('td', { text: f(x) }))));
    row('parameters', (x) => x.params);
    row('outcome', (x) => x.outcome);
    row('deepest reachable', (x) => `ps${x.deepest} (${x.deepest_power})`);
    row('worst wake stall', (x) => x.worst_exit_us + ' µs');
    row('kernel log', (x) => x.kernel_log || '-');
    for (const r of c.rows) {
      tb.append(el('tr', { class: r.differs ? 'differs' : null }, el('th', { scope: 'row', text: 'ps' + r.state }),
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
        el('td', { class: 'num', text: s.avg_idle_power_w.toFixed(4) + ' W' }),
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
  for (const id of ['bound', 'kernel', 'pci-id', 'compare-a', 'compare-b', 'gaps', 'count', 'seed', 'tried', 'platform']) $(id).addEventListener('input', update);
  document.querySelectorAll('[data-bound]').forEach((b) => b.addEventListener('click', () => setBound(b.dataset.bound)));
  $('example').addEventListener('click', async () => {
    const res = await fetch('example-samsung-990-evo-plus.txt');
    $('capture').value = await res.text();
    state.capture = null;
    state.drive = '';
    update();
  });
  $('clear').addEventListener('click', () => {
    $('capture').value = '';
    state.capture = null;
    state.drive = '';
    history.replaceState(null, '', location.href.split('#')[0]);
    update();
    $('capture').focus();
  });
  $('clear-log').addEventListener('click', () => {
    $('log').value = '';
    state.log = null;
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
  readHash();

  window.addEventListener('apstweb-ready', () => {
    ready = true;
    window.apstweb_metrics.readyMs = performance.now() - t0;
    window.apstweb_metrics.navReadyMs = performance.now();
    $('status').textContent = 'Ready: paste a capture, or try the example.';
    update();
    // Warm the engine up once, out of the way: the first call of a code
    // path compiles it, and the first paste should not pay for that.
    const warm = () => fetch('example-samsung-990-evo-plus.txt').then((r) => r.arrayBuffer()).then((b) => {
      window.apstweb.compute(new Uint8Array(b), null, JSON.stringify({ compare_a: 'ps-max-latency-us=100000', compare_b: 'ps-max-latency-us=25000', count: 100 }));
      window.apstweb_metrics.warm = true;
    }).catch(() => {});
    (window.requestIdleCallback || ((f) => setTimeout(f, 50)))(warm);
  });
  if (typeof Go === 'undefined' || typeof WebAssembly === 'undefined') {
    $('status').textContent = 'This browser cannot run WebAssembly, which the page needs.';
    return;
  }
  const go = new Go();
  const start = (p) => p.then((r) => go.run(r.instance)).catch((e) => { $('status').textContent = 'The engine failed to load: ' + e; });
  start(WebAssembly.instantiateStreaming(fetch('app.wasm'), go.importObject)
    .catch(() => fetch('app.wasm').then((r) => r.arrayBuffer()).then((b) => WebAssembly.instantiate(b, go.importObject))));
})();
