// SPDX-License-Identifier: GPL-2.0-or-later
// seekscope HTML viewer, part 1 of 5: helpers shared by the other parts — ticks on 1-2-5
// steps (render/plot/ticks.c's rule), display units, number formats, binary search, and the
// decoding of the page's embedded data (base64, deflate through the browser's own
// DecompressionStream, LEB128 varints).  The five parts are concatenated in the Makefile's
// WEB_JS order into one inline script; no framework, nothing fetched.
'use strict';

const SS = {};

// Ticks covering [lo, hi]: the smallest 1-2-5 step giving at most maxTicks ticks.
SS.ticks = function (lo, hi, maxTicks) {
	if (!(hi > lo) || !isFinite(lo) || !isFinite(hi))
		return { first: lo, step: 1, count: 0, decimals: 0 };
	let step = Math.pow(10, Math.floor(Math.log10((hi - lo) / maxTicks)));
	const mult = [1, 2, 5, 10];
	let s = step;
	for (let i = 0; i < 40; i++) {
		const m = mult[i % 3] * Math.pow(10, Math.floor(i / 3));
		s = step * m;
		if (Math.floor(hi / s) - Math.ceil(lo / s) + 1 <= maxTicks)
			break;
	}
	const first = Math.ceil(lo / s - 1e-9) * s;
	const count = Math.floor((hi - first) / s + 1e-9) + 1;
	const decimals = Math.max(0, -Math.floor(Math.log10(s) + 1e-9));
	return { first: first, step: s, count: count, decimals: decimals };
};
SS.tickValue = function (t, i) {
	const v = t.first + i * t.step;
	return Math.abs(v) < t.step * 1e-9 ? 0 : v;
};
SS.tickLabel = function (t, v) {
	if (t.step >= 1000 && Math.abs(v) >= 1000) {
		const units = [[1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
		for (const [d, n] of units)
			if (Math.abs(v) >= d) {
				const dec = Math.max(0, -Math.floor(Math.log10(t.step / d) + 1e-9));
				return (v / d).toFixed(dec) + n;
			}
	}
	return v.toFixed(t.decimals);
};

// Display units: time s/ms/us by span (ticks.c ss_unit_time), offsets auto/sectors/MiB/GiB.
SS.unitTime = function (rangeNs) {
	if (rangeNs >= 2e9) return { name: 's', div: 1e9 };
	if (rangeNs >= 2e6) return { name: 'ms', div: 1e6 };
	return { name: 'us', div: 1e3 };
};
SS.UNITS = ['auto', 'sectors', 'mib', 'gib'];
SS.unitOffset = function (units, rangeSectors) {
	const sectors = { name: 'sectors', div: 1 }, mib = { name: 'MiB', div: 2048 },
		gib = { name: 'GiB', div: 2048 * 1024 };
	switch (SS.UNITS[units] || 'auto') {
	case 'sectors': return sectors;
	case 'mib': return mib;
	case 'gib': return gib;
	default:
		if (rangeSectors >= 2 * gib.div) return gib;
		if (rangeSectors >= 2 * mib.div) return mib;
		return sectors;
	}
};

// The bin width for a span: the smallest 1-2-5 step from 1 us giving at most maxBins bins
// (render/analysis/bins.c ss_bins_choose_width).
SS.chooseWidth = function (spanNs, maxBins) {
	if (!(spanNs > 0)) return 1e6;
	for (let decade = 1000; ; decade *= 10)
		for (const m of [1, 2, 5]) {
			const w = decade * m;
			if (Math.floor((spanNs - 1) / w) + 1 <= maxBins)
				return w;
		}
};

// Seconds with enough digits for the span shown; bytes as B/KiB/MiB/GiB.
SS.fmtTime = function (ns, digits) {
	return (ns / 1e9).toFixed(digits === undefined ? 6 : digits) + ' s';
};
SS.fmtBytes = function (b) {
	const u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
	let i = 0;
	while (b >= 1024 && i < u.length - 1) {
		b /= 1024;
		i++;
	}
	return (i ? b.toFixed(b < 10 ? 2 : 1) : String(b)) + ' ' + u[i];
};
SS.fmtLatency = function (ns) {
	if (ns >= 1e9) return (ns / 1e9).toFixed(3) + ' s';
	if (ns >= 1e6) return (ns / 1e6).toFixed(3) + ' ms';
	return (ns / 1e3).toFixed(1) + ' us';
};

// First index in the sorted array a[lo..hi) whose value is >= v.
SS.lowerBound = function (a, v, lo, hi) {
	lo = lo || 0;
	hi = hi === undefined ? a.length : hi;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (a[mid] < v) lo = mid + 1;
		else hi = mid;
	}
	return lo;
};

SS.base64 = function (text) {
	if (Uint8Array.fromBase64) return Uint8Array.fromBase64(text);   // where the browser has it
	const bin = atob(text);
	const out = new Uint8Array(bin.length);
	for (let i = 0; i < bin.length; i++)
		out[i] = bin.charCodeAt(i);
	return out;
};

// Inflate a zlib stream (the encoder's compress2) into an ArrayBuffer.  The bytes go in through
// the stream's writable side in one write: a Blob's stream() hands them over in small pieces
// and took 1.3-2.4 times as long (a 2M-I/O page's sections: 0.6-0.9 s against 0.37-0.47 s).
SS.inflate = function (bytes) {
	const ds = new DecompressionStream('deflate');
	const w = ds.writable.getWriter();
	const out = new Response(ds.readable).arrayBuffer();
	// a corrupt stream rejects all three: one error, which says what happened
	w.write(bytes).catch(() => {});
	w.close().catch(() => {});
	return out.catch(() => { throw new Error('the page\'s data is damaged: a section does not inflate'); });
};

// n LEB128 varints from bytes[pos..] into out (a typed array); returns the next position.
SS.varints = function (bytes, pos, n, out) {
	for (let i = 0; i < n; i++) {
		let b = bytes[pos++], v = b & 0x7f;
		if (b & 0x80) {
			let mul = 128;
			do {
				b = bytes[pos++];
				v += (b & 0x7f) * mul;
				mul *= 128;
			} while (b & 0x80);
		}
		out[i] = v;
	}
	return pos;
};

SS.el = function (tag, attrs, parent) {
	const e = document.createElement(tag);
	for (const k in attrs || {}) {
		if (k === 'text') e.textContent = attrs[k];
		else if (k === 'class') e.className = attrs[k];
		else e.setAttribute(k, attrs[k]);
	}
	if (parent) parent.appendChild(e);
	return e;
};
