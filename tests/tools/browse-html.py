#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Drives an HTML page of `seekscope plot -o x.html` in headless Chromium (Selenium) the way a
# user would — load, wheel, drag, box zoom, keys, hover with the real mouse, the URL fragment,
# play — and prints what it saw as "NAME<TAB>VALUE" lines for tests/cli/plot-html-browser.sh
# to compare (the assertions are there, in TAP).  With DUMP (`seekscope dump --absolute`
# of the same trace) it also prints, for each hovered request, the figures the trace itself
# gives: issue time, sectors, rwbs, latency (issue -> the next completion of those sectors)
# and zone.  Screenshots go to OUTDIR.  With --load only loads the page, reports the model
# panel (plot --disk) and hovers over it, and takes one screenshot.
#   browse-html.py [--load] PAGE OUTDIR [DUMP]      (run with Debian's /usr/bin/python3)
import atexit
import json
import os
import shutil
import signal
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

args = sys.argv[1:]
load_only = bool(args) and args[0] == "--load"
if load_only:
    args = args[1:]
page, outdir = os.path.abspath(args[0]), args[1]
dump = args[2] if len(args) > 2 else None


def out(name, value):
    print("%s\t%s" % (name, value if isinstance(value, str) else json.dumps(value)), flush=True)


# Chromium's profile: a directory of its own, removed when the script ends (also when the test
# harness ends it with SIGTERM: the exit runs the cleanup and the browser's quit below)
profile = tempfile.mkdtemp(prefix="ss-chromium-")
atexit.register(shutil.rmtree, profile, True)
signal.signal(signal.SIGTERM, lambda sig, frame: sys.exit(128 + sig))


def start():
    o = webdriver.ChromeOptions()
    # root needs --no-sandbox; a fresh profile, nothing from the network
    for a in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--no-first-run",
              "--disable-default-apps", "--user-data-dir=" + profile,
              "--window-size=1500,1900"]:
        o.add_argument(a)
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


def wait_ready(d, url, first=None):
    """Open URL and wait until its request detail is all there.  FIRST (a dict): what the page
    showed at its first picture — how many requests were decoded then, the io panels' modes."""
    d.get(url)
    seen_first = first is None
    for _ in range(1500):
        r = d.execute_script("const s = window.seekscope; if (!s) return null;"
                             " return [s.ready, s.error, s.detailReady || false,"
                             " s.ready ? [s.count(0), s.view().modes] : null]")
        if r and r[1]:
            return [False, r[1]]
        if r and r[0] and not seen_first:
            first["count"], first["modes"] = r[3]
            seen_first = True
        # ready: the first picture is drawn; detailReady: a big page's request detail, decoded
        # after it, is all there (what the checks below look at)
        if r and r[0] and r[2]:
            return [True, None]
        time.sleep(0.01)
    return [False, "timeout"]


def js(d, expr):
    return d.execute_script("return " + expr)


def mouse(d, kind, x, y, **kw):
    ev = {"type": kind, "x": x, "y": y}
    ev.update(kw)
    d.execute_cdp_cmd("Input.dispatchMouseEvent", ev)


def trace_facts(path):
    """Issue events with data, the completions, zones: from seekscope dump --absolute."""
    issues, completes, zones = [], {}, []
    for line in open(path):
        if line.startswith("# zone "):
            f = line.split()
            start, n = f[-1].split("+")
            zones.append((f[2], f[3], int(start), int(n)))
            continue
        if line.startswith("#"):
            continue
        f = line.split()
        if len(f) < 7 or "+" not in f[6]:
            continue
        ts, pid, kind, rwbs = int(f[0]), int(f[2]), f[3], f[5]
        sector, n = (int(x) for x in f[6].split("+"))
        name = f[-1][1:-1] if f[-1].startswith("[") else "unknown"
        if kind == "issue" and n > 0:
            issues.append((ts, sector, n, rwbs, pid, name))
        elif kind == "complete":
            completes.setdefault((sector, n), []).append(ts)
    return issues, completes, zones


def expected(facts, ts, sector):
    issues, completes, zones = facts
    for its, isec, n, rwbs, pid, name in issues:
        if its == ts and isec == sector:
            done = [c for c in completes.get((sector, n), []) if c >= ts]
            lat = min(done) - ts if done else None
            inside = [z for z in zones if z[2] <= sector < z[2] + z[3]]
            # a specific zone (log, journal, inode table) wins over a container, then the smaller
            inside.sort(key=lambda z: (z[0] in ("ag", "group"), z[3]))
            return {"issue_abs_ns": ts, "sector": sector, "nr_sector": n, "rwbs": rwbs,
                    "latency_ns": lat, "zone": inside[0][1] if inside else None,
                    "pid": pid, "process": name}
    return None


