// The results explorer: x and y from the kind's declared columns, colour by a parameter, the
// other parameters fixed to values found in the data, scatter or line (bars for the per-layer
// and per-mapping presets), log axes; hover shows a point's row, a click its power samples, and
// the plotted rows download as CSV.
import { el, select, format_number } from './dom.js';
import { axis_columns, parameter_columns, distinct_values, filter_rows, make_series, plotted_rows, as_number, series_label } from './explorer_model.js';
import { mhz_factor, mhz_text, clock_label, clock_name } from './clock_units.js';
import { presets_for } from './presets.js';
import { to_csv, download } from './csv.js';

const colours = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

// Bars: one category per distinct x, one dataset per y column (side by side) and series label;
// a series' rows at the same x (its repeats) make one bar at their mean. `factor_of(y)` scales
// a y column (a clock to MHz).
export function bar_data(rows, x, ys, by, factor_of = () => 1) {
  const labels = distinct_values(rows, x);
  const datasets = [];
  for (const y of ys) {
    if (!rows.some((r) => as_number(r[y]) !== null)) continue;
    const groups = new Map();
    for (const r of rows) {
      const label = by.length ? `${y} ${series_label(r, by)}` : y;
      if (!groups.has(label)) groups.set(label, new Map());
      const by_x = groups.get(label);
      const k = String(r[x]);
      if (!by_x.has(k)) by_x.set(k, []);
      by_x.get(k).push(r);
    }
    for (const [label, by_x] of groups) {
      const picked = labels.map((l) => by_x.get(String(l)) || null);
      const value = (rs) => {
        const v = rs ? rs.map((r) => as_number(r[y])).filter((n) => n !== null) : [];
        return v.length ? mean(v) * factor_of(y) : null;
      };
      // rows: the row a bar's hover and click show; all: every row behind the bars (the CSV).
      datasets.push({ label, data: picked.map(value), rows: picked.map((rs) => (rs ? rs[0] : null)), all: picked.filter((rs) => rs).flat() });
    }
  }
  return { labels, datasets };
}

function unit_of(columns, name) {
  const c = columns.find((k) => k.name === name);
  return c ? c.unit : '';
}

// A column's factor to MHz when it is a clock, else 1.
function factor(columns, name) {
  const f = mhz_factor(name, unit_of(columns, name));
  return f === null ? 1 : f;
}

function unit_label(columns, name) {
  const unit = unit_of(columns, name);
  return clock_label(name, unit, unit ? `${name} (${unit})` : name);
}

// A value as a fixed-value drop-down offers it: clocks in MHz.
function value_text(columns, name, v) {
  const f = mhz_factor(name, unit_of(columns, name));
  return f !== null && typeof v === 'number' ? `${mhz_text(v, f)} MHz` : String(v);
}

export class explorer_view {
  // `results` is GET /v1/jobs/{id}/results; on_point(row) is called when a point is clicked.
  constructor(root, results, on_point) {
    this.root = root;
    this.kind = results.job.kind;
    this.base = { columns: results.columns, rows: results.rows };
    this.presets = presets_for(this.kind, results.columns, results.rows, results.job.spec);
    this.on_point = on_point;
    this.chart = null;
    this.plotted = [];
    const axes = axis_columns(results.columns).filter((c) => c.role === 'parameter' || c.role === 'metric');
    const first_param = axes.find((c) => c.role === 'parameter');
    const first_metric = axes.find((c) => c.role === 'metric');
    this.state = { preset: '', x: first_param ? first_param.name : '', y: [first_metric ? first_metric.name : ''], by: [], chart: 'scatter', log_x: false, log_y: false, fixed: {} };
  }

  data() {
    const p = this.presets.find((q) => q.id === this.state.preset);
    return p && p.derive ? p.derive(this.base.columns, this.base.rows) : this.base;
  }

