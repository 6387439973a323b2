// SPDX-License-Identifier: GPL-2.0-or-later
// seekscope HTML viewer, part 3 of 5: drawing, the io panel and what every panel uses.  Every
// panel of every column is a <canvas>; the time panels of all columns share the view's time
// range (ns after each trace's t0), the io panels its offset range, so zoom and cursor are
// linked.  Here: canvas sizing, the view's coordinate maps, axes, phases, zone bands, marks,
// the cursor, box-zoom rectangle, notes and lost-event shading, and the io panel, which draws
// per 2-pixel cell like the static one (render/plot/panels/panel_io.c): from the request detail
// when the view holds few enough requests and all of their detail, else from the cell pyramid
// level that is at least as fine as the screen.  The other panels are part 4 (draw_panels.js).

SS.CELL = 2;                     // CSS pixels per io cell
SS.DETAIL_MAX = 400000;          // requests binned per frame before the pyramid takes over
SS.DETAIL_FINE_MAX = 4000000;    // ... or when the pyramid is coarser than the screen
SS.MARGIN = { l: 64, r: 66, t: 8, b: 20 };
SS.COL = {
	text: '#1a1a1a', axis: '#555555', grid: '#e4e4e4', bg: '#ffffff', plot: '#fcfcfc',
	agband: '#f1f1f1', logband: 'rgba(240,228,66,0.35)', itable: '#6a3d9a', phase: '#6a3d9a',
	warn: '#b03000', cursor: 'rgba(176,48,0,0.85)', hover: '#d55e00',
};

// Size the canvas's backing store to its box; returns the context scaled to CSS pixels.
SS.prepCanvas = function (cv) {
	const dpr = window.devicePixelRatio || 1;
	const w = Math.max(50, cv.clientWidth), h = Math.max(30, cv.clientHeight);
	if (cv.width !== Math.round(w * dpr) || cv.height !== Math.round(h * dpr)) {
		cv.width = Math.round(w * dpr);
		cv.height = Math.round(h * dpr);
	}
	const ctx = cv.getContext('2d');
	ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
	ctx.clearRect(0, 0, w, h);
	cv.plot = { x: SS.MARGIN.l, y: SS.MARGIN.t, w: w - SS.MARGIN.l - SS.MARGIN.r,
		    h: h - SS.MARGIN.t - SS.MARGIN.b };
	cv.hits = [];
	return ctx;
};

SS.xOf = (V, r, t) => r.x + (t - V.view.t0) / (V.view.t1 - V.view.t0) * r.w;
SS.tOf = (V, r, x) => V.view.t0 + (x - r.x) / r.w * (V.view.t1 - V.view.t0);
SS.yOf = (V, r, s) => r.y + r.h - (s - V.view.s0) / (V.view.s1 - V.view.s0) * r.h;
SS.sOf = (V, r, y) => V.view.s0 + (r.y + r.h - y) / r.h * (V.view.s1 - V.view.s0);

SS.font = (px, bold) => (bold ? 'bold ' : '') + px + 'px system-ui, sans-serif';

SS.drawTimeAxis = function (V, ctx, r, gridOnly) {
	const v = V.view, u = SS.unitTime(v.t1 - v.t0);
	const t = SS.ticks(v.t0 / u.div, v.t1 / u.div, Math.max(3, Math.floor(r.w / 90)));
	ctx.font = SS.font(11);
	ctx.textAlign = 'center';
	ctx.textBaseline = 'top';
	for (let i = 0; i < t.count; i++) {
		const val = SS.tickValue(t, i), x = Math.round(SS.xOf(V, r, val * u.div)) + 0.5;
		ctx.strokeStyle = SS.COL.grid;
		ctx.beginPath();
		ctx.moveTo(x, r.y);
		ctx.lineTo(x, r.y + r.h);
		ctx.stroke();
		if (!gridOnly) {
			ctx.fillStyle = SS.COL.text;
			ctx.fillText(SS.tickLabel(t, val) + (i === t.count - 1 ? ' ' + u.name : ''), x, r.y + r.h + 4);
		}
	}
	return u;
};

