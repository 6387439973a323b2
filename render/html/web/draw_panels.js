// SPDX-License-Identifier: GPL-2.0-or-later
// seekscope HTML viewer, part 4 of 5: the panels other than io, drawn with part 3's helpers
// (draw.js) — the series panels (seeks/s, throughput, IOPS, latency with its p99 and slowest-bin
// marks, queue depth) over the shared time range, the seek distance histogram, and the disk
// model's stacked busy time (plot --disk).

// Series panels: which metrics, how they look (panel_series.c's descriptors).
SS.SERIES = {
	seeks: [{ m: 'seeks_per_s', name: 'seeks/s', color: '#000000', width: 1.4, fill: true }],
	tput: [{ m: 'write_mb_s', name: 'write', color: '#0072B2', width: 1.8 },
	       { m: 'read_mb_s', name: 'read', color: '#E69F00', width: 1.8, dash: true }],
	iops: [{ m: 'write_iops', name: 'write', color: '#0072B2', width: 1.8 },
	       { m: 'read_iops', name: 'read', color: '#E69F00', width: 1.8, dash: true }],
	lat: [{ m: 'lat_max_ms', name: 'max', color: '#E69F00', width: 1.0, dash: true, gaps: true },
	      { m: 'lat_mean_ms', name: 'mean', color: '#0072B2', width: 1.8, gaps: true }],
	qd: [{ m: 'queue_depth', name: 'mean in flight', color: '#009E73', width: 1.4, fill: true }],
};

// Series of one panel for every column at this view; the shared top of the scale.
SS.seriesFor = function (V, name) {
	const lines = SS.SERIES[name], log = !!(V.panels.find((p) => p.name === name) || {}).log_y;
	let hi = 0, lo = Infinity;
	const per = V.cols.map((col) => {
		const tr = V.traces[col.index], cv = col.canvases[name];
		const w = Math.max(50, cv.clientWidth - SS.MARGIN.l - SS.MARGIN.r);
		const db = SS.displayBins(tr, V.meta, V.view.t0, V.view.t1, w);
		const vals = lines.map((l) => SS.metricSeries(db, V.meta, l.m, V.meta.rolling));
		const latCount = db.sum[V.meta.bin_fields.indexOf('lat_count')];
		for (let j = 0; j < db.n; j++) {
			const mid = db.start[j] + db.w[j] / 2;
			if (mid < V.view.t0 || mid > V.view.t1) continue;
			for (const v of vals) {
				hi = Math.max(hi, v[j]);
				if (v[j] > 0) lo = Math.min(lo, v[j]);
			}
		}
		if (log && tr.m.total.lat_p99_ns > 0) {      // the p99 line stays in view
			hi = Math.max(hi, tr.m.total.lat_p99_ns / 1e6);
			lo = Math.min(lo, tr.m.total.lat_p99_ns / 1e6);
		}
		return { db: db, vals: vals, latCount: latCount };
	});
	if (!log) return { per: per, hi: SS.niceTop(hi) };
	// whole decades around what is shown: a slow outlier and the fast bulk both readable
	if (!(lo < Infinity && hi > 0)) { lo = 0.1; hi = 1; }
	lo = Math.pow(10, Math.floor(Math.log10(lo)));
	hi = Math.pow(10, Math.ceil(Math.log10(hi * 1.0001)));
	return { per: per, lo: lo, hi: Math.max(hi, lo * 10), log: true };
};

// A time panel's frame: background, lost-event periods, time and value axes (scale S: SS.yMap),
// phases; then clipped to the plot area (the caller restores).
SS.beginTimePanel = function (V, tr, cv, s, panel) {
	const ctx = SS.prepCanvas(cv), r = cv.plot;
	ctx.fillStyle = SS.COL.plot;
	ctx.fillRect(r.x, r.y, r.w, r.h);
	SS.drawLost(V, ctx, r, tr);
	SS.drawTimeAxis(V, ctx, r, false);
	if (s.log) SS.drawLogAxis(ctx, r, s, panel.y_title);
	else SS.drawValueAxis(ctx, r, 0, s.hi, { div: 1 }, panel.y_title);
	SS.drawPhases(V, ctx, r, tr, cv, false);
	ctx.save();
	ctx.beginPath();
	ctx.rect(r.x, r.y, r.w, r.h);
	ctx.clip();
	return ctx;
};

