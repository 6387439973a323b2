// SPDX-License-Identifier: GPL-2.0-or-later
// seekscope HTML viewer, part 5 of 5: the page — toolbar, columns of panels, summary table,
// tooltips — and the interaction: wheel zoom, drag pan, shift-drag box zoom, double-click
// reset, keys, clicks on phases and zones, class and panel toggles, the URL fragment that
// keeps the view, the play cursor, and window.seekscope, the small API the browser test uses.

// The static plot's summary table as render/plot/table.c made it (the page's meta "table": the
// cell texts, the highlights of its honest rule, and the rule itself): shown, not judged anew.
SS.buildTable = function (V, parent) {
	const tb = V.meta.table;
	if (!tb || !tb.rows.length) return;
	// a table wider than the window scrolls on its own, not the page with the panels
	const t = SS.el('table', { class: 'ss-table' }, SS.el('div', { class: 'ss-tablewrap' }, parent));
	const hr = SS.el('tr', {}, SS.el('thead', {}, t));
	// one run: no run column, as in the static plot (the title names the trace)
	const runs = tb.rows.some((row) => row.run !== tb.rows[0].run);
	(runs ? ['run', 'phase'] : ['phase']).concat(tb.heads).forEach((h) => SS.el('th', { text: h }, hr));
	const body = SS.el('tbody', {}, t);
	tb.rows.forEach((row, i) => {
		const tr = SS.el('tr', { class: i && row.group !== tb.rows[i - 1].group ? 'ss-group' : '' }, body);
		if (runs) SS.el('td', { text: row.run }, tr);
		SS.el('td', { text: row.phase, class: row.group ? '' : 'ss-bold' }, tr);
		row.cells.forEach(([text, best, warn]) => SS.el('td', {
			text: text, class: 'ss-num' + (best ? ' ss-best' : '') + (warn ? ' ss-lost' : ''),
		}, tr));
	});
	if (tb.rule) SS.el('div', { class: 'ss-rule', text: tb.rule }, parent);
};

SS.deviceText = function (m) {
	const parts = [];
	if (m.slot_devs.length > 1)   // as the static plot's column header says it
		return m.slot_devs.length + ' devices: ' + m.slot_devs.map((dev) => {
			const d = m.devices.find((x) => x.dev === dev);
			return d ? d.part || d.name : (dev >>> 20) + ',' + (dev & 0xfffff);
		}).join(', ') + ' (series: all together)';
	if (m.devices.length) parts.push(SS.devName(m, m.slot_devs.length ? m.slot_devs[0] : m.devices[0].dev));
	const ags = m.zones.filter((z) => z.kind === 'ag').length;
	const groups = m.zones.filter((z) => z.kind === 'group').length;
	if (ags || groups) parts.push((ags || groups) + (ags ? ' AGs' : ' groups'));
	return parts.join(', ');
};

// ---- the request under a point -------------------------------------------------------------

SS.details = function (V, c, i) {
	const tr = V.traces[c], d = tr.d, m = tr.m;
	const devNum = m.devs[d.dev[i]];
	const dev = m.devices.find((x) => x.dev === devNum);
	const zone = d.zone[i] >= 0 ? m.zones[d.zone[i]] : null;
	const proc = m.procs[d.proc[i] >> 1], file = d.file[i] >>> 2;
	return {
		trace: m.label, column: c, index: i,
		issue_ns: d.ts[i], issue_abs_ns: m.t0_ns + d.ts[i],
		sector: d.sector[i], nr_sector: d.nr[i], bytes: d.nr[i] * 512,
		rwbs: V.meta.rwbs[d.flags[i]] || String(d.flags[i]), flags: d.flags[i],
		class: V.meta.classes[d.cls[i]].name,
		latency_ns: d.lat[i] >= 0 ? d.lat[i] : null,
		zone: zone ? zone.label : null,
		pid: proc ? proc[0] : null, process: proc ? proc[1] : null, submitter: !!(d.proc[i] & 1),
		// the file map's (render/analysis/filemap.h): the file behind the sectors, and which
		// of its parts they are
		file: file ? m.files[file - 1] : null,
		// --color-by: the legend entry (group) it is drawn in
		group: V.meta.color_by === 'class' ? null : V.meta.legend[d.group[i]].name,
		file_part: file ? ['', 'data', 'dir', 'inode'][d.file[i] & 3] : null,
		dev: devNum === undefined ? null : (devNum >>> 20) + ',' + (devNum & 0xfffff) +
			(dev ? ' ' + (dev.part || dev.name) : ''),
	};
};

// Nearest visible request within 5 px of (x, y) in the io canvas of column c, or -1.
SS.nearest = function (V, c, x, y) {
	const col = V.cols[c], cv = col.canvases.io, r = cv.plot, tr = V.traces[c], d = tr.d;
	const tEnd = V.play.on ? V.play.tc : Infinity, sl = SS.slotOf(V, tr);
	const a = SS.lowerBound(d.ts, SS.tOf(V, r, x - 5), 0, d.done), b = SS.lowerBound(d.ts, SS.tOf(V, r, x + 5), 0, d.done);
	let best = -1, bestD = 6;
	for (let i = a; i < b && i < a + 200000 && sl; i++) {
		if ((1 << d.colour[i]) & V.hiddenMask || d.ts[i] > tEnd || !SS.onSlot(sl, d, i)) continue;
		const px = SS.xOf(V, r, d.ts[i]) + SS.CELL / 2;
		const y0 = SS.yOf(V, r, d.sector[i]), y1 = Math.min(SS.yOf(V, r, d.sector[i] + d.nr[i]), y0 - SS.CELL);
		const dy = y < y1 ? y1 - y : y > y0 ? y - y0 : 0;
		const dist = Math.max(Math.abs(px - x), dy);
		if (dist < bestD) { bestD = dist; best = i; }
	}
	return best;
};