// A value scale: linear from 0 (or LO) to HI, or logarithmic over whole decades (log).
SS.yMap = (s, r) => (s.log
	? (v) => r.y + r.h - (v > 0 ? Math.max(0, Math.log10(v / s.lo) / Math.log10(s.hi / s.lo)) : 0) * r.h
	: (v) => r.y + r.h - (v - (s.lo || 0)) / (s.hi - (s.lo || 0)) * r.h);

// A value axis's title, turned, left of the plot.
SS.drawAxisTitle = function (ctx, r, title) {
	ctx.save();
	ctx.translate(12, r.y + r.h / 2);
	ctx.rotate(-Math.PI / 2);
	ctx.textAlign = 'center';
	ctx.fillStyle = SS.COL.axis;
	ctx.fillText(title, 0, 0);
	ctx.restore();
};

// A logarithmic value axis (axes.c's): a line and label per decade, and at 2 and 5 when a
// decade is tall enough for them.
SS.drawLogAxis = function (ctx, r, s, title) {
	const Y = SS.yMap(s, r), decades = Math.log10(s.hi / s.lo), perDecade = r.h / decades;
	const steps = perDecade >= 70 ? [1, 2, 5] : [1];
	ctx.font = SS.font(11);
	ctx.textAlign = 'right';
	ctx.textBaseline = 'middle';
	for (let e = Math.round(Math.log10(s.lo)); e <= Math.round(Math.log10(s.hi)); e++)
		for (const m of steps) {
			const val = m * Math.pow(10, e);
			if (val > s.hi * 1.0001) break;
			const y = Math.round(Y(val)) + 0.5;
			ctx.strokeStyle = SS.COL.grid;
			ctx.beginPath();
			ctx.moveTo(r.x, y);
			ctx.lineTo(r.x + r.w, y);
			ctx.stroke();
			ctx.fillStyle = m === 1 ? SS.COL.text : SS.COL.axis;
			ctx.fillText(+val.toPrecision(3) + '', r.x - 5, y);
		}
	SS.drawAxisTitle(ctx, r, title);
};

SS.drawValueAxis = function (ctx, r, lo, hi, unit, title) {
	const t = SS.ticks(lo / unit.div, hi / unit.div, Math.max(2, Math.min(12, Math.floor(r.h / 28))));
	ctx.font = SS.font(11);
	ctx.textAlign = 'right';
	ctx.textBaseline = 'middle';
	for (let i = 0; i < t.count; i++) {
		const val = SS.tickValue(t, i);
		const y = Math.round(r.y + r.h - (val * unit.div - lo) / (hi - lo) * r.h) + 0.5;
		ctx.strokeStyle = SS.COL.grid;
		ctx.beginPath();
		ctx.moveTo(r.x, y);
		ctx.lineTo(r.x + r.w, y);
		ctx.stroke();
		ctx.fillStyle = SS.COL.text;
		ctx.fillText(SS.tickLabel(t, val), r.x - 5, y);
	}
	SS.drawAxisTitle(ctx, r, title);
};

SS.drawBorder = function (ctx, r) {
	ctx.strokeStyle = SS.COL.axis;
	ctx.lineWidth = 1;
	ctx.strokeRect(r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1);
};

// Phases of a trace: [name, begin, end] (ns after t0; an unended phase runs to the end).
SS.phases = function (tr) {
	const out = [], mk = tr.m.markers;
	mk.forEach((p, i) => {
		if (p.kind !== 'begin') return;
		let end = tr.m.end_ns;
		for (let j = i + 1; j < mk.length; j++)
			if (mk[j].kind === 'end' && mk[j].name === p.name) { end = mk[j].ts; break; }
		out.push({ name: p.name, begin: p.ts, end: end });
	});
	return out;
};