  apply_preset(id) {
    const p = this.presets.find((q) => q.id === id);
    this.state.preset = id;
    if (p) Object.assign(this.state, { x: p.x, y: [...p.y], by: [...p.by], chart: p.chart, log_x: p.log_x, log_y: p.log_y, fixed: {} });
    this.show();
  }

  set(key, value) {
    this.state[key] = value;
    this.show();
  }

  show() {
    const { columns, rows } = this.data();
    const axes = axis_columns(columns);
    const params = parameter_columns(columns, rows);
    const s = this.state;
    const by_value = s.by.join('+');
    const by_options = [['', 'none'], ...params.map((c) => [c.name, c.name])];
    if (s.by.length > 1) by_options.push([by_value, s.by.join(' + ')]);
    const fixable = params.filter((c) => c.name !== s.x && !s.by.includes(c.name));
    const axis_options = axes.map((c) => [c.name, unit_label(columns, c.name)]);
    this.root.replaceChildren(
      el('div', { class: 'controls' },
        el('label', {}, 'preset', select('explorer-preset', [['', 'none'], ...this.presets.map((p) => [p.id, p.label])], s.preset, (e) => this.apply_preset(e.target.value))),
        el('label', {}, 'x', select('explorer-x', axis_options, s.x, (e) => this.set('x', e.target.value))),
        el('label', {}, 'y', select('explorer-y', axis_options, s.y[0], (e) => this.set('y', [e.target.value]))),
        el('label', {}, 'colour', select('explorer-by', by_options, by_value, (e) => this.set('by', e.target.value ? e.target.value.split('+') : []))),
        el('label', {}, 'chart', select('explorer-chart', [['scatter', 'scatter'], ['line', 'line'], ['bar', 'bar']], s.chart, (e) => this.set('chart', e.target.value))),
        el('label', {}, 'log x', el('input', { type: 'checkbox', id: 'explorer-log-x', checked: s.log_x || undefined, onchange: (e) => this.set('log_x', e.target.checked) })),
        el('label', {}, 'log y', el('input', { type: 'checkbox', id: 'explorer-log-y', checked: s.log_y || undefined, onchange: (e) => this.set('log_y', e.target.checked) })),
        el('button', { id: 'explorer-csv', onclick: () => this.download_csv() }, 'Download plotted rows (CSV)')),
      el('div', { class: 'controls', id: 'explorer-fixed' },
        fixable.map((c) => el('label', {}, unit_label(columns, c.name), select(`fixed-${c.name}`, [['', 'any'], ...distinct_values(rows, c.name).map((v) => [String(v), value_text(columns, c.name, v)])], s.fixed[c.name] || '', (e) => {
          s.fixed[c.name] = e.target.value;
          this.show();
        })))),
      el('p', { id: 'explorer-summary', class: 'muted' }),
      el('div', { class: 'chart-box' }, el('canvas', { id: 'explorer-canvas' })),
      el('div', { id: 'row-detail', class: 'muted' }, 'hover a point for its row; click it for its power samples'));
    // Fixed values that no longer exist in the data are dropped rather than hiding everything.
    for (const k of Object.keys(s.fixed)) if (!fixable.some((c) => c.name === k)) delete s.fixed[k];
    this.draw(columns, filter_rows(rows, s.fixed));
  }

