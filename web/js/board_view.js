// The board: what it is (model, L4T, power mode, clocks, temperatures), its live telemetry from
// /v1/telemetry/stream on scrolling plots (one per channel kind), and the sampler's health.
import { get_json, act, events } from './api.js';
import { el, pairs_table, format_number, show_message } from './dom.js';
import { ring } from './ring.js';
import { live_plot } from './live_plot.js';

// The stream's fastest rate (its interval_ms floor): 10 Hz, so ten minutes are 6000 rows a kind.
export const stream_interval_ms = 100;
export const window_s = 600;
const kinds = [['power', 'W'], ['clock', 'Hz'], ['utilisation', '%'], ['temperature', '°C']];

export class board_view {
  constructor(root) {
    this.root = root;
    this.plots = {};       // kind -> {names, ring, plot}
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
    this.source = events(`/v1/telemetry/stream?interval_ms=${stream_interval_ms}`, { sample: (s) => this.on_sample(s) });
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
    box.replaceChildren(pairs_table([
      ['period', `${format_number(h.period_s * 1000)} ms (idle ${format_number(h.idle_period_s * 1000)} ms)`],
      ['achieved rate', `${format_number(h.achieved_rate_hz)} Hz`],
      ['jitter p50 / p99', `${format_number(h.jitter_p50_s * 1e6)} / ${format_number(h.jitter_p99_s * 1e6)} µs`],
      ['missed ticks', h.missed_ticks], ['full rate', h.full_rate]], 'sampler-table'));
  }

  on_sample(snapshot) {
    for (const [kind, unit] of kinds) {
      const channels = snapshot.channels.filter((c) => c.kind === kind);
      if (!channels.length) continue;
      let p = this.plots[kind];
      if (!p) {
        const div = el('div', { class: 'plot', id: `live-${kind}` });
        document.getElementById('live-plots').append(el('h3', {}, `${kind} (${unit})`), div);
        const names = channels.map((c) => c.name);
        const capacity = Math.ceil((window_s * 1000) / stream_interval_ms) + 16;
        p = this.plots[kind] = { names, ring: new ring(capacity, names.length), plot: new live_plot(div, names, { window_s, y_label: unit }) };
      }
      const by_name = new Map(channels.map((c) => [c.name, c.value]));
      p.ring.push(snapshot.t_ns, p.names.map((n) => by_name.get(n)));
    }
    const temps = snapshot.channels.filter((c) => c.kind === 'temperature');
    const box = document.getElementById('temperatures');
    if (box) box.replaceChildren(pairs_table(temps.map((c) => [c.name, `${format_number(c.value, 3)} ${c.unit}`])));
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