SS.drawPhases = function (V, ctx, r, tr, cv, labels) {
	ctx.save();
	ctx.beginPath();
	ctx.rect(r.x, r.y, r.w, r.h);
	ctx.clip();
	ctx.strokeStyle = SS.COL.phase;
	const lanes = [], phases = SS.phases(tr);
	const vline = (t, dashed) => {
		const x = Math.round(SS.xOf(V, r, t)) + 0.5;
		if (x < r.x || x > r.x + r.w) return;
		ctx.setLineDash(dashed ? [4, 3] : []);
		ctx.beginPath();
		ctx.moveTo(x, r.y);
		ctx.lineTo(x, r.y + r.h);
		ctx.stroke();
	};
	// marks: instants the workload noted (record's start and end), dotted as in the PNG
	const marks = tr.m.markers.filter((k) => k.kind === 'mark');
	for (const p of phases) {
		vline(p.begin, false);
		if (p.end < tr.m.end_ns && !phases.some((q) => q.begin === p.end)) vline(p.end, true);
	}
	ctx.setLineDash([1.5, 2.5]);
	for (const k of marks) {
		const x = Math.round(SS.xOf(V, r, k.ts)) + 0.5;
		if (x < r.x || x > r.x + r.w) continue;
		ctx.beginPath();
		ctx.moveTo(x, r.y);
		ctx.lineTo(x, r.y + r.h);
		ctx.stroke();
	}
	ctx.setLineDash([]);
	if (!labels) {
		ctx.restore();
		return;
	}
	ctx.font = SS.font(11, true);
	// a label in the first of three lanes where it meets no other: its lane, -1 if none has room
	const place = (x0, w) => {
		let lane = 0;
		while (lanes[lane] !== undefined && lanes[lane].some(([a, b]) => x0 < b && a < x0 + w))
			lane++;
		if (lane > 2) return -1;
		(lanes[lane] = lanes[lane] || []).push([x0 - 4, x0 + w + 4]);
		return lane;
	};
	const label = (text, x0, lane) => {
		const w = ctx.measureText(text).width + 6, y = r.y + 28 + 15 * lane;
		ctx.fillStyle = 'rgba(255,255,255,0.85)';
		ctx.fillRect(x0, y - 11, w, 14);
		ctx.fillStyle = SS.COL.phase;
		ctx.textAlign = 'left';
		ctx.textBaseline = 'alphabetic';
		ctx.fillText(text, x0 + 3, y);
		return y;
	};
	for (const p of phases) {
		// the label sits at the phase's visible start and zooms to the phase when clicked
		const x0 = Math.max(r.x + 2, SS.xOf(V, r, p.begin) + 3);
		const x1 = Math.min(r.x + r.w, SS.xOf(V, r, p.end));
		if (x1 - x0 < 12) continue;
		const w = ctx.measureText(p.name).width + 6, lane = place(x0, w);
		if (lane < 0) continue;
		const y = label(p.name, x0, lane);
		cv.hits.push({ x: x0, y: y - 11, w: w, h: 14, kind: 'phase', phase: p,
			       title: 'phase ' + p.name + ': click to zoom to it' });
	}
	for (const k of marks) {
		// right of its line, or left of it near the right edge
		const x = SS.xOf(V, r, k.ts), w = ctx.measureText(k.name).width + 6;
		if (x < r.x || x > r.x + r.w) continue;
		const x0 = x + 3 + w > r.x + r.w - 2 ? x - 3 - w : x + 3, lane = place(x0, w);
		if (lane >= 0) label(k.name, x0, lane);
	}
	ctx.restore();
};