SS.tipRequest = function (V, det) {
	const rows = [
		['issued', SS.fmtTime(det.issue_ns, 9) + ' after the start'],
		['sectors', det.sector + '+' + det.nr_sector + '  (' + det.sector + '\u2013' +
			(det.sector + det.nr_sector - 1) + ')'],
		['bytes', det.bytes + ' (' + SS.fmtBytes(det.bytes) + ') at ' + SS.fmtBytes(det.sector * 512)],
		['rwbs', det.rwbs + ' \u00b7 ' + det.class],
		['latency', det.latency_ns === null ? 'unknown (no completion paired)' : SS.fmtLatency(det.latency_ns)],
		['zone', det.zone || '\u2013'],
		['process', det.process === null ? '\u2013' : det.process + ' [' + det.pid + ']' +
			(det.submitter ? ' (submitted it)' : ' (issued it)')],
		['file', det.file === null ? '\u2013 (not in the file map)' : (det.file || '.') +
			{ data: '', dir: ' (directory blocks)', inode: ' (its inode)' }[det.file_part]],
		['device', det.dev || '\u2013'],
	];
	return '<b>' + SS.esc(det.trace) + '</b> request ' + (det.index + 1) +
		'<table>' + rows.map(([k, v]) => '<tr><th>' + k + '</th><td>' + SS.esc(String(v)) + '</td></tr>').join('') + '</table>';
};
SS.esc = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));

// ---- the view ---------------------------------------------------------------------------

SS.home = (V) => ({ t0: V.meta.x_lo, t1: V.meta.x_hi, s0: V.meta.slots[V.dev][0], s1: V.meta.slots[V.dev][1] });

// Show the io panel of device slot K (several devices: one at a time, each over its own
// offsets), from its whole range.
SS.setDevice = function (V, k) {
	if (!(k >= 0 && k < V.meta.slots.length) || k === V.dev) return;
	V.dev = k;
	if (V.devSelect) V.devSelect.value = String(k);
	SS.titles(V);
	SS.setView(V, { s0: V.meta.slots[k][0], s1: V.meta.slots[k][1] });
};

// A device's name as the trace records it ("loop0p1 xfs 8.0 GiB"), by device number.
SS.devName = function (m, dev) {
	const d = m.devices.find((x) => x.dev === dev);
	if (!d) return (dev >>> 20) + ',' + (dev & 0xfffff);
	return (d.part || d.name) + (d.fstype ? ' ' + d.fstype : '') +
		(d.sectors ? ' ' + (d.sectors / 2097152).toFixed(1) + ' GiB' : '');
};

// The io panels' titles name the shown device when a trace has several.
SS.titles = function (V) {
	if (V.meta.slots.length < 2) return;
	V.cols.forEach((col) => {
		const t = col.titles.io, tr = V.traces[col.index], sl = SS.slotOf(V, tr);
		if (!t) return;
		t.firstChild.textContent = t.dataset.title + '  [' + (sl ? SS.devName(tr.m, sl.dev) :
			'no device ' + (V.dev + 1) + ' in this trace') + ']';
	});
};

SS.setView = function (V, nv) {
	const h = SS.home(V), v = Object.assign({}, V.view, nv);
	// down to single requests: at least 1 us of time and 8 sectors of offset on screen
	if (v.t1 - v.t0 < 1000) { const m = (v.t0 + v.t1) / 2; v.t0 = m - 500; v.t1 = m + 500; }
	if (v.s1 - v.s0 < 8) { const m = (v.s0 + v.s1) / 2; v.s0 = m - 4; v.s1 = m + 4; }
	const spanT = Math.min(v.t1 - v.t0, (h.t1 - h.t0) * 4), spanS = Math.min(v.s1 - v.s0, (h.s1 - h.s0) * 4);
	const pad = 0.5;
	v.t0 = Math.max(h.t0 - spanT * pad, Math.min(v.t0, h.t1 + spanT * pad - spanT));
	v.t1 = v.t0 + spanT;
	v.s0 = Math.max(h.s0 - spanS * pad, Math.min(v.s0, h.s1 + spanS * pad - spanS));
	v.s1 = v.s0 + spanS;
	V.view = v;
	SS.saveHash(V);
	SS.redraw(V);
};

SS.zoomAt = function (V, f, tAt, sAt) {
	const v = V.view, nv = {};
	if (tAt !== null) { nv.t0 = tAt - (tAt - v.t0) * f; nv.t1 = tAt + (v.t1 - tAt) * f; }
	if (sAt !== null) { nv.s0 = sAt - (sAt - v.s0) * f; nv.s1 = sAt + (v.s1 - sAt) * f; }
	SS.setView(V, nv);
};

