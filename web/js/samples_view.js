// One point's raw power samples per rail over its measurement window, with the window's edges and
// the boundary cut from each end marked: the data behind the point's average power.
import { get_json } from './api.js';
import { el } from './dom.js';
import { install_csp_legend, legend_options } from './dygraph_legend.js';

const margin_ns = 500e6;  // shown on each side of the window, to see the edges

// Rows [t_s, rail1, ...] from samples {channel, t_ns, value}: one row per timestamp, t relative to
// `t0_ns`, null where a rail has no sample at that time.
export function sample_rows(samples, channels, t0_ns) {
  const at = new Map();
  const col = new Map(channels.map((c, i) => [c, i + 1]));
  for (const s of samples) {
    if (!col.has(s.channel)) continue;
    if (!at.has(s.t_ns)) at.set(s.t_ns, [(s.t_ns - t0_ns) / 1e9, ...channels.map(() => null)]);
    at.get(s.t_ns)[col.get(s.channel)] = s.value;
  }
  return [...at.values()].sort((a, b) => a[0] - b[0]);
}

export class samples_view {
  constructor(root, job) {
    this.root = root;
    this.job = job;
    this.graph = null;
  }

  async show(row) {
    const start = row.window_start_ns, end = row.window_end_ns;
    if (!start || !end) {
      this.root.replaceChildren(el('p', { id: 'samples-summary' }, `point ${row.index} has no measurement window`));
      return;
    }
    const boundary_s = typeof this.job.spec.boundary_s === 'number' ? this.job.spec.boundary_s : 0;
    this.root.replaceChildren(el('h3', {}, `Power samples of point ${row.index}`), el('p', { id: 'samples-summary', class: 'muted' }, 'loading…'),
      el('div', { class: 'plot-tall', id: 'samples-plot' }));
    const samples = [];
    let channels = [];
    let after = '';
    const from = Math.round(start - margin_ns), to = Math.round(end + margin_ns);
    do {
      const page = await get_json(`/v1/jobs/${this.job.id}/samples?from=${from}&to=${to}&limit=100000${after ? `&after=${encodeURIComponent(after)}` : ''}`);
      channels = page.channels;
      samples.push(...page.samples);
      after = page.next_after || '';
    } while (after && samples.length < 2e6);
    const rails = channels.filter((c) => c.unit === 'W').map((c) => c.name);
    const rows = sample_rows(samples, rails, start);
    const length_s = (end - start) / 1e9;
    document.getElementById('samples-summary').textContent =
      `${rows.length} sample times of ${rails.length} rails; window ${length_s.toFixed(3)} s (solid lines), ` +
      `boundary cut ${boundary_s} s at each end (shaded): only samples between the dashed lines make the average`;
    const summary = document.getElementById('samples-summary');
    summary.dataset.rows = String(rows.length);
    summary.dataset.rails = String(rails.length);
    if (!window.Dygraph || !rows.length) return;
    install_csp_legend(window.Dygraph);
    this.graph = new window.Dygraph(document.getElementById('samples-plot'), rows, {
      labels: ['t (s)', ...rails],
      xlabel: 'seconds from the window start',
      ylabel: 'W',
      legend: 'always',
      ...legend_options,
      underlayCallback: (ctx, area, g) => mark_window(ctx, area, g, length_s, boundary_s),
    });
  }

  close() {
    if (this.graph) this.graph.destroy();
  }
}

function mark_window(ctx, area, g, length_s, boundary_s) {
  const x = (t) => g.toDomXCoord(t);
  ctx.save();
  ctx.fillStyle = 'rgba(200, 80, 80, 0.15)';
  ctx.fillRect(x(0), area.y, x(boundary_s) - x(0), area.h);
  ctx.fillRect(x(length_s - boundary_s), area.y, x(length_s) - x(length_s - boundary_s), area.h);
  const line = (t, dash) => {
    ctx.setLineDash(dash);
    ctx.beginPath();
    ctx.moveTo(x(t), area.y);
    ctx.lineTo(x(t), area.y + area.h);
    ctx.stroke();
  };
  ctx.strokeStyle = '#900';
  line(0, []);
  line(length_s, []);
  line(boundary_s, [4, 4]);
  line(length_s - boundary_s, [4, 4]);
  ctx.restore();
}