// The offsets the io panel shows at this view: zone bands and lines, then labels.
SS.drawZonesUnder = function (V, ctx, r, sl) {
	ctx.save();
	ctx.beginPath();
	ctx.rect(r.x, r.y, r.w, r.h);
	ctx.clip();
	for (const z of sl.zones) {
		const y0 = SS.yOf(V, r, z.start), y1 = SS.yOf(V, r, z.start + z.n);
		if (y0 < r.y || y1 > r.y + r.h) continue;
		if (z.kind === 'ag' && z.index & 1) {
			ctx.fillStyle = SS.COL.agband;
			ctx.fillRect(r.x, y1, r.w, y0 - y1);
		} else if (z.kind === 'log' || z.kind === 'journal') {
			const mid = (y0 + y1) / 2, h = Math.max(4, y0 - y1);
			ctx.fillStyle = SS.COL.logband;
			ctx.fillRect(r.x, mid - h / 2, r.w, h);
		}
	}
	for (const z of sl.zones) {
		if (z.kind === 'ag' || z.kind === 'group') {
			const y = Math.round(SS.yOf(V, r, z.start)) + 0.5;
			if (y < r.y || y > r.y + r.h) continue;
			ctx.strokeStyle = z.kind === 'ag' ? '#8a8a8a' : '#d0d0d0';
			ctx.setLineDash(z.kind === 'ag' ? [4, 3] : []);
			ctx.beginPath();
			ctx.moveTo(r.x, y);
			ctx.lineTo(r.x + r.w, y);
			ctx.stroke();
			ctx.setLineDash([]);
		} else if (z.kind === 'inode_table') {
			const y0 = SS.yOf(V, r, z.start), y1 = SS.yOf(V, r, z.start + z.n);
			if (y0 < r.y || y1 > r.y + r.h) continue;
			ctx.fillStyle = 'rgba(106,61,154,0.35)';
			ctx.fillRect(r.x, y1, r.w, Math.max(1, y0 - y1));
		}
	}
	ctx.restore();
};

SS.drawZoneLabels = function (V, ctx, r, sl, cv) {
	ctx.textAlign = 'left';
	ctx.textBaseline = 'middle';
	const isLog = (z) => z.kind === 'log' || z.kind === 'journal';
	// the log/journal first (it is what the eye looks for), then the rest bottom up; a label
	// too close to one already placed waits for a closer zoom
	const zs = sl.zones.filter((z) => z.kind !== 'inode_table')
		.map((z) => ({ z: z, y: (SS.yOf(V, r, z.start) + SS.yOf(V, r, z.start + z.n)) / 2 }))
		.filter((o) => o.y >= r.y && o.y <= r.y + r.h)
		.sort((a, b) => (isLog(b.z) - isLog(a.z)) || (b.y - a.y));
	const placed = [];
	for (const o of zs) {
		if (placed.some((y) => Math.abs(y - o.y) < 13)) continue;
		placed.push(o.y);
		ctx.fillStyle = isLog(o.z) ? SS.COL.text : SS.COL.axis;
		ctx.font = SS.font(11, isLog(o.z));
		const x = r.x + r.w + 5;
		ctx.fillText(o.z.label, x, o.y);
		const w = Math.min(SS.MARGIN.r - 6, ctx.measureText(o.z.label).width);
		cv.hits.push({ x: x, y: o.y - 7, w: w, h: 14, kind: 'zone', zone: o.z,
			       title: o.z.label + ': click to zoom to this zone' });
	}
};

// The io panel shown: the slot of the chosen device (V.dev) in trace TR, null when the trace
// has no such device; its offset range [y_lo, y_hi) is the slot's in every trace.
SS.slotOf = (V, tr) => tr.slots[V.dev] || null;
SS.slotRange = (V) => ({ y_lo: V.meta.slots[V.dev][0], y_hi: V.meta.slots[V.dev][1] });
// Is request i of TR on the shown device?
SS.onSlot = (sl, d, i) => sl.devIdx === null || d.dev[i] === sl.devIdx;

// Pick a pyramid level at least as fine as the screen grid (or the finest).
SS.pickLevel = function (V, sl, gw, gh) {
	const m = V.meta, v = V.view, y = SS.slotRange(V);
	for (let l = 0; l < sl.levels.length; l++) {
		const lv = sl.levels[l];
		if ((m.x_hi - m.x_lo) / lv.w <= (v.t1 - v.t0) / gw &&
		    (y.y_hi - y.y_lo) / lv.h <= (v.s1 - v.s0) / gh)
			return l;
	}
	return sl.levels.length - 1;
};

