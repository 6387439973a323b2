// SPDX-License-Identifier: GPL-2.0-or-later
// seekscope HTML viewer, part 2 of 5: the page's data.  The encoder (render/html/html_col.c)
// writes per trace one base64 blob of deflated sections — fine time bins, the io panel's cell
// pyramid, flush/FUA marks and the request detail in chunks — whose layout is documented in
// docs/html-viewer.md.  This part decodes them into typed arrays and computes what the panels
// draw: series from the bins (the figures of render/analysis/bins.c), cells, requests.

// Decode trace i of the metadata into an object the panels read; its request detail too if
// AT_ONCE, else only its first chunks' (SS.decodeRest does the rest).
SS.loadTrace = async function (meta, i, atOnce) {
	const m = meta.traces[i];
	const blob = SS.base64(document.getElementById('ss-data-' + i).textContent);
	const section = (s) => SS.inflate(blob.subarray(s[0], s[0] + s[1]));
	const tr = { m: m, index: i, colourByGroup: meta.color_by !== 'class' };

	// one section after the other: inflating them all at once was slower (1.2-1.5x), and each
	// buffer can go as soon as it is decoded
	tr.bins = new Float64Array(await section(m.bins.sec));
	// an io panel per device slot: its device (null: the trace names none, the panel shows
	// all of its I/O), that device's index in the detail's device column (-1: no request),
	// its zones and its cell pyramid
	tr.slots = [];
	for (const [k, secs] of m.cells.entries()) {
		const dev = m.slot_devs.length ? m.slot_devs[k] : null;
		const sl = { dev: dev, devIdx: dev === null ? null : m.devs.indexOf(dev),
			     zones: m.zones.filter((z) => dev === null || z.dev === dev),
			     levels: meta.levels.map(([w, h]) => ({ w: w, h: h })) };
		for (const [l, sec] of secs.entries()) {
			const buf = await section(sec);
			const lv = sl.levels[l], n = lv.w * lv.h;
			lv.mask = new Uint8Array(buf, 0, n);
			lv.cnt = new Uint16Array(buf.slice(n, n + 2 * n));
		}
		tr.slots.push(sl);
	}
	{
		const buf = await section(m.marks.sec), n = m.marks.n;
		tr.markTs = new Float64Array(buf, 0, n);
		tr.markKind = new Uint8Array(buf, 8 * n, n);
		tr.markDev = new Uint8Array(buf, 9 * n, n);
	}
	// the request detail: a big page decodes it after its first picture (SS.decodeRest),
	// which needs none of it — the io panel draws cells until a view holds few requests
	tr.section = section;
	SS.detailInit(tr);
	if (atOnce)
		while (tr.pending.length) await SS.decodeNext(tr);
	return tr;
};

// The request detail's columns (docs/html-viewer.md: detail chunk).
SS.DETAIL_COLUMNS = 11;
// A page of up to this many requests (all traces') decodes them before its first picture (a
// few tens of ms).
SS.DETAIL_AT_ONCE = 262144;

// The request detail: kept chunks concatenated in time order, in arrays made for all of them
// and filled chunk by chunk (d.done: how many so far); dropped chunks become gaps.
SS.detailInit = function (tr) {
	let n = 0;
	tr.gaps = [];
	tr.pending = [];             // kept chunks not decoded yet, in time order
	tr.m.chunks.forEach((c, k) => {
		if (c.sec) { n += c.n; tr.pending.push(k); }
		else if (k && !tr.m.chunks[k - 1].sec && tr.gaps.length) tr.gaps[tr.gaps.length - 1][1] = c.t_last;
		else tr.gaps.push([c.t_first, c.t_last]);
	});
	const d = {
		n: n, done: 0, ts: new Float64Array(n), sector: new Float64Array(n), nr: new Uint32Array(n),
		flags: new Uint16Array(n), cls: new Uint8Array(n), lat: new Float64Array(n),
		dev: new Uint8Array(n), zone: new Int32Array(n), proc: new Uint32Array(n),
		file: new Uint32Array(n), group: new Uint8Array(n),
	};
	// the colour each request is drawn in: its class, or its group (--color-by)
	d.colour = tr.colourByGroup ? d.group : d.cls;
	tr.d = d;
	tr.tmp = new Float64Array(65536);
	SS.pendingLeft(tr, tr.pending);
};

