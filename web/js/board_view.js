// The board: what it is (model, L4T, power mode, clocks, temperatures), its live telemetry from
// /v1/telemetry/stream on scrolling plots (one per channel kind), and the sampler's health. The
// plots hold every sample the sampler takes (the stream's samples=all batches), not only the
// stream's snapshots: ten minutes at the sampler's full rate.
import { get_json, act, events } from './api.js';
import { el, pairs_table, format_number, show_message } from './dom.js';
import { ring } from './ring.js';
import { live_plot } from './live_plot.js';

// Snapshots (the temperatures box) at the stream's fastest rate; the plots take the batches.
export const stream_interval_ms = 100;
export const window_s = 600;
// Rows a plot's ring holds: ten minutes at the sampler's period while a job runs (10 ms: 60,000
// rows), capped at 120,000 (a 5 ms period) so a faster sampler cannot take the tab's memory
// (a ring of 10 power rails is ~10 MB at the cap); it then holds less than ten minutes. Idle
// periods (100 ms) fill it ten times slower.
export const max_ring_rows = 120000;
// Each plot's kind, the unit it is drawn in, and the factor from the channels' unit to it: clocks
// come in Hz and are drawn in MHz (an axis of Hz reads "2.00e+9").
const kinds = [['power', 'W', 1], ['clock', 'MHz', 1e-6], ['utilisation', '%', 1], ['temperature', '°C', 1]];

export class board_view {
  constructor(root) {
    this.root = root;
    this.plots = {};       // kind -> {names, ring, plot, element, last}
    this.column_of = new Map();  // channel name -> {p: its plot, j: its column}
    this.period_s = 0.01;  // the sampler's full-rate period, from /v1/telemetry's health
    this.source = null;
    this.timer = null;
    this.dirty = false;
  }

  async show() {
    const [health, board, clocks] = await Promise.all([
      get_json('/v1/health'),
      get_json('/v1/board').catch(() => null),
      get_json('/v1/clocks').catch(() => null),
    ]);
    this.root.replaceChildren(
      el('h2', {}, `Board ${health.board_name || ''}`),
      el('div', { class: 'grid' },
        el('div', {}, el('h3', {}, 'Identity'), pairs_table([
          ['model', health.model], ['board', health.board], ['simulated', health.simulated],
          ['L4T', health.l4t], ['family', board && board.family], ['version', health.version]], 'board-identity')),
        el('div', {}, el('h3', {}, 'Settings'), pairs_table(settings_pairs(clocks), 'board-settings'),
          el('button', { id: 'restore-clocks', onclick: () => this.restore() }, 'Restore clocks')),
        el('div', {}, el('h3', {}, 'Sampler'), el('div', { id: 'sampler-health' }, '–')),
        el('div', {}, el('h3', {}, 'Temperatures'), el('div', { id: 'temperatures' }, '–'))),
      el('div', { id: 'live-plots' }));
    await this.refresh_health();
    this.source = events(`/v1/telemetry/stream?interval_ms=${stream_interval_ms}&samples=all`, {
      sample: (s) => this.on_sample(s),
      samples: (b) => this.on_samples(b),
    });
    this.timer = setInterval(() => {
      if (this.dirty) this.draw();
      this.refresh_health().catch(() => {});
    }, 1000);
  }

  async refresh_health() {
    const t = await get_json('/v1/telemetry').catch(() => null);
    const box = document.getElementById('sampler-health');
    if (!t || !box) return;
    const h = t.health;
    if (h.period_s > 0) this.period_s = h.period_s;
    box.replaceChildren(pairs_table([
      ['period', `${format_number(h.period_s * 1000)} ms (idle ${format_number(h.idle_period_s * 1000)} ms)`],
      ['achieved rate', `${format_number(h.achieved_rate_hz)} Hz`],
      ['jitter p50 / p99', `${format_number(h.jitter_p50_s * 1e6)} / ${format_number(h.jitter_p99_s * 1e6)} µs`],
      ['missed ticks', h.missed_ticks], ['full rate', h.full_rate]], 'sampler-table'));
  }