// The request range [i0, i1) issued within the view's time, and how the io panel draws it.
SS.ioMode = function (V, tr, sl, r) {
	const v = V.view, d = tr.d, m = V.meta, fine = sl.levels[sl.levels.length - 1], y = SS.slotRange(V);
	const i0 = SS.lowerBound(d.ts, v.t0, 0, d.done), i1 = SS.lowerBound(d.ts, v.t1 + 1e-3, 0, d.done);
	// zoomed past the finest cells (an AG's log, say): bin the requests even if many
	const coarse = (m.x_hi - m.x_lo) / fine.w > (v.t1 - v.t0) / (r.w / SS.CELL) ||
		       (y.y_hi - y.y_lo) / fine.h > (v.s1 - v.s0) / (r.h / SS.CELL);
	const detail = !SS.hasGap(tr, v.t0, v.t1 + 1e-3) &&
		       i1 - i0 <= (coarse ? SS.DETAIL_FINE_MAX : SS.DETAIL_MAX);
	return { i0: i0, i1: i1, detail: detail };
};

SS.drawRequests = function (V, ctx, r, tr, sl, mode) {
	const v = V.view, d = tr.d;
	const gw = Math.max(1, Math.ceil(r.w / SS.CELL)), gh = Math.max(1, Math.ceil(r.h / SS.CELL));
	const grid = new Uint8Array(gw * gh);
	const vis = 0xff & ~V.hiddenMask;
	const tEnd = V.play.on ? V.play.tc : Infinity;
	const spanT = v.t1 - v.t0, spanS = v.s1 - v.s0;
	let drawn = 0;
	if (mode.detail) {
		for (let i = mode.i0; i < mode.i1; i++) {
			const bit = 1 << d.colour[i];
			if (!(bit & vis) || d.ts[i] > tEnd || !SS.onSlot(sl, d, i)) continue;
			const a = d.sector[i], b = a + d.nr[i];
			if (b <= v.s0 || a >= v.s1) continue;
			let gx = Math.floor((d.ts[i] - v.t0) / spanT * gw);
			if (gx >= gw) gx = gw - 1;
			if (gx < 0) continue;
			let r1 = Math.floor((Math.min(b, v.s1) - 1e-9 - v.s0) / spanS * gh);
			let r0 = Math.floor((Math.max(a, v.s0) - v.s0) / spanS * gh);
			if (r1 >= gh) r1 = gh - 1;
			if (r0 > r1) r0 = r1;
			for (let row = r0; row <= r1; row++)
				grid[(gh - 1 - row) * gw + gx] |= bit;
			drawn++;
		}
	} else {
		const m = V.meta, lv = sl.levels[SS.pickLevel(V, sl, gw, gh)], y = SS.slotRange(V);
		const ct = (m.x_hi - m.x_lo) / lv.w, cs = (y.y_hi - y.y_lo) / lv.h;
		const c0 = Math.max(0, Math.floor((v.t0 - m.x_lo) / ct));
		const c1 = Math.min(lv.w - 1, Math.floor((Math.min(v.t1, tEnd) - m.x_lo) / ct));
		const q0 = Math.max(0, Math.floor((v.s0 - y.y_lo) / cs));
		const q1 = Math.min(lv.h - 1, Math.floor((v.s1 - y.y_lo) / cs));
		for (let q = q0; q <= q1; q++) {
			const sa = y.y_lo + q * cs;
			const ra = Math.max(0, Math.floor((sa - v.s0) / spanS * gh));
			const rb = Math.min(gh - 1, Math.ceil((sa + cs - v.s0) / spanS * gh) - 1);
			const base = q * lv.w;
			for (let c = c0; c <= c1; c++) {
				const bits = lv.mask[base + c] & vis;
				if (!bits) continue;
				const ta = m.x_lo + c * ct;
				const xa = Math.max(0, Math.floor((ta - v.t0) / spanT * gw));
				const xb = Math.min(gw - 1, Math.max(xa, Math.ceil((ta + ct - v.t0) / spanT * gw) - 1));
				for (let row = ra; row <= Math.max(ra, rb); row++)
					for (let x = xa; x <= xb; x++)
						grid[(gh - 1 - row) * gw + x] |= bits;
				drawn += lv.cnt[base + c];
			}
		}
	}
	// one pixel per cell, later classes win a shared cell (the static panel's rule)
	const img = new ImageData(gw, gh), px = new Uint32Array(img.data.buffer);
	const colours = V.classRGBA;
	for (let i = 0; i < grid.length; i++) {
		const g = grid[i];
		if (!g) continue;
		px[i] = colours[31 - Math.clz32(g)];
	}
	if (!V.scratch) V.scratch = document.createElement('canvas');
	const sc = V.scratch;
	sc.width = gw;
	sc.height = gh;
	sc.getContext('2d').putImageData(img, 0, 0);
	ctx.save();
	ctx.beginPath();
	ctx.rect(r.x, r.y, r.w, r.h);
	ctx.clip();
	ctx.imageSmoothingEnabled = false;
	ctx.drawImage(sc, r.x, r.y, gw * SS.CELL, gh * SS.CELL);
	ctx.restore();
	return drawn;
};

