// SPDX-License-Identifier: GPL-2.0-or-later
// seekscope HTML viewer, part 2 of 5: the page's data.  The encoder (render/html/html_col.c)
// writes per trace one base64 blob of deflated sections — fine time bins, the io panel's cell
// pyramid, flush/FUA marks and the request detail in chunks — whose layout is documented in
// docs/html-viewer.md.  This part decodes them into typed arrays and computes what the panels
// draw: series from the bins (the figures of render/analysis/bins.c), cells, requests.

// Decode trace i of the metadata into an object the panels read.
SS.loadTrace = async function (meta, i) {
	const m = meta.traces[i];
	const blob = SS.base64(document.getElementById('ss-data-' + i).textContent);
	const section = (s) => SS.inflate(blob.subarray(s[0], s[0] + s[1]));
	const tr = { m: m, index: i, colourByGroup: meta.color_by !== 'class' };

	const jobs = [];
	jobs.push(section(m.bins.sec).then((buf) => { tr.bins = new Float64Array(buf); }));
	// an io panel per device slot: its device (null: the trace names none, the panel shows
	// all of its I/O), that device's index in the detail's device column (-1: no request),
	// its zones and its cell pyramid
	tr.slots = m.cells.map((secs, k) => {
		const dev = m.slot_devs.length ? m.slot_devs[k] : null;
		const sl = { dev: dev, devIdx: dev === null ? null : m.devs.indexOf(dev),
			     zones: m.zones.filter((z) => dev === null || z.dev === dev),
			     levels: meta.levels.map(([w, h]) => ({ w: w, h: h })) };
		secs.forEach((sec, l) => jobs.push(section(sec).then((buf) => {
			const lv = sl.levels[l], n = lv.w * lv.h;
			lv.mask = new Uint8Array(buf, 0, n);
			lv.cnt = new Uint16Array(buf.slice(n, n + 2 * n));
		})));
		return sl;
	});
	jobs.push(section(m.marks.sec).then((buf) => {
		const n = m.marks.n;
		tr.markTs = new Float64Array(buf, 0, n);
		tr.markKind = new Uint8Array(buf, 8 * n, n);
		tr.markDev = new Uint8Array(buf, 9 * n, n);
	}));
	const chunks = m.chunks.map((c) => (c.sec ? section(c.sec) : Promise.resolve(null)));
	jobs.push(Promise.all(chunks).then((bufs) => SS.decodeDetail(tr, bufs)));
	await Promise.all(jobs);
	return tr;
};

// The request detail's columns (docs/html-viewer.md: detail chunk).
SS.DETAIL_COLUMNS = 11;

// The request detail: kept chunks concatenated in time order; dropped ones become gaps.
SS.decodeDetail = function (tr, bufs) {
	let n = 0;
	tr.gaps = [];
	tr.m.chunks.forEach((c, k) => {
		if (bufs[k]) n += c.n;
		else if (k && !bufs[k - 1] && tr.gaps.length) tr.gaps[tr.gaps.length - 1][1] = c.t_last;
		else tr.gaps.push([c.t_first, c.t_last]);
	});
	const d = {
		n: n, ts: new Float64Array(n), sector: new Float64Array(n), nr: new Uint32Array(n),
		flags: new Uint16Array(n), cls: new Uint8Array(n), lat: new Float64Array(n),
		dev: new Uint8Array(n), zone: new Int32Array(n), proc: new Uint32Array(n),
		file: new Uint32Array(n), group: new Uint8Array(n),
	};
	let at = 0;
	const tmp = new Float64Array(65536);
	bufs.forEach((buf) => {
		if (!buf) return;
		const bytes = new Uint8Array(buf), dv = new DataView(buf);
		const cn = dv.getUint32(0, true);
		let pos = 4 + 4 * SS.DETAIL_COLUMNS;
		const lens = [];
		for (let c = 0; c < SS.DETAIL_COLUMNS; c++) lens.push(dv.getUint32(4 + 4 * c, true));
		const col = (c, fn) => {
			const t = cn <= tmp.length ? tmp : new Float64Array(cn);
			SS.varints(bytes, pos, cn, t);
			pos += lens[c];
			fn(t);
		};
		// columns of integers straight into their arrays
		const into = (c, arr) => { SS.varints(bytes, pos, cn, arr.subarray(at, at + cn)); pos += lens[c]; };
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
		at += cn;
	});
	// the colour each request is drawn in: its class, or its group (--color-by)
	d.colour = tr.colourByGroup ? d.group : d.cls;
	tr.d = d;
};

// Is any of [t0, t1] without request detail?
SS.hasGap = function (tr, t0, t1) {
	return tr.gaps.some(([a, b]) => a <= t1 && b >= t0);
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