// What is left to decode: PENDING (chunk indices); requests from tr.pendingFrom on are not
// decoded yet.  With nothing left, the page's data and the column buffer can go.
SS.pendingLeft = function (tr, pending) {
	tr.pending = pending;
	tr.pendingFrom = pending.length ? tr.m.chunks[pending[0]].t_first : Infinity;
	if (!pending.length)
		tr.section = tr.tmp = null;
};

// Inflate and decode the next pending chunk into tr.d.
SS.decodeNext = async function (tr) {
	const c = tr.m.chunks[tr.pending[0]];
	const buf = await tr.section(c.sec);
	SS.decodeChunk(tr, buf, c.n);
	SS.pendingLeft(tr, tr.pending.slice(1));
};

SS.decodeChunk = function (tr, buf, want) {
	const d = tr.d, at = d.done;
	const bytes = new Uint8Array(buf), dv = new DataView(buf);
	const cn = dv.getUint32(0, true);
	let pos = 4 + 4 * SS.DETAIL_COLUMNS;
	if (cn !== want)
		throw new Error('a detail chunk holds ' + cn + ' requests where the page says ' + want);
	const lens = [];
	for (let c = 0; c < SS.DETAIL_COLUMNS; c++) lens.push(dv.getUint32(4 + 4 * c, true));
	const col = (c, fn) => {
		const t = cn <= tr.tmp.length ? tr.tmp : new Float64Array(cn);
		SS.varints(bytes, pos, cn, t);
		pos += lens[c];
		fn(t);
	};
	// columns of integers into their arrays, through tmp: SS.varints writing into one kind of
	// array only stays fast (into each column's own it took about three times as long)
	const into = (c, arr) => col(c, (t) => arr.set(t.subarray(0, cn), at));
	col(0, (t) => { let s = 0; for (let i = 0; i < cn; i++) { s += t[i]; d.ts[at + i] = s; } });
	into(1, d.sector);   // zigzag deltas; see below
	into(2, d.nr);
	into(3, d.flags);
	into(4, d.cls);
	col(5, (t) => { for (let i = 0; i < cn; i++) d.lat[at + i] = t[i] - 1; });
	into(6, d.dev);
	col(7, (t) => { for (let i = 0; i < cn; i++) d.zone[at + i] = t[i] - 1; });
	into(8, d.proc);   // process index * 2 + submitter
	into(9, d.file);   // (file index + 1) * 4 + part
	into(10, d.group); // --color-by: the group's colour slot
	// sectors are stored from where the previous request ended, zigzag-signed
	let end = 0;
	for (let i = at; i < at + cn; i++) {
		const z = d.sector[i];
		const delta = z % 2 ? -(z + 1) / 2 : z / 2;
		d.sector[i] = end + delta;
		end = d.sector[i] + d.nr[i];
	}
	d.done = at + cn;
};

// The rest of every trace's detail, a chunk at a time between the page's other tasks; a view
// that comes to hold only decoded requests is drawn again (with them, when few enough).  A
// chunk that cannot be decoded leaves its trace's detail there on (cells are drawn, the notes
// say why) and the page working; returns what went wrong, or null.
SS.decodeRest = async function (V) {
	const errors = [];
	for (const tr of V.traces) {
		const gap = () => SS.hasGap(tr, V.view.t0, V.view.t1 + 1e-3);
		try {
			while (tr.pending.length) {
				const before = gap();
				await SS.decodeNext(tr);
				if (before && !gap()) SS.render(V);
				await SS.yieldTask();
			}
		} catch (err) {
			tr.detailError = 'the request detail from ' + (tr.pendingFrom / 1e9).toFixed(3) +
				' s on could not be read (' + (err && err.message || err) + '); there the io panel shows cells only';
			tr.pending = [];                // pendingFrom stays: cells from there on
			tr.section = tr.tmp = null;
			errors.push(tr.m.label + ': ' + tr.detailError);
			console.error('seekscope: ' + errors[errors.length - 1]);
			SS.notes(V);
		}
	}
	return errors.length ? errors.join('\n') : null;
};