// Flush and FUA ticks along the top of the io panel, at their issue times.
SS.drawMarks = function (V, ctx, r, tr) {
	const v = V.view, n = tr.markTs.length, sl = SS.slotOf(V, tr);
	const i0 = SS.lowerBound(tr.markTs, v.t0), i1 = SS.lowerBound(tr.markTs, v.t1 + 1e-3, i0, n);
	const tEnd = V.play.on ? V.play.tc : Infinity;
	for (const [bit, colour, y] of [[1, V.meta.flush_color, r.y + 1], [2, V.meta.fua_color, r.y + 8]]) {
		ctx.fillStyle = colour;
		let lastX = -1;
		for (let i = i0; i < i1; i++) {
			if (!(tr.markKind[i] & bit) || tr.markTs[i] > tEnd ||
			    (sl && sl.devIdx !== null && tr.markDev[i] !== sl.devIdx)) continue;
			const x = Math.floor(SS.xOf(V, r, tr.markTs[i]));
			if (x === lastX) continue;
			lastX = x;
			ctx.fillRect(x, y, 2, 6);
		}
	}
};

// Outline request i (hover, or lit by the play cursor).
SS.outlineRequest = function (V, ctx, r, tr, i, colour, grow) {
	const d = tr.d;
	const x = SS.xOf(V, r, d.ts[i]);
	const y0 = SS.yOf(V, r, d.sector[i]), y1 = SS.yOf(V, r, d.sector[i] + d.nr[i]);
	const h = Math.max(SS.CELL, y0 - y1);
	ctx.strokeStyle = colour;
	ctx.lineWidth = 1.5;
	ctx.strokeRect(x - grow, Math.min(y1, y0 - SS.CELL) - grow, SS.CELL + 2 * grow, h + 2 * grow);
};

SS.drawCursor = function (V, ctx, r, t) {
	if (t === null || t === undefined) return;
	const x = Math.round(SS.xOf(V, r, t)) + 0.5;
	if (x < r.x || x > r.x + r.w) return;
	ctx.strokeStyle = SS.COL.cursor;
	ctx.lineWidth = 1;
	ctx.setLineDash([]);
	ctx.beginPath();
	ctx.moveTo(x, r.y);
	ctx.lineTo(x, r.y + r.h);
	ctx.stroke();
};

