// The explorer's ready-made views per job kind (seed 000's plots and seed 001's bars). A preset
// names x, y (one column, or several side by side for bars), the colour columns and the chart;
// some first derive rows (the tensor on/off ratio, the most efficient clock per size).
import { parameter_columns, as_number, split_columns } from './explorer_model.js';

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

// Key of a row over `names` (the group it belongs to).
function key_of(row, names) {
  return names.map((n) => String(row[n])).join('\u0001');
}

// The clock axis of a sweep: the first clock column that takes more than one value.
export function clock_column(columns, rows) {
  for (const name of ['gpu_freq_hz', 'cpu_freq_khz', 'emc_freq_hz'])
    if (columns.some((c) => c.name === name) && new Set(rows.map((r) => r[name])).size > 1) return name;
  return 'gpu_freq_hz';
}

// Per group of equal parameters (tensor and repeat aside), mean(metric with tensor on) / mean(metric
// with tensor off): one row per group that has both, carrying the group's parameters.
export function tensor_ratio(columns, rows, metric = 'gflops') {
  const keys = parameter_columns(columns, rows).map((c) => c.name).filter((n) => n !== 'tensor' && n !== 'repeat');
  const groups = new Map();
  for (const r of rows) {
    const v = as_number(r[metric]);
    if (r.status !== 'ok' || v === null || typeof r.tensor !== 'boolean') continue;
    const k = key_of(r, keys);
    if (!groups.has(k)) groups.set(k, { row: r, on: [], off: [] });
    groups.get(k)[r.tensor ? 'on' : 'off'].push(v);
  }
  const out = [];
  for (const g of groups.values()) {
    if (!g.on.length || !g.off.length || mean(g.off) === 0) continue;
    const row = {};
    for (const k of keys) row[k] = g.row[k];
    row.tensor_on_off_ratio = mean(g.on) / mean(g.off);
    out.push(row);
  }
  return out;
}

// Flags that keep a row out of every verdict, as the server's: other processes took CPU time
// from its window (contended), or the window ended short of its precision target (rse_unmet).
const verdict_exclusions = ['contended', 'rse_unmet'];
const left_out = (r) => Array.isArray(r.flags) && r.flags.some((f) => verdict_exclusions.includes(f));

// Per group of equal parameters (the clock and repeat aside), the row with the highest `metric`,
// from the rows no flag leaves out.
export function most_efficient(columns, rows, clock, metric = 'gflops_per_w') {
  const keys = parameter_columns(columns, rows).map((c) => c.name).filter((n) => n !== clock && n !== 'repeat');
  const best = new Map();
  for (const r of rows) {
    const v = as_number(r[metric]);
    if (r.status !== 'ok' || v === null || left_out(r)) continue;
    const k = key_of(r, keys);
    if (!best.has(k) || v > as_number(best.get(k)[metric])) best.set(k, r);
  }
  return [...best.values()];
}

// Layer rows with the end-to-end row's in-context median beside each isolated one.
export function with_in_context(rows) {
  const whole = rows.find((r) => r.in_context && typeof r.in_context === 'object');
  return rows.filter((r) => r.layer_index !== null && r.layer_index !== undefined && r !== whole).map((r) => {
    const c = whole && whole.in_context[String(r.layer_index)];
    return Object.assign({}, r, { in_context_median_s: c ? c.median_s : null });
  });
}

// One row per mapping (a multi_dnn mapping has one row per network stage).
export function per_mapping(rows) {
  const seen = new Map();
  for (const r of rows) if (!seen.has(r.mapping_id)) seen.set(r.mapping_id, r);
  return [...seen.values()];
}

const number_column = (name, unit, description) => ({ name, type: 'number', role: 'metric', unit, description });

// The presets of a kind for a job's columns and rows. Each: {id, label, x, y: [names], by, chart
// ('line' | 'scatter' | 'bar'), log_x, log_y, derive(columns, rows) -> {columns, rows} or null}.
// A preset's series are split by the columns it names and then by every other parameter the job
// swept (a clock, a power mode, a batch), so that no series joins two settings into a zig-zag.
// `spec` (the job's) says which board settings were swept.
export function presets_for(kind, columns, rows, spec) {
  const unswept = unswept_settings(spec);
  return declared_presets(kind, columns, rows).map((p) => {
    const d = p.derive ? p.derive(columns, rows) : { columns, rows };
    return Object.assign(p, { by: split_columns(d.columns, d.rows, p.x, [p.x, ...p.y, ...unswept], p.by) });
  });
}

// The spec's list of each board setting a row records.
const setting_lists = { gpu_freq_hz: 'gpu_freqs', cpu_freq_khz: 'cpu_freqs', emc_freq_hz: 'emc_freqs', power_mode: 'power_modes' };

// The board settings a spec leaves as they are or sets to one value: their columns record what
// the board ran at (a clock the governor moved between points), which is no sweep to split by.
// Without a spec, none (the rows alone decide).
export function unswept_settings(spec) {
  if (!spec || typeof spec !== 'object') return [];
  return Object.keys(setting_lists).filter((c) => !(Array.isArray(spec[setting_lists[c]]) && spec[setting_lists[c]].length > 1));
}

function declared_presets(kind, columns, rows) {
  const has = (n) => columns.some((c) => c.name === n);
  if (kind === 'gemm') {
    const clock = clock_column(columns, rows);
    return [
      { id: 'gflops', label: 'GFLOP/s against size per dtype and tensor', x: 'm', y: ['gflops'], by: ['dtype', 'tensor'], chart: 'line', log_x: true, log_y: false },
      { id: 'gflops_per_w', label: 'GFLOP/s/W against size per dtype and tensor', x: 'm', y: ['gflops_per_w'], by: ['dtype', 'tensor'], chart: 'line', log_x: true, log_y: false },
      { id: 'tensor_ratio', label: 'tensor on/off GFLOP/s ratio against size', x: 'm', y: ['tensor_on_off_ratio'], by: ['dtype'], chart: 'line', log_x: true, log_y: false,
        derive: (c, r) => ({ columns: [...c, number_column('tensor_on_off_ratio', '', 'mean GFLOP/s with tensor cores on / off')], rows: tensor_ratio(c, r) }) },
      { id: 'best_clock', label: 'most efficient clock (GFLOP/s/W) per size', x: 'm', y: [clock], by: ['dtype', 'tensor'], chart: 'scatter', log_x: true, log_y: false,
        derive: (c, r) => ({ columns: c, rows: most_efficient(c, r, clock) }) },
    ];
  }
  if (kind === 'layers') {
    return [
      { id: 'latency', label: 'latency per layer: isolated and in context', x: 'layer_index', y: ['latency_median_s', 'in_context_median_s'], by: [], chart: 'bar', log_x: false, log_y: false,
        derive: (c, r) => ({ columns: [...c, number_column('in_context_median_s', 's', 'median latency inside the whole network')], rows: with_in_context(r) }) },
      { id: 'energy', label: 'energy per layer', x: 'layer_index', y: [has('energy_j') ? 'energy_j' : 'power_w'], by: [], chart: 'bar', log_x: false, log_y: false,
        derive: (c, r) => ({ columns: c, rows: with_in_context(r) }) },
    ];
  }
  if (kind === 'multi_dnn') {
    return [
      { id: 'throughput', label: 'throughput per mapping', x: 'mapping_id', y: ['throughput_ips'], by: [], chart: 'bar', log_x: false, log_y: false,
        derive: (c, r) => ({ columns: c, rows: per_mapping(r) }) },
    ];
  }
  return [];
}