SS.saveHash = function (V) {
	const v = V.view, p = [];
	const r = (x) => +(x / 1e9).toPrecision(12);
	p.push('t=' + r(v.t0) + ':' + r(v.t1));
	p.push('y=' + Math.round(v.s0) + ':' + Math.round(v.s1));
	if (V.dev) p.push('dev=' + V.dev);
	if (V.hiddenMask) p.push('hide=' + V.meta.legend.map((c, i) => i).filter((i) => V.hiddenMask & (1 << i)).join(','));
	p.push('panels=' + V.panels.filter((x) => x.shown).map((x) => x.name).join(','));
	const h = '#' + p.join('&');
	if (location.hash !== h) {
		V.ownHash = h;
		history.replaceState(null, '', h);
	}
};

SS.loadHash = function (V) {
	const kvs = location.hash.replace(/^#/, '').split('&');
	// the device first: the offsets are its own
	for (const kv of kvs) {
		const [k, val] = kv.split('=');
		if (k === 'dev' && Number(val) >= 0 && Number(val) < V.meta.slots.length) V.dev = Number(val);
	}
	const h = SS.home(V), v = Object.assign({}, h);
	for (const kv of kvs) {
		const [k, val] = kv.split('=');
		if (!val) continue;
		const ab = val.split(':').map(Number);
		if (k === 't' && ab.length === 2 && ab[1] > ab[0]) { v.t0 = ab[0] * 1e9; v.t1 = ab[1] * 1e9; }
		if (k === 'y' && ab.length === 2 && ab[1] > ab[0]) { v.s0 = ab[0]; v.s1 = ab[1]; }
		if (k === 'hide') {
			V.hiddenMask = 0;
			val.split(',').map(Number).forEach((i) => { if (i >= 0 && i < 8) V.hiddenMask |= 1 << i; });
		}
		if (k === 'panels') {
			const names = val.split(',');
			if (names.some((n) => V.panels.find((p) => p.name === n)))
				V.panels.forEach((p) => { p.shown = names.includes(p.name); });
		}
	}
	V.view = v;
};

// ---- drawing everything, once per animation frame -----------------------------------------

SS.redraw = function (V) {
	if (V.pending) return;
	V.pending = requestAnimationFrame(() => {
		V.pending = 0;
		const t = performance.now();
		SS.render(V);
		V.frameMs = performance.now() - t;
	});
};

SS.render = function (V) {
	const series = {};
	const shown = V.panels.filter((p) => p.shown && SS.known(p.name));
	for (const p of shown) if (SS.SERIES[p.name]) series[p.name] = SS.seriesFor(V, p.name);
	const dist = SS.distExtent(V);
	const model = shown.some((p) => p.name === 'model') ? SS.modelFor(V) : null;
	V.cols.forEach((col) => {
		const tr = V.traces[col.index];
		for (const p of shown) {
			const cv = col.canvases[p.name];
			if (p.name === 'io') SS.drawIo(V, col, tr, cv);
			else if (p.name === 'dist') SS.drawDist(V, col, tr, cv, dist, p);
			else if (p.name === 'model') SS.drawModel(V, col, tr, cv, model, p);
			else SS.drawSeries(V, col, tr, cv, p.name, series[p.name], p);
		}
	});
	const v = V.view, u = SS.unitTime(v.t1 - v.t0), yu = SS.unitOffset(V.meta.units, v.s1 - v.s0);
	const dig = Math.max(0, Math.min(9, 3 - Math.floor(Math.log10((v.t1 - v.t0) / u.div))));
	V.status.textContent = 'time ' + (v.t0 / u.div).toFixed(dig) + '\u2013' + (v.t1 / u.div).toFixed(dig) +
		' ' + u.name + ' \u00b7 offset ' + SS.fmtOffset(v.s0, yu) + '\u2013' + SS.fmtOffset(v.s1, yu) + ' ' + yu.name +
		' \u00b7 ' + V.cols.map((c) => (c.mode && c.mode.detail ? (c.mode.i1 - c.mode.i0) + ' requests' : 'overview cells')).join(' | ');
};
SS.fmtOffset = (s, u) => (u.div === 1 ? String(Math.round(s)) : (s / u.div).toFixed(u.div > 2048 ? 3 : 1));
SS.known = (name) => name === 'io' || name === 'dist' || name === 'model' || !!SS.SERIES[name];

// ---- the page ------------------------------------------------------------------------------

SS.buildPage = function (V) {
	const app = document.getElementById('ss-app');
	const m = V.meta;
	const head = SS.el('header', { class: 'ss-head' }, app);
	SS.el('h1', { text: m.title + (m.align ? ', aligned on the start of ' + m.align : '') }, head);
	const bar = SS.el('div', { class: 'ss-bar' }, head);
	const legend = SS.el('span', { class: 'ss-legend' }, bar);
	m.legend.forEach((c, i) => {
		const lab = SS.el('label', { class: 'ss-toggle', title: 'show or hide ' + c.name }, legend);
		const cb = SS.el('input', { type: 'checkbox', 'data-class': i }, lab);
		cb.checked = !(V.hiddenMask & (1 << i));
		cb.addEventListener('change', () => {
			V.hiddenMask = cb.checked ? V.hiddenMask & ~(1 << i) : V.hiddenMask | (1 << i);
			SS.saveHash(V);
			SS.redraw(V);
		});
		SS.el('i', { class: 'ss-swatch', style: 'background:' + c.color }, lab);
		lab.appendChild(document.createTextNode(c.name));
	});
	for (const [n, c] of [['flush', m.flush_color], ['FUA', m.fua_color]]) {
		const s = SS.el('span', { class: 'ss-mark' }, legend);
		SS.el('i', { class: 'ss-tick', style: 'background:' + c }, s);
		s.appendChild(document.createTextNode(n));
	}
	const pbar = SS.el('span', { class: 'ss-panels' }, bar);
	V.panels.forEach((p) => {
		if (!SS.known(p.name)) return;
		const lab = SS.el('label', { class: 'ss-toggle', title: p.title }, pbar);
		const cb = SS.el('input', { type: 'checkbox', 'data-panel': p.name }, lab);
		cb.checked = p.shown;
		cb.addEventListener('change', () => { p.shown = cb.checked; SS.layout(V); SS.saveHash(V); });
		lab.appendChild(document.createTextNode(p.name));
	});
	const ctl = SS.el('span', { class: 'ss-ctl' }, bar);
	const btn = (text, title, fn) => {
		const b = SS.el('button', { text: text, title: title }, ctl);
		b.addEventListener('click', fn);
		return b;
	};
	btn('\u2212', 'zoom out in time (-)', () => SS.key(V, { key: '-' }));
	btn('+', 'zoom in in time (+)', () => SS.key(V, { key: '+' }));
	btn('reset', 'whole trace (double-click, 0)', () => SS.setView(V, SS.home(V)));
	V.playBtn = btn('\u25b6 play', 'sweep a cursor through the shown time (space)', () => SS.togglePlay(V));
	V.speed = SS.el('select', { title: 'how long a sweep of the shown time takes' }, ctl);
	[['5 s sweep', 5], ['15 s sweep', 15], ['60 s sweep', 60], ['real time', 0]].forEach(([t, v]) => {
		const o = SS.el('option', { text: t, value: v }, V.speed);
		if (v === 15) o.selected = true;
	});
	if (m.slots.length > 1) {
		// several devices: an io panel for one at a time, each over its own offsets
		V.devSelect = SS.el('select', { title: 'the device the io panel shows (its own offsets)' }, ctl);
		m.slots.forEach((s, k) => {
			const names = [...new Set(V.traces.map((tr) => (tr.slots[k] ? SS.devName(tr.m, tr.slots[k].dev) : null))
				.filter((x) => x))];
			SS.el('option', { text: 'device ' + (k + 1) + ': ' + names.join(' / '), value: k }, V.devSelect);
		});
		V.devSelect.value = String(V.dev);
		V.devSelect.addEventListener('change', () => SS.setDevice(V, Number(V.devSelect.value)));
	}
	SS.el('span', { class: 'ss-help', text: '?', title: 'wheel: zoom time (shift: offset)\ndrag: pan\n' +
		'shift-drag: box zoom\ndouble-click or 0: reset\n+ -: zoom time, PageUp/PageDown: zoom offset\n' +
		'arrows: pan\nspace: play/pause\nclick a phase or zone label to zoom to it' }, ctl);
	V.status = SS.el('div', { class: 'ss-status' }, head);
	V.notes = SS.el('div', { class: 'ss-notes' }, head);
	SS.notes(V);
	V.grid = SS.el('div', { class: 'ss-grid' }, app);
	V.grid.style.gridTemplateColumns = 'repeat(' + V.traces.length + ', minmax(0, 1fr))';
	V.cols = V.traces.map((tr, i) => {
		const el = SS.el('div', { class: 'ss-col' }, V.grid);
		const h = SS.el('div', { class: 'ss-colhead' }, el);
		SS.el('b', { text: tr.m.label, title: tr.m.path + ' (' + tr.m.format + ')' }, h);
		SS.el('span', { class: 'ss-dev', text: SS.deviceText(tr.m) }, h);
		const warn = [];
		if (tr.m.truncated) warn.push('TRUNCATED: ' + tr.m.warning.replace(/^truncated: /, ''));
		if (tr.m.lost) warn.push(tr.m.lost + ' events LOST' + (tr.m.lost_periods.length ?
			' in ' + tr.m.lost_periods.length + ' period(s) (shaded; no latency for requests in flight there)' : ''));
		if (warn.length) SS.el('span', { class: 'ss-warn', text: warn.join('; ') }, h);
		const col = { index: i, el: el, canvases: {}, boxes: {}, titles: {} };
		V.panels.forEach((p) => {
			if (!SS.known(p.name)) return;
			const box = SS.el('div', { class: 'ss-panel ss-p-' + p.name }, el);
			const pt = SS.el('div', { class: 'ss-ptitle', text: p.title }, box);
			pt.dataset.title = p.title;
			col.titles[p.name] = pt;
			if (SS.SERIES[p.name] && SS.SERIES[p.name].length > 1) {
				const key = SS.el('span', { class: 'ss-key' }, pt);
				SS.SERIES[p.name].forEach((l) => {
					SS.el('i', { style: 'border-top: 2px ' + (l.dash ? 'dashed ' : 'solid ') + l.color }, key);
					key.appendChild(document.createTextNode(l.name));
				});
			}
			if (p.name === 'model') {
				const key = SS.el('span', { class: 'ss-key' }, pt);
				m.disk.parts.forEach((part) => {
					SS.el('i', { class: 'ss-swatch', style: 'background:' + part.color }, key);
					key.appendChild(document.createTextNode(part.name));
				});
				SS.el('i', { style: 'border-top: 2px dashed ' + SS.COL.axis }, key);
				key.appendChild(document.createTextNode('elapsed'));
			}
			const cv = SS.el('canvas', { 'data-col': i, 'data-panel': p.name }, box);
			col.canvases[p.name] = cv;
			col.boxes[p.name] = box;
			SS.attach(V, col, p, cv);
		});
		return col;
	});
	SS.el('div', { class: 'ss-xtitle', text: 'time since the start of ' + (m.align ? m.align : 'the trace') }, app);
	SS.buildTable(V, app);
	SS.titles(V);
	V.tip = SS.el('div', { class: 'ss-tip' }, document.body);
	SS.layout(V);
};

SS.notes = function (V) {
	const out = [];
	V.traces.forEach((tr) => {
		if (tr.detailError) out.push(tr.m.label + ': ' + tr.detailError);
		if (!tr.gaps.length) return;
		const ch = tr.m.chunks, left = ch.filter((c) => !c.sec).reduce((a, c) => a + c.n, 0);
		const where = tr.gaps.map(([a, b]) => (a / 1e9).toFixed(3) + '\u2013' + (b / 1e9).toFixed(3) + ' s').join(', ');
		// a stretch from the first gap holding no more requests than this page does
		let k = ch.findIndex((c) => !c.sec), n = 0;
		const a = ch[k].t_first;
		while (k + 1 < ch.length && !ch[k + 1].sec && n + ch[k].n <= tr.d.n) n += ch[k++].n;
		out.push(tr.m.label + ': the detail of ' + left + ' of ' + tr.m.requests + ' requests is left out to keep ' +
			'this file within ' + (V.meta.max_bytes / 1e6).toFixed(0) + ' MB (' + where + '); there the io panel ' +
			'shows cells only. For the requests there, plot a stretch, e.g. seekscope plot ' + tr.m.path +
			' --x-range ' + (a / 1e9).toFixed(3) + ':' + (ch[k].t_last / 1e9 + 0.001).toFixed(3) + ' -o zoom.html');
	});
	V.notes.textContent = out.join('\n');
	V.notes.style.display = out.length ? '' : 'none';
};

SS.layout = function (V) {
	V.cols.forEach((col) => V.panels.forEach((p) => {
		if (col.boxes[p.name]) col.boxes[p.name].style.display = p.shown ? '' : 'none';
	}));
	document.querySelectorAll('input[data-panel]').forEach((cb) => {
		cb.checked = !!V.panels.find((p) => p.name === cb.dataset.panel && p.shown);
	});
	SS.redraw(V);
};

// ---- interaction ---------------------------------------------------------------------------

SS.attach = function (V, col, p, cv) {
	const isIo = p.name === 'io', isTime = p.time_x;
	const local = (e) => { const b = cv.getBoundingClientRect(); return { x: e.clientX - b.left, y: e.clientY - b.top }; };
	const inPlot = (q) => cv.plot && q.x >= cv.plot.x && q.x <= cv.plot.x + cv.plot.w && q.y >= cv.plot.y && q.y <= cv.plot.y + cv.plot.h;
	let drag = null;
	cv.addEventListener('wheel', (e) => {
		if (!isTime) return;
		e.preventDefault();
		const q = local(e), r = cv.plot, f = Math.pow(1.0015, e.deltaY);
		if (e.shiftKey && isIo) SS.zoomAt(V, f, null, SS.sOf(V, r, q.y));
		else SS.zoomAt(V, f, SS.tOf(V, r, q.x), null);
	}, { passive: false });
	cv.addEventListener('mousedown', (e) => {
		if (!isTime || e.button !== 0) return;
		const q = local(e);
		drag = { x: q.x, y: q.y, v: Object.assign({}, V.view), box: e.shiftKey, moved: false };
		e.preventDefault();
	});
	window.addEventListener('mousemove', (e) => {
		if (!drag) return;
		const q = local(e), r = cv.plot;
		drag.moved = drag.moved || Math.abs(q.x - drag.x) + Math.abs(q.y - drag.y) > 3;
		if (drag.box) {
			V.box = { col: col.index, panel: p.name, x0: Math.min(q.x, drag.x), x1: Math.max(q.x, drag.x),
				  y0: isIo ? Math.min(q.y, drag.y) : r.y, y1: isIo ? Math.max(q.y, drag.y) : r.y + r.h };
			SS.redraw(V);
			return;
		}
		const dt = (q.x - drag.x) / r.w * (drag.v.t1 - drag.v.t0);
		const nv = { t0: drag.v.t0 - dt, t1: drag.v.t1 - dt };
		if (isIo) {
			const ds = (q.y - drag.y) / r.h * (drag.v.s1 - drag.v.s0);
			nv.s0 = drag.v.s0 + ds;
			nv.s1 = drag.v.s1 + ds;
		}
		SS.setView(V, nv);
	});
	window.addEventListener('mouseup', () => {
		if (!drag) return;
		const d = drag;
		drag = null;
		if (d.box && V.box && d.moved) {
			const r = cv.plot, b = V.box, nv = { t0: SS.tOf(V, r, b.x0), t1: SS.tOf(V, r, b.x1) };
			if (isIo) { nv.s0 = SS.sOf(V, r, b.y1); nv.s1 = SS.sOf(V, r, b.y0); }
			V.box = null;
			SS.setView(V, nv);
		}
		V.box = null;
		SS.redraw(V);
	});
	cv.addEventListener('click', (e) => {
		const q = local(e);
		const hit = (cv.hits || []).find((h) => q.x >= h.x && q.x <= h.x + h.w && q.y >= h.y && q.y <= h.y + h.h);
		if (!hit) return;
		if (hit.kind === 'phase') {
			const pad = (hit.phase.end - hit.phase.begin) * 0.02;
			SS.setView(V, { t0: hit.phase.begin - pad, t1: hit.phase.end + pad });
		} else if (hit.kind === 'zone') {
			const pad = hit.zone.n * 0.02;
			SS.setView(V, { s0: hit.zone.start - pad, s1: hit.zone.start + hit.zone.n + pad });
		}
	});
	cv.addEventListener('dblclick', () => { if (isTime) SS.setView(V, SS.home(V)); });
	cv.addEventListener('mousemove', (e) => {
		const q = local(e);
		const hit = (cv.hits || []).find((h) => q.x >= h.x && q.x <= h.x + h.w && q.y >= h.y && q.y <= h.y + h.h);
		cv.style.cursor = hit ? 'pointer' : isTime ? 'crosshair' : 'default';
		if (drag) return;
		if (!inPlot(q)) { SS.hideTip(V); return; }
		if (isTime) V.cursor = SS.tOf(V, cv.plot, q.x);
		if (isIo) SS.hoverIo(V, col.index, q.x, q.y, e.clientX, e.clientY);
		else if (p.name === 'model') SS.hoverModel(V, col.index, q.x, e.clientX, e.clientY);
		else if (isTime) SS.hoverSeries(V, col.index, p, q.x, e.clientX, e.clientY);
		else SS.hoverDist(V, col.index, cv, q.x, e.clientX, e.clientY);
		SS.redraw(V);
	});
	cv.addEventListener('mouseleave', () => { V.cursor = null; V.hover = null; SS.hideTip(V); SS.redraw(V); });
};

SS.showTip = function (V, html, cx, cy) {
	V.tip.innerHTML = html;
	V.tip.style.display = 'block';
	const w = V.tip.offsetWidth, h = V.tip.offsetHeight;
	V.tip.style.left = Math.min(cx + 14, window.innerWidth - w - 4) + 'px';
	V.tip.style.top = Math.min(cy + 14, window.innerHeight - h - 4) + 'px';
};
SS.hideTip = (V) => { V.tip.style.display = 'none'; };

SS.hoverIo = function (V, c, x, y, cx, cy) {
	const i = SS.nearest(V, c, x, y);
	V.hover = { col: c, i: i };
	if (i >= 0) {
		V.hovered = SS.details(V, c, i);
		SS.showTip(V, SS.tipRequest(V, V.hovered), cx, cy);
		return;
	}
	V.hovered = null;
	// no request detail there: what the overview cell holds
	const tr = V.traces[c], cv = V.cols[c].canvases.io, r = cv.plot, m = V.meta;
	const t = SS.tOf(V, r, x), s = SS.sOf(V, r, y);
	const mode = V.cols[c].mode, sl = SS.slotOf(V, tr);
	if (mode && !mode.detail && sl) {
		const gw = Math.ceil(r.w / SS.CELL), gh = Math.ceil(r.h / SS.CELL), y = SS.slotRange(V);
		const lv = sl.levels[SS.pickLevel(V, sl, gw, gh)];
		const cx0 = Math.floor((t - m.x_lo) / (m.x_hi - m.x_lo) * lv.w);
		const cy0 = Math.floor((s - y.y_lo) / (y.y_hi - y.y_lo) * lv.h);
		if (cx0 >= 0 && cx0 < lv.w && cy0 >= 0 && cy0 < lv.h && lv.mask[cy0 * lv.w + cx0]) {
			const k = cy0 * lv.w + cx0, bits = lv.mask[k] & ~V.hiddenMask;
			if (bits) {
				const names = m.legend.filter((cl, j) => bits & (1 << j)).map((cl) => cl.name);
				SS.showTip(V, '<b>' + SS.esc(tr.m.label) + '</b> overview cell<table><tr><th>requests</th><td>' +
					lv.cnt[k] + (lv.cnt[k] === 65535 ? '+' : '') + '</td></tr><tr><th>' + { class: 'classes', process: 'processes', dir: 'directories', file: 'files' }[m.color_by] + '</th><td>' +
					names.join(', ') + '</td></tr><tr><th>time</th><td>' +
					SS.fmtTime(m.x_lo + cx0 * (m.x_hi - m.x_lo) / lv.w, 6) + '</td></tr></table>' +
					'<small>zoom in for single requests</small>', cx, cy);
				return;
			}
		}
	}
	SS.hideTip(V);
};

SS.hoverSeries = function (V, c, p, x, cx, cy) {
	const s = SS.seriesFor(V, p.name).per[c], r = V.cols[c].canvases[p.name].plot;
	const t = SS.tOf(V, r, x), db = s.db;
	let j = -1;
	for (let k = 0; k < db.n; k++) if (t >= db.start[k] && t < db.start[k] + db.w[k]) j = k;
	if (j < 0) { SS.hideTip(V); return; }
	const lines = SS.SERIES[p.name];
	SS.showTip(V, '<b>' + SS.esc(V.traces[c].m.label) + '</b> ' + SS.esc(p.y_title) + '<table>' +
		'<tr><th>bin</th><td>' + SS.fmtTime(db.start[j], 6) + ' + ' + SS.fmtLatency(db.w[j]) + '</td></tr>' +
		lines.map((l, k) => '<tr><th>' + l.name + '</th><td>' + (l.gaps && !s.latCount[j] ? '\u2013' :
			s.vals[k][j].toFixed(3)) + '</td></tr>').join('') + '</table>', cx, cy);
};

SS.hoverModel = function (V, c, x, cx, cy) {
	const s = SS.modelFor(V).per[c], r = V.cols[c].canvases.model.plot, db = s.db;
	const t = SS.tOf(V, r, x), parts = V.meta.disk.parts;
	let j = -1;
	for (let k = Math.max(0, s.first); k <= s.last; k++) if (t >= db.start[k] && t < db.start[k] + db.w[k]) j = k;
	if (j < 0) { SS.hideTip(V); return; }
	const end = Math.min(V.view.t1, db.start[j] + db.w[j]);
	SS.showTip(V, '<b>' + SS.esc(V.traces[c].m.label) + '</b> modelled on ' + SS.esc(V.meta.disk.name) +
		'<table><tr><th>to</th><td>' + SS.fmtTime(end, 6) + '</td></tr>' +
		parts.map((p, k) => '<tr><th>' + p.name + '</th><td>' +
			(s.top[k][j] - (k ? s.top[k - 1][j] : 0)).toFixed(3) + ' s</td></tr>').join('') +
		'<tr><th>modelled</th><td>' + s.top[parts.length - 1][j].toFixed(3) + ' s</td></tr>' +
		'<tr><th>elapsed</th><td>' + ((end - V.view.t0) / 1e9).toFixed(3) + ' s</td></tr></table>', cx, cy);
};

SS.hoverDist = function (V, c, cv, x, cx, cy) {
	const bar = (cv.bars || []).find((b) => x >= b.x0 && x <= b.x1);
	if (!bar) { SS.hideTip(V); return; }
	SS.showTip(V, '<b>' + SS.esc(V.traces[c].m.label) + '</b><table><tr><th>distance</th><td>' +
		(bar.b === 0 ? '0' : SS.bucketLabel(bar.b) + ' to ' + SS.bucketLabel(bar.b + Math.sign(bar.b))) +
		'</td></tr><tr><th>moves</th><td>' + bar.c + ' (' + bar.pct.toFixed(2) + ' %)</td></tr></table>', cx, cy);
};

SS.key = function (V, e) {
	const v = V.view, mid = (v.t0 + v.t1) / 2, smid = (v.s0 + v.s1) / 2;
	switch (e.key) {
	case '+': case '=': SS.zoomAt(V, 0.5, mid, null); break;
	case '-': case '_': SS.zoomAt(V, 2, mid, null); break;
	case 'PageUp': SS.zoomAt(V, 0.5, null, smid); break;
	case 'PageDown': SS.zoomAt(V, 2, null, smid); break;
	case 'ArrowLeft': SS.setView(V, { t0: v.t0 - (v.t1 - v.t0) * 0.2, t1: v.t1 - (v.t1 - v.t0) * 0.2 }); break;
	case 'ArrowRight': SS.setView(V, { t0: v.t0 + (v.t1 - v.t0) * 0.2, t1: v.t1 + (v.t1 - v.t0) * 0.2 }); break;
	case 'ArrowUp': SS.setView(V, { s0: v.s0 + (v.s1 - v.s0) * 0.2, s1: v.s1 + (v.s1 - v.s0) * 0.2 }); break;
	case 'ArrowDown': SS.setView(V, { s0: v.s0 - (v.s1 - v.s0) * 0.2, s1: v.s1 - (v.s1 - v.s0) * 0.2 }); break;
	case '0': case 'Home': SS.setView(V, SS.home(V)); break;
	case ' ': SS.togglePlay(V); break;
	case 'Escape': if (V.play.on) SS.togglePlay(V); V.box = null; SS.redraw(V); break;
	default: return false;
	}
	return true;
};

// ---- play: a cursor sweeping the shown time, lighting requests as they are issued ---------

SS.togglePlay = function (V) {
	const P = V.play;
	if (P.on) {
		P.on = false;
		cancelAnimationFrame(P.raf);
		V.playBtn.textContent = '\u25b6 play';
		SS.redraw(V);
		return;
	}
	const v = V.view;
	P.on = true;
	P.tc = P.tc > v.t0 && P.tc < v.t1 ? P.tc : v.t0;
	V.playBtn.textContent = '\u275a\u275a pause';
	let last = performance.now();
	const step = (now) => {
		if (!P.on) return;
		const sweep = Number(V.speed.value);
		const rate = sweep > 0 ? (V.view.t1 - V.view.t0) / (sweep * 1000) : 1e6;   // ns per ms
		P.tc += (now - last) * rate;
		last = now;
		if (P.tc >= V.view.t1) {
			P.tc = V.view.t1;
			SS.render(V);
			SS.togglePlay(V);
			P.tc = V.view.t0;
			return;
		}
		SS.render(V);
		P.raf = requestAnimationFrame(step);
	};
	P.raf = requestAnimationFrame(step);
};

// ---- start ---------------------------------------------------------------------------------

SS.start = async function () {
	const t0 = performance.now();
	const api = window.seekscope = { ready: false, error: null };
	try {
		const meta = JSON.parse(document.getElementById('ss-meta').textContent);
		const V = { meta: meta, hiddenMask: 0, play: { on: false, tc: 0 }, cursor: null, hover: null,
			    box: null, frameMs: 0, dev: 0 };
		// the model panel only with a model to draw (plot --disk)
		V.panels = meta.panels.filter((p) => p.name !== 'model' || meta.disk).map((p) => Object.assign({}, p));
		V.classRGBA = new Uint32Array(8);
		meta.legend.forEach((c, i) => {
			const n = parseInt(c.color.slice(1), 16);
			V.classRGBA[i] = (0xff000000 | ((n & 0xff) << 16) | (n & 0xff00) | (n >> 16)) >>> 0;
		});
		const requests = meta.traces.reduce((a, m) => a + m.chunks.reduce((b, c) => b + (c.sec ? c.n : 0), 0), 0);
		V.traces = await Promise.all(meta.traces.map((m, i) => SS.loadTrace(meta, i, requests <= SS.DETAIL_AT_ONCE)));
		SS.loadHash(V);
		SS.buildPage(V);
		window.addEventListener('resize', () => SS.redraw(V));
		window.addEventListener('hashchange', () => {
			if (location.hash === V.ownHash) return;
			SS.loadHash(V);
			SS.layout(V);
			document.querySelectorAll('input[data-class]').forEach((cb) => {
				cb.checked = !(V.hiddenMask & (1 << Number(cb.dataset.class)));
			});
		});
		document.addEventListener('keydown', (e) => {
			if (e.target.tagName === 'SELECT' || e.target.tagName === 'INPUT' || e.ctrlKey || e.metaKey) return;
			if (SS.key(V, e)) e.preventDefault();
		});
		SS.render(V);
		SS.testApi(V, api);
		api.loadMs = performance.now();          // since the navigation started
		api.scriptMs = performance.now() - t0;
		api.ready = true;
		api.detailError = await SS.decodeRest(V);
		api.detailMs = performance.now();       // the request detail all decoded (or given up)
		api.detailReady = true;
	} catch (err) {
		api.error = String(err && err.stack || err);
		const app = document.getElementById('ss-app');
		SS.el('p', { class: 'ss-error', text: 'seekscope: this page could not be shown: ' + err }, app);
		throw err;
	}
};

// window.seekscope: what the browser test (and a curious user's console) can ask.
SS.testApi = function (V, api) {
	const cvOf = (c) => V.cols[c].canvases.io;
	Object.assign(api, {
		view: () => ({ t0_s: V.view.t0 / 1e9, t1_s: V.view.t1 / 1e9, y0: V.view.s0, y1: V.view.s1,
			       modes: V.cols.map((c) => (c.mode && c.mode.detail ? 'detail' : 'cells')),
			       requests: V.cols.map((c) => (c.mode ? c.mode.i1 - c.mode.i0 : 0)),
			       hidden: V.hiddenMask, panels: V.panels.filter((p) => p.shown).map((p) => p.name),
			       dev: V.dev, devices: V.meta.slots.length }),
		setDevice: (k) => { SS.setDevice(V, k); SS.render(V); },
		setView: (o) => { SS.setView(V, { t0: o.t0_s * 1e9, t1: o.t1_s * 1e9, s0: o.y0, s1: o.y1 }); SS.render(V); },
		zoom: (f, atS) => { SS.zoomAt(V, f, atS === undefined ? (V.view.t0 + V.view.t1) / 2 : atS * 1e9, null); SS.render(V); },
		pan: (frac) => { const d = (V.view.t1 - V.view.t0) * frac; SS.setView(V, { t0: V.view.t0 + d, t1: V.view.t1 + d }); SS.render(V); },
		reset: () => { SS.setView(V, SS.home(V)); SS.render(V); },
		render: () => { const t = performance.now(); SS.render(V); return performance.now() - t; },
		count: (c) => V.traces[c].d.done,
		request: (c, i) => (i >= 0 && i < V.traces[c].d.done ? SS.details(V, c, i) : null),
		// client coordinates of a request's cell in column c's io panel
		pointOf: (c, i) => {
			if (!(i >= 0 && i < V.traces[c].d.done)) return null;
			const cv = cvOf(c), b = cv.getBoundingClientRect(), r = cv.plot, d = V.traces[c].d;
			const y0 = SS.yOf(V, r, d.sector[i]), y1 = SS.yOf(V, r, d.sector[i] + d.nr[i]);
			return { x: b.left + SS.xOf(V, r, d.ts[i]) + 1, y: b.top + (Math.max(y1, r.y) + Math.min(y0, r.y + r.h)) / 2 };
		},
		requestAt: (c, x, y) => {
			const b = cvOf(c).getBoundingClientRect(), i = SS.nearest(V, c, x - b.left, y - b.top);
			return i >= 0 ? SS.details(V, c, i) : null;
		},
		hovered: () => V.hovered || null,
		tooltip: () => (V.tip.style.display === 'block' ? V.tip.textContent : null),
		play: () => { if (!V.play.on) SS.togglePlay(V); },
		pause: () => { if (V.play.on) SS.togglePlay(V); },
		playing: () => ({ on: V.play.on, t_s: V.play.tc / 1e9 }),
		frameMs: () => V.frameMs,
		// a series panel's value scale at this view: {lo, hi, log}
		scale: (name) => { const s = SS.seriesFor(V, name); return { lo: s.lo || 0, hi: s.hi, log: !!s.log }; },
		// the model panel's totals per column at this view (plot --disk), null without a model
		model: () => (V.meta.disk ? SS.modelFor(V).per.map((p) => p.total) : null),
	});
};

SS.start();