// Let the page's other tasks run: a message to itself (a timer would wait a second in a tab
// in the background).
SS.yieldTask = function () {
	return new Promise((resolve) => {
		const ch = new MessageChannel();
		ch.port1.onmessage = () => resolve();
		ch.port2.postMessage(0);
	});
};

// Is any of [t0, t1] without request detail (left out of the page, or not decoded yet)?
SS.hasGap = function (tr, t0, t1) {
	return t1 >= tr.pendingFrom || tr.gaps.some(([a, b]) => a <= t1 && b >= t0);
};

// Fine bin f field of bin i.
SS.binField = function (tr, meta, f, i) {
	return tr.bins[f * tr.m.bins.n + i];
};

// What a series panel needs for the view: display bins of the static plot's width rule (a
// 1-2-5 width, at least the fine width, about one per 4 pixels) made of whole fine bins, and
// each metric's value per display bin exactly as render/analysis/bins.c computes it.
SS.displayBins = function (tr, meta, t0, t1, plotW) {
	// a margin of whole bins either side so that --rolling averages as the static plot does
	const margin = 1 + (meta.rolling || 0);
	const B = tr.m.bins, F = meta.bin_fields;
	const fw = B.width;
	const dw = Math.max(fw, SS.chooseWidth(t1 - t0, Math.max(8, Math.floor(plotW / 4))));
	const k = Math.round(dw / fw);
	const j0 = Math.max(0, Math.floor((t0 - B.start) / dw) - margin);
	const nAll = Math.ceil(B.n / k);
	const j1 = Math.min(nAll, Math.ceil((t1 - B.start) / dw) + margin);
	const nf = F.length, n = Math.max(0, j1 - j0);
	const out = { width: dw, start: [], w: [], sum: [] };
	for (let f = 0; f < nf; f++) out.sum.push(new Float64Array(n));
	const LATMAX = F.indexOf('lat_max_ns');
	for (let j = 0; j < n; j++) {
		const a = (j0 + j) * k, b = Math.min(B.n, a + k);
		const s = B.start + a * fw;
		out.start.push(s);
		out.w.push(Math.min(B.end, s + dw) - s);
		for (let f = 0; f < nf; f++) {
			const col = tr.bins.subarray(f * B.n + a, f * B.n + b);
			let v = 0;
			if (f === LATMAX) for (const x of col) v = Math.max(v, x);
			else for (const x of col) v += x;
			out.sum[f][j] = v;
		}
	}
	out.n = n;
	return out;
};

// Metric values (bins.c ss_bins_value), by name.
SS.METRICS = {
	read_mb_s: (g, j) => g.read_bytes[j] / 1e6 / g.sec[j],
	write_mb_s: (g, j) => g.write_bytes[j] / 1e6 / g.sec[j],
	read_iops: (g, j) => g.reads[j] / g.sec[j],
	write_iops: (g, j) => g.writes[j] / g.sec[j],
	seeks_per_s: (g, j) => g.seeks[j] / g.sec[j],
	queue_depth: (g, j) => g.depth_ns[j] / (g.sec[j] * 1e9),
	lat_mean_ms: (g, j) => (g.lat_count[j] ? g.lat_sum_ns[j] / g.lat_count[j] / 1e6 : 0),
	lat_max_ms: (g, j) => g.lat_max_ns[j] / 1e6,
};
SS.metricSeries = function (db, meta, name, rolling) {
	const g = { sec: db.w.map((w) => w / 1e9) };
	meta.bin_fields.forEach((f, i) => { g[f] = db.sum[i]; });
	const raw = new Float64Array(db.n);
	for (let j = 0; j < db.n; j++) raw[j] = SS.METRICS[name](g, j);
	if (!(rolling > 1)) return raw;
	// centred moving average, shrinking at the edges (bins.c ss_series_rolling)
	const left = (rolling - 1) >> 1, right = rolling >> 1, out = new Float64Array(db.n);
	for (let i = 0; i < db.n; i++) {
		const lo = Math.max(0, i - left), hi = Math.min(db.n, i + right + 1);
		let s = 0;
		for (let j = lo; j < hi; j++) s += raw[j];
		out[i] = s / (hi - lo);
	}
	return out;
};