d = start()
try:
    url = "file://" + page
    first = {}
    r = wait_ready(d, url, first)
    out("ready", r[0])
    out("count_at_ready", first.get("count"))
    out("modes_at_ready", first.get("modes"))
    out("detail_error", js(d, "window.seekscope.detailError") or "")
    out("error", r[1] or "")
    out("load_ms", round(js(d, "window.seekscope.loadMs")))
    out("script_ms", round(js(d, "window.seekscope.scriptMs")))
    out("detail_ms", round(js(d, "window.seekscope.detailMs")))
    out("home", js(d, "window.seekscope.view()"))
    d.save_screenshot(os.path.join(outdir, "home.png"))
    out("model", js(d, "window.seekscope.model()"))
    out("lat_scale", js(d, "window.seekscope.scale('lat')"))
    out("meta_slots", js(d, "JSON.parse(document.getElementById('ss-meta').textContent).slots"))
    out("panels_offered", js(d, "[...document.querySelectorAll('input[data-panel]')].map((e) => e.dataset.panel)"))
    if load_only:
        # in a window 700 px wide: how far the page reaches past it (a table wider than the
        # window scrolls on its own)
        size = d.get_window_size()
        d.set_window_size(700, size["height"])
        time.sleep(0.3)
        out("narrow_overflow", js(d, "document.documentElement.scrollWidth - document.documentElement.clientWidth"))
        out("narrow_table", js(d, "(() => { const w = document.querySelector('.ss-tablewrap');"
                                  " return w ? [w.scrollWidth > w.clientWidth, w.clientWidth] : null; })()"))
        d.set_window_size(size["width"], size["height"])
        time.sleep(0.3)
        # the seek distance panels' direction words: where they were drawn, and the bars
        # whose columns and tops they cover (none should be)
        out("dist_words", js(d, """[...document.querySelectorAll('canvas[data-panel=dist]')].map((cv) => ({
            words: (cv.words || []).map((w) => w.text),
            covered: (cv.words || []).flatMap((w) => cv.bars.filter((b) =>
                b.x1 > w.x0 && b.x0 < w.x1 && b.top < w.y1).map((b) => b.b)),
            bars: cv.bars.length }))"""))
        # the model panel: shown, hovered at its middle
        b = js(d, "(() => { const cv = document.querySelector('canvas[data-panel=model]');"
                  " if (!cv) return null; cv.scrollIntoView(); const p = cv.plot, r = cv.getBoundingClientRect();"
                  " return [r.left + p.x, r.top + p.y, p.w, p.h]; })()")
        if b:
            mouse(d, "mouseMoved", b[0] + b[2] / 2, b[1] + b[3] / 2)
            out("model_tooltip", js(d, "window.seekscope.tooltip()") or "")
            d.save_screenshot(os.path.join(outdir, "model.png"))
        # coloured by group: the legend, and each request's process and group
        out("legend", js(d, "JSON.parse(document.getElementById('ss-meta').textContent).legend.map((l) => l.name)"))
        out("groups", js(d, "Array.from({length: window.seekscope.count(0)}, (_, i) => "
                            "window.seekscope.request(0, i)).map((r) => [r.process, r.group])"))
        # every request's file as the page names it (the file map's)
        out("files", js(d, "Array.from({length: window.seekscope.count(0)}, (_, i) => "
                           "window.seekscope.request(0, i)).map((r) => [r.sector, r.file, r.file_part])"))
        # the colour at the top of the seeks panel at each lost-event period's middle and
        # half-way between the first two (lost periods are shaded)
        out("lost_px", js(d, """(() => {
            const cv = document.querySelector('canvas[data-panel=seeks]'), r = cv.plot;
            const m = JSON.parse(document.getElementById('ss-meta').textContent);
            const per = m.traces[0].lost_periods, v = window.seekscope.view();
            const ctx = cv.getContext('2d'), dpr = cv.width / cv.clientWidth;
            const px = (t) => { const x = r.x + (t / 1e9 - v.t0_s) / (v.t1_s - v.t0_s) * r.w;
                const p = ctx.getImageData(Math.round(x * dpr), Math.round((r.y + 3) * dpr), 1, 1).data;
                return '#' + [p[0], p[1], p[2]].map((c) => c.toString(16).padStart(2, '0')).join(''); };
            const mids = per.map(([a, b]) => (a + b) / 2);
            return { lost: mids.map(px), between: per.length > 1 ? px(per[0][1] + 0.37 * (per[1][0] - per[0][1])) : null,
                     colour: m.lost_color };
        })()"""))
        # several devices: the io panel of the second device, and a request of it hovered
        if js(d, "window.seekscope.view().devices") > 1:
            js(d, "window.seekscope.setDevice(1)")
            out("dev1_view", js(d, "window.seekscope.view()"))
            out("dev1_title", js(d, "document.querySelector('.ss-p-io .ss-ptitle').textContent"))
            n = js(d, "window.seekscope.count(0)")
            req = next((r for r in (js(d, "window.seekscope.request(0, %d)" % i) for i in range(0, n, max(1, n // 50)))
                        if r["dev"].startswith("7,1")), None)
            if req:
                t = req["issue_ns"] / 1e9
                js(d, "window.seekscope.setView({t0_s: %r, t1_s: %r, y0: %r, y1: %r})" %
                   (t - 2e-4, t + 2e-4, req["sector"] - 4096, req["sector"] + req["nr_sector"] + 4096))
                p = js(d, "window.seekscope.pointOf(0, %d)" % req["index"])
                mouse(d, "mouseMoved", p["x"], p["y"])
                time.sleep(0.15)
                got = js(d, "window.seekscope.hovered()")
                out("dev1_hover", [req["index"], req["dev"], got["index"] if got else None,
                                   got["dev"] if got else None])
            js(d, "window.seekscope.reset()")
            d.save_screenshot(os.path.join(outdir, "dev1.png"))
        errors = [e["message"] for e in d.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
        out("console_errors", errors)
        sys.exit(0)

    # the wheel over the middle of the first io panel's plot: zoom in time around the pointer
    b = js(d, "(() => { const cv = document.querySelector('canvas[data-panel=io]'), p = cv.plot;"
              " const r = cv.getBoundingClientRect(); return [r.left + p.x, r.top + p.y, p.w, p.h]; })()")
    cx, cy = b[0] + b[2] / 2, b[1] + b[3] / 2
    mouse(d, "mouseWheel", cx, cy, deltaX=0, deltaY=-400)
    time.sleep(0.3)
    out("wheel", js(d, "window.seekscope.view()"))
    # drag to the left by a quarter of the panel: time moves right
    v0 = js(d, "window.seekscope.view()")
    mouse(d, "mousePressed", cx, cy, button="left", clickCount=1)
    mouse(d, "mouseMoved", cx - b[2] / 8, cy, button="left")
    mouse(d, "mouseMoved", cx - b[2] / 4, cy, button="left")
    mouse(d, "mouseReleased", cx - b[2] / 4, cy, button="left", clickCount=1)
    time.sleep(0.2)
    out("drag_before", v0)
    out("drag", js(d, "window.seekscope.view()"))
    # shift-drag: a box zoom on the middle ninth of the panel
    x0, y0, x1, y1 = b[0] + b[2] / 3, b[1] + b[3] / 3, b[0] + 2 * b[2] / 3, b[1] + 2 * b[3] / 3
    v0 = js(d, "window.seekscope.view()")
    mouse(d, "mousePressed", x0, y0, button="left", clickCount=1, modifiers=8)
    mouse(d, "mouseMoved", (x0 + x1) / 2, (y0 + y1) / 2, button="left", modifiers=8)
    mouse(d, "mouseMoved", x1, y1, button="left", modifiers=8)
    mouse(d, "mouseReleased", x1, y1, button="left", clickCount=1, modifiers=8)
    time.sleep(0.2)
    out("box_before", v0)
    out("box", js(d, "window.seekscope.view()"))
    # double-click resets
    mouse(d, "mousePressed", cx, cy, button="left", clickCount=2)
    mouse(d, "mouseReleased", cx, cy, button="left", clickCount=2)
    time.sleep(0.2)
    out("dblclick", js(d, "window.seekscope.view()"))
    # keys: + twice (time x 1/4), then ArrowRight (pan 20 %)
    body = d.find_element("tag name", "body")
    body.send_keys("++")
    time.sleep(0.2)
    out("keys_zoom", js(d, "window.seekscope.view()"))
    body.send_keys("\ue014")   # ArrowRight
    time.sleep(0.2)
    out("keys_pan", js(d, "window.seekscope.view()"))
    js(d, "window.seekscope.reset()")

    # hover: zoom to a few requests and move the real mouse onto each
    n = js(d, "window.seekscope.count(0)")
    out("requests", n)
    facts = trace_facts(dump) if dump else None
    picks = [i for i in sorted({0, n // 3, n // 2, (2 * n) // 3, n - 1}) if 0 <= i < n]
    for k, i in enumerate(picks):
        req = js(d, "window.seekscope.request(0, %d)" % i)
        t = req["issue_ns"] / 1e9
        js(d, "window.seekscope.setView({t0_s: %r, t1_s: %r, y0: %r, y1: %r})" %
           (t - 2e-4, t + 2e-4, req["sector"] - 4096, req["sector"] + req["nr_sector"] + 4096))
        p = js(d, "window.seekscope.pointOf(0, %d)" % i)
        mouse(d, "mouseMoved", p["x"], p["y"])
        time.sleep(0.15)
        got = js(d, "window.seekscope.hovered()")
        out("hover.%d.index" % k, got["index"] if got else None)
        out("hover.%d.want_index" % k, i)
        keys = ["issue_abs_ns", "sector", "nr_sector", "rwbs", "latency_ns", "zone", "pid", "process"]
        out("hover.%d.page" % k, {x: got[x] for x in keys} if got else None)
        out("hover.%d.tooltip" % k, js(d, "window.seekscope.tooltip()") or "")
        if facts is not None:
            out("hover.%d.trace" % k, expected(facts, req["issue_abs_ns"], req["sector"]))
        if k == 1:
            d.save_screenshot(os.path.join(outdir, "hover.png"))

    # the URL fragment keeps the view: reload a zoomed page from its own address
    js(d, "window.seekscope.reset()")
    js(d, "window.seekscope.zoom(0.1)")
    js(d, "document.querySelector('input[data-class=\"1\"]').click()")
    want = js(d, "window.seekscope.view()")
    href = js(d, "location.href")
    out("hash", href.split("#", 1)[1] if "#" in href else "")
    d.get("about:blank")
    wait_ready(d, href)
    out("hash_want", want)
    out("hash_got", js(d, "window.seekscope.view()"))
    js(d, "location.hash = ''")
    wait_ready(d, url)

    # click the first phase label, then the first zone label: the view becomes that phase/zone
    for kind in ("phase", "zone"):
        hit = js(d, "(() => { const cv = document.querySelector('canvas[data-panel=io]');"
                    " const h = (cv.hits || []).find((x) => x.kind === '%s'); if (!h) return null;"
                    " const r = cv.getBoundingClientRect();"
                    " return {x: r.left + h.x + Math.min(4, h.w / 2), y: r.top + h.y + h.h / 2,"
                    " what: h.phase ? {begin_s: h.phase.begin / 1e9, end_s: h.phase.end / 1e9}"
                    " : {start: h.zone.start, n: h.zone.n}}; })()" % kind)
        if hit:
            mouse(d, "mousePressed", hit["x"], hit["y"], button="left", clickCount=1)
            mouse(d, "mouseReleased", hit["x"], hit["y"], button="left", clickCount=1)
            time.sleep(0.2)
            hit["what"]["view"] = js(d, "window.seekscope.view()")
            out(kind + "_click", hit["what"])
        js(d, "window.seekscope.reset()")

    # panels and classes toggle
    js(d, "document.querySelector('input[data-panel=\"seeks\"]').click()")
    out("panel_toggle", js(d, "[window.seekscope.view().panels, "
                              "getComputedStyle(document.querySelector('.ss-p-seeks')).display]"))
    js(d, "document.querySelector('input[data-panel=\"seeks\"]').click()")

    # play: the cursor moves and requests light up; a screenshot mid-sweep
    js(d, "window.seekscope.play()")
    time.sleep(1.0)
    out("play", js(d, "window.seekscope.playing()"))
    d.save_screenshot(os.path.join(outdir, "play.png"))
    js(d, "window.seekscope.pause()")

    # interactive rates: full renders at home, zoomed to a tenth, and panning there
    js(d, "window.seekscope.reset()")
    frames = [js(d, "window.seekscope.render()") for _ in range(5)]
    js(d, "window.seekscope.zoom(0.1)")
    frames += [js(d, "(() => { window.seekscope.pan(0.05); return window.seekscope.render(); })()")
               for _ in range(10)]
    out("frame_ms_max", round(max(frames), 1))
    out("frame_ms_median", round(sorted(frames)[len(frames) // 2], 1))
    d.save_screenshot(os.path.join(outdir, "zoomed.png"))

    errors = [e["message"] for e in d.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    out("console_errors", errors)
finally:
    d.quit()