// The top of a value scale holding HI: a little headroom, up to a whole tick.
SS.niceTop = function (hi) {
	hi = hi > 0 ? hi * 1.05 : 1;
	const t = SS.ticks(0, hi, 6);
	if (t.count && SS.tickValue(t, t.count - 1) < hi) hi = SS.tickValue(t, t.count - 1) + t.step;
	return hi;
};

SS.drawSeries = function (V, col, tr, cv, name, s, panel) {
	const ctx = SS.beginTimePanel(V, tr, cv, s, panel), r = cv.plot, lines = SS.SERIES[name];
	const { db, vals, latCount } = s.per[col.index];
	const Y = SS.yMap(s, r);
	lines.forEach((l, k) => {
		const v = vals[k], X = (j) => SS.xOf(V, r, db.start[j] + db.w[j] / 2);
		if (!db.n) return;
		if (l.fill && V.view.t1 - V.view.t0 >= 4 * db.width) {
			ctx.beginPath();
			ctx.moveTo(X(0), r.y + r.h);
			for (let j = 0; j < db.n; j++) ctx.lineTo(X(j), Y(v[j]));
			ctx.lineTo(X(db.n - 1), r.y + r.h);
			ctx.closePath();
			ctx.globalAlpha = 0.18;
			ctx.fillStyle = l.color;
			ctx.fill();
			ctx.globalAlpha = 1;
		}
		ctx.beginPath();
		let pen = false;
		// zoomed to a few bins: each bin as a step over its time, not a point at its middle
		const steps = V.view.t1 - V.view.t0 < 4 * db.width;
		for (let j = 0; j < db.n && steps; j++) {
			if (l.gaps && !latCount[j]) continue;
			ctx.moveTo(SS.xOf(V, r, db.start[j]), Y(v[j]));
			ctx.lineTo(SS.xOf(V, r, db.start[j] + db.w[j]), Y(v[j]));
		}
		for (let j = 0; j < db.n && !steps; j++) {
			if (l.gaps && !latCount[j]) { pen = false; continue; }
			if (pen) ctx.lineTo(X(j), Y(v[j]));
			else ctx.moveTo(X(j), Y(v[j]));
			if (!pen && l.gaps && (j + 1 >= db.n || !latCount[j + 1])) ctx.lineTo(X(j) + 1.5, Y(v[j]));
			pen = true;
		}
		ctx.strokeStyle = l.color;
		ctx.lineWidth = l.width;
		ctx.setLineDash(l.dash ? [6, 3] : []);
		ctx.stroke();
		ctx.setLineDash([]);
	});
	if (name === 'lat') SS.latMarks(V, ctx, r, tr, s, db, latCount);
	ctx.restore();
	SS.drawCursor(V, ctx, r, V.play.on ? V.play.tc : V.cursor);
	if (V.box && V.box.col === col.index && V.box.panel === name) SS.drawBox(ctx, V.box);
	SS.drawBorder(ctx, r);
};