  draw(columns, rows) {
    const s = this.state;
    if (this.chart) this.chart.destroy();
    this.chart = null;
    let config, points = 0, series_count = 0;
    if (s.chart === 'bar') {
      const { labels, datasets } = bar_data(rows, s.x, s.y, s.by, (y) => factor(columns, y));
      this.plotted = [...new Set(datasets.flatMap((d) => d.all))];
      points = datasets.reduce((n, d) => n + d.data.filter((v) => v !== null).length, 0);
      series_count = datasets.length;
      config = {
        type: 'bar',
        data: { labels: labels.map((v) => value_text(columns, s.x, v)), datasets: datasets.map((d, i) => ({ label: d.label, data: d.data, rows: d.rows, backgroundColor: colours[i % colours.length] })) },
        options: this.options(columns, 'category', s.log_y ? 'logarithmic' : 'linear'),
      };
    } else {
      // A line goes through each x once: repeats (and any rows the series shares at one x) at
      // their mean; a scatter keeps every row as its own point.
      const series = make_series(rows, s.x, s.y[0], s.by, {
        log_x: s.log_x, log_y: s.log_y, x_factor: factor(columns, s.x), y_factor: factor(columns, s.y[0]), aggregate: s.chart === 'line' });
      this.plotted = plotted_rows(series);
      points = series.reduce((n, d) => n + d.points.length, 0);
      series_count = series.length;
      config = {
        type: 'scatter',
        data: { datasets: series.map((d, i) => ({ label: d.label, data: d.points, showLine: s.chart === 'line', borderColor: colours[i % colours.length], backgroundColor: colours[i % colours.length] })) },
        options: this.options(columns, s.log_x ? 'logarithmic' : 'linear', s.log_y ? 'logarithmic' : 'linear'),
      };
    }
    const summary = document.getElementById('explorer-summary');
    summary.textContent = `${points} points in ${series_count} series from ${rows.length} rows`;
    summary.dataset.points = String(points);
    summary.dataset.series = String(series_count);
    if (!window.Chart) return;
    this.chart = new window.Chart(document.getElementById('explorer-canvas'), config);
  }

  options(columns, x_type, y_type) {
    const s = this.state;
    const row_of = (item) => (item.raw && item.raw.row) || (item.dataset.rows && item.dataset.rows[item.dataIndex]);
    return {
      animation: false,
      maintainAspectRatio: false,
      scales: {
        x: { type: x_type, title: { display: true, text: unit_label(columns, s.x) }, ticks: number_ticks(x_type) },
        y: { type: y_type, title: { display: true, text: s.y.map((y) => unit_label(columns, y)).join(', ') }, ticks: number_ticks(y_type) },
      },
      plugins: {
        tooltip: { callbacks: { afterLabel: (item) => point_text(item.raw, row_of(item)) } },
        legend: { position: 'bottom' },
      },
      onHover: (_, elements) => {
        if (!elements.length) return;
        const e = elements[0];
        const row = row_of({ raw: this.chart.data.datasets[e.datasetIndex].data[e.index], dataset: this.chart.data.datasets[e.datasetIndex], dataIndex: e.index });
        document.getElementById('row-detail').textContent = point_text(this.chart.data.datasets[e.datasetIndex].data[e.index], row);
      },
      onClick: (_, elements) => {
        if (!elements.length || !this.on_point) return;
        const e = elements[0];
        const d = this.chart.data.datasets[e.datasetIndex];
        const row = (d.data[e.index] && d.data[e.index].row) || (d.rows && d.rows[e.index]);
        if (row) this.on_point(row);
      },
    };
  }

  download_csv() {
    const names = this.data().columns.map((c) => c.name);
    download(`job-${this.kind}-plotted.csv`, to_csv(names, this.plotted));
  }

  close() {
    if (this.chart) this.chart.destroy();
  }
}

// Tick labels of a numeric axis in four significant digits (a log axis of seconds otherwise reads
// "2.0000000E-6"); a category axis keeps its labels.
function number_ticks(type) {
  return type === 'category' ? {} : { callback: (v) => format_number(v, 4) };
}

// A row as one line: its parameters and main metrics (what hover shows), clocks in MHz.
export function row_text(row) {
  if (!row) return '';
  return Object.entries(row)
    .filter(([, v]) => v !== null && typeof v !== 'object')
    .map(([k, v]) => {
      const f = mhz_factor(k, '');
      return f !== null && typeof v === 'number' ? `${clock_name(k)}=${mhz_text(v, f)} MHz` : `${k}=${format_number(v)}`;
    }).join('  ');
}

// A point's line: its row, and for a line's point made of repeats how many it is the mean of.
function point_text(point, row) {
  const n = point && point.n;
  return (n > 1 ? `mean of ${n} rows; the first: ` : '') + row_text(row);
}
