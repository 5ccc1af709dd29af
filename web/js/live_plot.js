// A scrolling dygraph over a ring: the last `window_s` seconds, drawn from the min/max-per-pixel
// rows of downsample.js so that ten minutes at full rate stay cheap to draw.
import { downsample_rows } from './downsample.js';
import { install_csp_legend, legend_options } from './dygraph_legend.js';

export class live_plot {
  constructor(element, labels, { window_s = 600, y_label = '' } = {}) {
    this.element = element;
    this.labels = labels;
    this.window_s = window_s;
    this.y_label = y_label;
    this.graph = null;
    this.rows_drawn = 0;
  }

  // Draws the ring's last window; returns how many rows were handed to dygraphs.
  draw(r) {
    if (!window.Dygraph || r.length === 0) return 0;
    const t_end = r.last_time();
    const t0 = t_end - this.window_s * 1e9;
    // The axis spans the data held (at least 10 s), up to the whole window: a page just opened
    // shows its first seconds across the plot rather than squeezed against its right edge.
    const held_s = (t_end - r.times[r.slot(0)]) / 1e9;
    const span_s = Math.min(this.window_s, Math.max(10, held_s));
    const columns = Math.max(100, this.element.clientWidth || 800);
    const rows = downsample_rows(r, columns, t0, t_end, t_end);
    const options = {
      labels: ['t (s)', ...this.labels],
      xlabel: 'seconds before the newest sample',
      ylabel: this.y_label,
      dateWindow: [-span_s, 0],
      connectSeparatedPoints: false,
      legend: 'always',
      labelsSeparateLines: false,
      animatedZooms: false,
      ...legend_options,
    };
    install_csp_legend(window.Dygraph);
    if (!this.graph) this.graph = new window.Dygraph(this.element, rows, options);
    else this.graph.updateOptions(Object.assign({ file: rows }, options));
    this.rows_drawn = rows.length;
    // For the browser test and for a reader in the inspector: what the last draw handed over.
    this.element.dataset.rows = String(rows.length);
    return rows.length;
  }

  destroy() {
    if (this.graph) this.graph.destroy();
    this.graph = null;
  }
}