// Over the latency lines (panel_series.c's lat_marks): the trace's p99 as a dotted reference,
// and the slowest bin in view marked, with its value when above 2 x p99.  The p99 label goes
// above its line at the left end, or below it where the panel's top would cut it, or to the
// right end where the value's label is in the way.
SS.latMarks = function (V, ctx, r, tr, s, db, latCount) {
	const Y = SS.yMap(s, r), p99 = tr.m.total.lat_p99_ns / 1e6, F = V.meta.bin_fields;
	const maxNs = db.sum[F.indexOf('lat_max_ns')];
	if (!tr.m.total.lat_count) return;
	ctx.font = SS.font(11);
	let y99 = NaN, value = null;
	if (p99 > 0) {
		y99 = Math.round(Y(p99)) + 0.5;
		ctx.strokeStyle = SS.COL.axis;
		ctx.setLineDash([1.5, 2.5]);
		ctx.beginPath();
		ctx.moveTo(r.x, y99);
		ctx.lineTo(r.x + r.w, y99);
		ctx.stroke();
		ctx.setLineDash([]);
	}
	let best = -1;
	for (let j = 0; j < db.n; j++) {
		const mid = db.start[j] + db.w[j] / 2;
		if (mid < V.view.t0 || mid > V.view.t1 || !latCount[j]) continue;
		if (best < 0 || maxNs[j] > maxNs[best]) best = j;
	}
	if (best >= 0) {
		const ms = maxNs[best] / 1e6, x = SS.xOf(V, r, db.start[best] + db.w[best] / 2);
		const y = Y(ms);
		ctx.fillStyle = '#E69F00';
		ctx.beginPath();
		ctx.arc(x, y, 3, 0, 2 * Math.PI);
		ctx.fill();
		if (ms >= 2 * p99) {
			const text = +ms.toPrecision(3) + ' ms';
			ctx.font = SS.font(11, true);
			const w = ctx.measureText(text).width;
			const lx = x + 5 + w > r.x + r.w - 2 ? x - 5 - w : x + 5;
			const ly = Math.max(r.y + 7, y);
			ctx.textAlign = 'left';
			ctx.textBaseline = 'middle';
			ctx.fillStyle = SS.COL.text;
			ctx.fillText(text, lx, ly);
			value = { x: lx, y: ly - 7, w: w, h: 14 };
		}
	}
	if (!(p99 > 0)) return;
	ctx.font = SS.font(11);
	const label = 'p99 ' + +p99.toPrecision(3) + ' ms', pw = ctx.measureText(label).width;
	const above = y99 - 1 - 13 >= r.y;
	const top = above ? y99 - 1 - 13 : y99 + 1;
	if (top + 13 > r.y + r.h) return;           // no room either side of the line
	const meets = (bx) => value && bx < value.x + value.w + 3 && value.x < bx + pw + 3 &&
		top < value.y + value.h + 2 && value.y < top + 13 + 2;
	let lx = r.x + 4;
	if (meets(lx)) lx = r.x + r.w - 4 - pw;
	if (meets(lx) || lx < r.x + 2) return;      // no free place: the table has it
	ctx.textAlign = 'left';
	ctx.textBaseline = 'top';
	ctx.fillStyle = SS.COL.text;
	ctx.fillText(label, lx, top);
};

// Seek distance shares over signed log2 buckets (panel_dist.c), bars in black beyond the
// threshold, grey within it.
SS.distExtent = function (V) {
	let hi = 0, mb = 0;
	const thr = SS.bucketOf(V.meta.seek_threshold);
	for (const tr of V.traces) {
		const d = tr.m.dist;
		let m = thr + 2;
		for (let b = d.pos.length - 1; b > m; b--)
			if (d.pos[b] || d.neg[b]) { m = b; break; }
		mb = Math.max(mb, m);
		if (d.count)
			for (let b = 0; b < d.pos.length; b++)
				hi = Math.max(hi, 100 * d.pos[b] / d.count, 100 * d.neg[b] / d.count);
	}
	hi = hi > 0 ? hi * 1.05 : 1;
	return { hi: hi, mb: mb, thr: thr };
};
SS.bucketOf = function (d) {
	d = Math.abs(d);
	return d === 0 ? 0 : Math.floor(Math.log2(d)) + 1;
};
SS.bucketLabel = function (b) {
	const sfx = 'KMGTPE';
	let bytes = 512 * Math.pow(2, Math.abs(b) - 1), k = -1;
	while (bytes >= 1024 && k < 5) { bytes /= 1024; k++; }
	return (b < 0 ? '-' : '') + bytes.toFixed(0) + (k >= 0 ? sfx[k] : 'B');
};