SS.drawIo = function (V, col, tr, cv) {
	const ctx = SS.prepCanvas(cv), r = cv.plot, v = V.view, sl = SS.slotOf(V, tr);
	ctx.fillStyle = SS.COL.plot;
	ctx.fillRect(r.x, r.y, r.w, r.h);
	SS.drawLost(V, ctx, r, tr);
	if (sl) SS.drawZonesUnder(V, ctx, r, sl);
	SS.drawTimeAxis(V, ctx, r, false);
	const yu = SS.unitOffset(V.meta.units, v.s1 - v.s0);
	SS.drawValueAxis(ctx, r, v.s0, v.s1, yu, 'device offset (' + yu.name + ')');
	const mode = sl ? SS.ioMode(V, tr, sl, r) : null;
	col.mode = mode;
	col.drawn = sl ? SS.drawRequests(V, ctx, r, tr, sl, mode) : 0;
	SS.drawMarks(V, ctx, r, tr);
	SS.drawPhases(V, ctx, r, tr, cv, true);
	if (sl) SS.drawZoneLabels(V, ctx, r, sl, cv);
	ctx.save();
	ctx.beginPath();
	ctx.rect(r.x, r.y, r.w, r.h);
	ctx.clip();
	if (V.play.on) {
		// light up what was issued in the last moments before the cursor
		const trail = (v.t1 - v.t0) * 0.012, d = tr.d;
		const a = SS.lowerBound(d.ts, V.play.tc - trail, 0, d.done), b = SS.lowerBound(d.ts, V.play.tc + 1e-3, 0, d.done);
		for (let i = a; i < b && i < a + 3000 && sl; i++)
			if (!((1 << d.colour[i]) & V.hiddenMask) && SS.onSlot(sl, d, i))
				SS.outlineRequest(V, ctx, r, tr, i, SS.COL.hover, 2);
	}
	if (V.hover && V.hover.col === col.index && V.hover.i >= 0)
		SS.outlineRequest(V, ctx, r, tr, V.hover.i, '#000000', 2.5);
	ctx.restore();
	SS.drawCursor(V, ctx, r, V.play.on ? V.play.tc : V.cursor);
	if (V.box && V.box.col === col.index && V.box.panel === 'io') SS.drawBox(ctx, V.box);
	if (!sl) SS.drawNote(ctx, r, 'this trace has no device ' + (V.dev + 1));
	else if (!tr.m.total.ios) SS.drawNote(ctx, r, tr.m.events ? 'no I/O: ' + tr.m.events +
		' event(s), no completed request' : 'no I/O: the trace has no events');
	SS.drawBorder(ctx, r);
};

SS.drawBox = function (ctx, b) {
	ctx.fillStyle = 'rgba(0,114,178,0.12)';
	ctx.strokeStyle = '#0072B2';
	ctx.setLineDash([4, 2]);
	ctx.fillRect(b.x0, b.y0, b.x1 - b.x0, b.y1 - b.y0);
	ctx.strokeRect(b.x0 + 0.5, b.y0 + 0.5, b.x1 - b.x0, b.y1 - b.y0);
	ctx.setLineDash([]);
};

SS.drawNote = function (ctx, r, text) {
	ctx.font = SS.font(16, true);
	const w = ctx.measureText(text).width;
	const x = r.x + r.w / 2, y = r.y + r.h / 2;
	ctx.fillStyle = 'rgba(255,255,255,0.9)';
	ctx.fillRect(x - w / 2 - 12, y - 16, w + 24, 32);
	ctx.strokeStyle = SS.COL.warn;
	ctx.strokeRect(x - w / 2 - 12, y - 16, w + 24, 32);
	ctx.fillStyle = SS.COL.warn;
	ctx.textAlign = 'center';
	ctx.textBaseline = 'middle';
	ctx.fillText(text, x, y);
};

// Lost-event periods shaded across a time panel (panel.c's ss_lost_draw): at least 3 px wide,
// so that a short loss still shows.
SS.drawLost = function (V, ctx, r, tr) {
	const v = V.view;
	ctx.save();
	ctx.beginPath();
	ctx.rect(r.x, r.y, r.w, r.h);
	ctx.clip();
	ctx.fillStyle = V.meta.lost_color;
	for (const [a, b] of tr.m.lost_periods) {
		if (b < v.t0 || a > v.t1) continue;
		let x0 = SS.xOf(V, r, Math.max(a, v.t0 - (v.t1 - v.t0))), x1 = SS.xOf(V, r, b);
		if (x1 - x0 < 3) { const mid = (x0 + x1) / 2; x0 = mid - 1.5; x1 = mid + 1.5; }
		ctx.fillRect(x0, r.y, x1 - x0, r.h);
	}
	ctx.restore();
};
