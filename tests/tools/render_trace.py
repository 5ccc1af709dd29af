#!/usr/bin/env python3
"""Renders a jetperf Chrome trace (GET /v1/jobs/{id}/trace) as a standalone HTML page that draws
its tracks (slices and instants) and its power counters on a canvas, for a headless browser's
screenshot where Perfetto cannot be reached (no network):

    render_trace.py TRACE.json OUT.html
    chromium --headless --screenshot=OUT.png --window-size=1600,1000 file://$PWD/OUT.html
"""
import html, json, sys

PAGE = """<!doctype html><meta charset="utf-8"><title>@TITLE@</title>
<style>body{font:12px sans-serif;margin:8px}canvas{border:1px solid #ccc}</style>
<h3>@TITLE@</h3><canvas id="c" width="1560" height="900"></canvas>
<script type="application/json" id="trace">@TRACE@</script>
<script>
const t = JSON.parse(document.getElementById('trace').textContent), ev = t.traceEvents;
const names = {}; ev.filter(e => e.ph === 'M' && e.name === 'thread_name').forEach(e => names[e.tid] = e.args.name);
const tids = Object.keys(names).map(Number).sort((a, b) => a - b);
const spans = ev.filter(e => e.ph === 'X' || e.ph === 'i'), counters = {};
ev.filter(e => e.ph === 'C' && / \\(W\\)$/.test(e.name)).forEach(e => (counters[e.name] = counters[e.name] || []).push([e.ts, e.args.value]));
const t0 = Math.min(...spans.map(e => e.ts)), t1 = Math.max(...spans.map(e => e.ts + (e.dur || 0)));
const c = document.getElementById('c').getContext('2d'), L = 150, W = 1560 - L - 10, row = 28;
const x = ts => L + (ts - t0) / (t1 - t0) * W, colour = s => 'hsl(' + [...s].reduce((h, ch) => h * 31 + ch.charCodeAt(0), 7) % 360 + ',60%,60%)';
tids.forEach((tid, i) => {
  const y = 10 + i * row; c.fillStyle = '#000'; c.fillText(names[tid], 4, y + 16);
  spans.filter(e => e.tid === tid).forEach(e => {
    c.fillStyle = colour(e.name);
    if (e.ph === 'X') { c.fillRect(x(e.ts), y, Math.max(1, x(e.ts + e.dur) - x(e.ts)), row - 6); }
    else { c.fillRect(x(e.ts), y, 1, row - 6); }
  });
});
let y0 = 20 + tids.length * row; const names_w = Object.keys(counters).sort(), h = Math.max(60, (900 - y0) / Math.max(1, names_w.length) - 8);
names_w.forEach(n => {
  const pts = counters[n].filter(p => p[0] >= t0 && p[0] <= t1), lo = Math.min(...pts.map(p => p[1])), hi = Math.max(...pts.map(p => p[1]));
  c.fillStyle = '#000'; c.fillText(n, 4, y0 + 14); c.fillText(hi.toFixed(2) + ' W', 4, y0 + 28); c.fillText(lo.toFixed(2) + ' W', 4, y0 + h);
  c.strokeStyle = '#246'; c.beginPath();
  pts.forEach((p, i) => { const yy = y0 + h - (hi > lo ? (p[1] - lo) / (hi - lo) : 0.5) * (h - 4); i ? c.lineTo(x(p[0]), yy) : c.moveTo(x(p[0]), yy); });
  c.stroke(); y0 += h + 8;
});
c.fillStyle = '#000'; c.fillText(((t1 - t0) / 1e6).toFixed(3) + ' s shown', L, 898);
document.title += ' (' + spans.length + ' spans)';
</script>
"""

def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    trace = json.load(open(sys.argv[1]))
    title = trace.get("otherData", {}).get("kind", "trace")
    title = "jetperf job %s (%s)" % (trace.get("otherData", {}).get("job", "?"), title)
    text = json.dumps(trace).replace("</", "<\\/")
    open(sys.argv[2], "w").write(PAGE.replace("@TITLE@", html.escape(title)).replace("@TRACE@", text))

if __name__ == "__main__":
    main()