SS.drawDist = function (V, col, tr, cv, e, panel) {
	const ctx = SS.prepCanvas(cv), r = cv.plot, d = tr.m.dist;
	const X = (b) => r.x + (b + e.mb + 0.7) / (2 * e.mb + 1.4) * r.w;
	ctx.fillStyle = SS.COL.plot;
	ctx.fillRect(r.x, r.y, r.w, r.h);
	SS.drawValueAxis(ctx, r, 0, e.hi, { div: 1 }, panel.y_title);
	ctx.font = SS.font(11);
	ctx.textAlign = 'center';
	ctx.textBaseline = 'top';
	// every fourth bucket's bound, each 8 px clear of the one before and at most 2 px left
	// and 4 px right of the frame (panel_dist.c)
	let right = -Infinity;
	for (let b = -e.mb; b <= e.mb; b++) {
		if (b !== 0 && (Math.abs(b) - 4) % 4) continue;
		const t = b === 0 ? '0' : SS.bucketLabel(b), w = ctx.measureText(t).width, x = X(b);
		if (x - w / 2 < r.x - 2 || x + w / 2 > r.x + r.w + 4 || x - w / 2 < right + 8) continue;
		right = x + w / 2;
		ctx.fillStyle = SS.COL.text;
		ctx.fillText(t, x, r.y + r.h + 4);
	}
	const bw = r.w / (2 * e.mb + 1.4) * 0.8;
	cv.bars = [];
	if (d.count) {
		for (let b = -e.mb; b <= e.mb; b++) {
			const c = b < 0 ? d.neg[-b] : d.pos[b];
			if (!c) continue;
			const pct = 100 * c / d.count;
			const y0 = r.y + r.h, y1 = Math.min(y0 - 1.5, r.y + r.h - pct / e.hi * r.h);
			ctx.fillStyle = Math.abs(b) > e.thr ? '#000000' : '#9e9e9e';
			ctx.fillRect(X(b) - bw / 2, y1, bw, y0 - y1);
			cv.bars.push({ x0: X(b) - bw / 2, x1: X(b) + bw / 2, top: y1, b: b, c: c, pct: pct });
		}
	} else {
		SS.drawNote(ctx, r, 'no head movement recorded');
	}
	ctx.strokeStyle = V.meta.flush_color;
	ctx.setLineDash([3, 3]);
	for (const sgn of [-1, 1]) {
		const x = Math.round(X(sgn * (e.thr + 0.5))) + 0.5;
		ctx.beginPath();
		ctx.moveTo(x, r.y);
		ctx.lineTo(x, r.y + r.h);
		ctx.stroke();
	}
	ctx.setLineDash([]);
	SS.distDirections(ctx, r, cv);
	SS.drawBorder(ctx, r);
};

// "<- backward" and "forward ->" in the top corners, or as near them as they can be without
// covering a bar's top; the arrows alone where the words do not fit; nothing where not even
// those do (the ticks' signs still say the direction): panel_dist.c's draw_directions.  What
// is drawn goes into cv.words for the browser test.
SS.distDirections = function (ctx, r, cv) {
	const h = 14, y = r.y + 4, mid = r.x + r.w / 2;
	// where a label W wide can start, from X in direction DIR past every bar reaching above
	// the label's bottom, within [LO, HI]; null if nowhere
	const free = (w, x, dir, lo, hi) => {
		for (let moved = true; moved && x >= lo && x <= hi;) {
			moved = false;
			for (const b of cv.bars) {
				if (b.top > y + h + 1 || b.x1 < x - 4 || b.x0 > x + w + 4) continue;
				x = dir > 0 ? b.x1 + 5 : b.x0 - 5 - w;
				moved = true;
				break;
			}
		}
		return x >= lo && x <= hi ? x : null;
	};
	cv.words = [];
	ctx.fillStyle = SS.COL.text;
	ctx.textBaseline = 'top';
	ctx.textAlign = 'left';
	for (const [l, rt] of [['\u2190 backward', 'forward \u2192'], ['\u2190', '\u2192']]) {
		const wl = ctx.measureText(l).width, wr = ctx.measureText(rt).width;
		if (6 + wl + 12 + wr + 6 > r.w || y + h > r.y + r.h) continue;
		const xl = free(wl, r.x + 6, 1, r.x + 6, mid - 6 - wl);
		const xr = free(wr, r.x + r.w - 6 - wr, -1, mid + 6, r.x + r.w - 6 - wr);
		if (xl === null || xr === null) continue;
		ctx.fillText(l, xl, y);
		ctx.fillText(rt, xr, y);
		cv.words = [{ text: l, x0: xl, x1: xl + wl, y0: y, y1: y + h },
			    { text: rt, x0: xr, x1: xr + wr, y0: y, y1: y + h }];
		return;
	}
};