  // A snapshot: the temperatures box, and the plots' channels (a batch names channels only).
  on_sample(snapshot) {
    for (const [kind, unit, factor] of kinds) {
      const channels = snapshot.channels.filter((c) => c.kind === kind);
      if (!channels.length || this.plots[kind]) continue;
      const names = channels.map((c) => c.name);
      const capacity = Math.min(max_ring_rows, Math.ceil(window_s / this.period_s) + 16);
      const div = el('div', { class: 'plot', id: `live-${kind}` });
      div.dataset.capacity = String(capacity);
      document.getElementById('live-plots').append(el('h3', {}, `${kind} (${unit})`), div);
      const p = this.plots[kind] = {
        names, element: div, last: names.map(() => null), factor,
        ring: new ring(capacity, names.length), plot: new live_plot(div, names, { window_s, y_label: unit }),
      };
      names.forEach((name, j) => this.column_of.set(name, { p, j }));
    }
    const temps = snapshot.channels.filter((c) => c.kind === 'temperature');
    const box = document.getElementById('temperatures');
    if (box) box.replaceChildren(pairs_table(temps.map((c) => [c.name, `${format_number(c.value, 3)} ${c.unit}`])));
  }

  // A batch of every sample since the last: one row per tick in each plot with a sample in it,
  // holding each channel's last value where that tick read none (a slower sensor).
  on_samples(batch) {
    const where = batch.channels.map((name) => this.column_of.get(name));
    const s = batch.samples;
    const touched = new Set();
    for (let i = 0; i < s.length;) {
      const dt_us = s[i][0];
      for (; i < s.length && s[i][0] === dt_us; ++i) {
        const w = where[s[i][1]];
        if (!w) continue;
        const v = s[i][2];
        w.p.last[w.j] = typeof v === 'number' ? v * w.p.factor : v;
        touched.add(w.p);
      }
      const t = batch.t0_ns + dt_us * 1000;
      // A stream that reconnected starts a little back: rows a ring already holds are skipped.
      for (const p of touched) if (!(t <= p.ring.last_time())) p.ring.push(t, p.last);
      touched.clear();
    }
    // For the browser test and a reader in the inspector: the rows each ring holds.
    for (const p of Object.values(this.plots)) p.element.dataset.held = String(p.ring.length);
    if (!s.length) return;
    if (!this.drawn_once) { this.drawn_once = true; this.draw(); } else this.dirty = true;
  }

  draw() {
    this.dirty = false;
    for (const p of Object.values(this.plots)) p.plot.draw(p.ring);
  }

  async restore() {
    try {
      await act('POST', '/v1/clocks/restore');
      show_message('clocks restored');
    } catch (e) {
      show_message(`restore failed: ${e.message}`);
    }
  }

  close() {
    if (this.source) this.source.close();
    clearInterval(this.timer);
    for (const p of Object.values(this.plots)) p.plot.destroy();
  }
}

function settings_pairs(c) {
  if (!c) return [['clocks', 'not available on this board']];
  const mhz = (hz) => (typeof hz === 'number' ? `${format_number(hz / 1e6)} MHz` : '–');
  return [
    ['power mode', c.power_mode_name ? `${c.power_mode} (${c.power_mode_name})` : c.power_mode],
    ['GPU', `${mhz(c.gpu_cur_hz)} (${mhz(c.gpu_min_hz)}–${mhz(c.gpu_max_hz)})`],
    ['CPU', typeof c.cpu_cur_khz === 'number' ? `${format_number(c.cpu_cur_khz / 1e3)} MHz` : '–'],
    ['EMC', `${mhz(c.emc_freq_hz)}${c.emc_locked ? ' (locked)' : ''}`],
    ['snapshot held', c.armed]];
}