// The model panel (plot --disk; panel_model.c): the time the modelled disk would have been
// busy serving the issued requests, accumulated from the left edge of the view and stacked by
// part (seek, rotation, transfer, overhead), with the elapsed time as a dashed diagonal: where
// the stack climbs above it the modelled disk could not have kept up.  The top at the right
// edge is `seekscope report --disk --x-range` of the view.
SS.MODEL_FIELDS = ['model_seek_s', 'model_rotation_s', 'model_transfer_s', 'model_overhead_s'];
SS.modelFor = function (V) {
	const F = V.meta.bin_fields, idx = SS.MODEL_FIELDS.map((f) => F.indexOf(f));
	let hi = 0;
	const per = V.cols.map((col) => {
		const tr = V.traces[col.index], cv = col.canvases.model;
		const w = Math.max(50, cv.clientWidth - SS.MARGIN.l - SS.MARGIN.r);
		const db = SS.displayBins(tr, V.meta, V.view.t0, V.view.t1, w);
		// top[k][j]: parts 0..k accumulated to the end of display bin j (bins in the view)
		const top = idx.map(() => new Float64Array(db.n)), cum = idx.map(() => 0);
		const inView = (j) => db.start[j] + db.w[j] > V.view.t0 && db.start[j] < V.view.t1;
		let first = -1, last = -1;
		for (let j = 0; j < db.n; j++) {
			if (inView(j)) {
				if (first < 0) first = j;
				last = j;
				idx.forEach((f, k) => { cum[k] += db.sum[f][j]; });
			}
			let below = 0;
			idx.forEach((f, k) => { below += cum[k]; top[k][j] = below; });
		}
		const total = last >= 0 ? top[idx.length - 1][last] : 0;
		hi = Math.max(hi, total);
		return { db: db, top: top, first: first, last: last, total: total };
	});
	return { per: per, hi: SS.niceTop(hi) };
};

SS.drawModel = function (V, col, tr, cv, s, panel) {
	const ctx = SS.beginTimePanel(V, tr, cv, s, panel), r = cv.plot, parts = V.meta.disk.parts;
	const { db, top, first, last, total } = s.per[col.index];
	const Y = (v) => r.y + r.h - v / s.hi * r.h, X = (j) => SS.xOf(V, r, db.start[j] + db.w[j]);
	const x0 = first >= 0 ? SS.xOf(V, r, Math.max(V.view.t0, db.start[first])) : r.x;
	if (first >= 0) {
		parts.forEach((p, k) => {
			ctx.beginPath();
			ctx.moveTo(x0, r.y + r.h);
			for (let j = first; j <= last; j++) ctx.lineTo(X(j), Y(top[k][j]));
			for (let j = last; j >= first; j--) ctx.lineTo(X(j), k ? Y(top[k - 1][j]) : r.y + r.h);
			ctx.closePath();
			ctx.globalAlpha = 0.75;
			ctx.fillStyle = p.color;
			ctx.fill();
			ctx.globalAlpha = 1;
		});
		// the total as a line, so that the top reads where the upper parts are thin
		ctx.beginPath();
		ctx.moveTo(x0, r.y + r.h);
		for (let j = first; j <= last; j++) ctx.lineTo(X(j), Y(top[parts.length - 1][j]));
		ctx.strokeStyle = SS.COL.text;
		ctx.lineWidth = 1.2;
		ctx.stroke();
	}
	// elapsed time from the left edge of the view
	ctx.beginPath();
	ctx.moveTo(r.x, r.y + r.h);
	ctx.lineTo(r.x + r.w, Y((V.view.t1 - V.view.t0) / 1e9));
	ctx.strokeStyle = SS.COL.axis;
	ctx.lineWidth = 1;
	ctx.setLineDash([5, 4]);
	ctx.stroke();
	ctx.setLineDash([]);
	ctx.restore();
	ctx.font = SS.font(11, true);
	ctx.textAlign = 'left';
	ctx.textBaseline = 'top';
	const label = total.toFixed(2) + ' s modelled';
	ctx.fillStyle = 'rgba(255,255,255,0.8)';
	ctx.fillRect(r.x + 6, r.y + 4, ctx.measureText(label).width + 6, 15);
	ctx.fillStyle = SS.COL.text;
	ctx.fillText(label, r.x + 9, r.y + 6);
	SS.drawCursor(V, ctx, r, V.play.on ? V.play.tc : V.cursor);
	if (V.box && V.box.col === col.index && V.box.panel === 'model') SS.drawBox(ctx, V.box);
	SS.drawBorder(ctx, r);
};
