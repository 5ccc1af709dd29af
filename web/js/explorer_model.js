// The results explorer's data logic, free of the DOM so that tests call it with known rows:
// which columns can be plotted, the values a parameter takes, the rows left once some
// parameters are fixed, and the series (one per value of the colour columns) of x against y.
import { mhz_factor, mhz_text, clock_name } from './clock_units.js';

const plottable_types = new Set(['integer', 'number', 'boolean']);

// Columns that can go on an axis: numbers, integers and booleans (as 0/1).
export function axis_columns(columns) {
  return columns.filter((c) => plottable_types.has(c.type));
}

// Every row has its own index and a status, which group nothing.
const bookkeeping = new Set(['index', 'status', 'reason', 'error']);

// Columns a point asked for (what can be fixed or coloured by), lists, objects and the row's
// bookkeeping excepted, that some row has a value for.
export function parameter_columns(columns, rows) {
  return columns.filter((c) => c.role === 'parameter' && c.type !== 'list' && c.type !== 'object' && !bookkeeping.has(c.name) &&
    rows.some((r) => r[c.name] !== null && r[c.name] !== undefined));
}

function compare_values(a, b) {
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
}

// The distinct non-null values of a column, sorted (numbers numerically).
export function distinct_values(rows, name) {
  const seen = new Map();
  for (const r of rows) {
    const v = r[name];
    if (v !== null && v !== undefined && !seen.has(String(v))) seen.set(String(v), v);
  }
  return [...seen.values()].sort(compare_values);
}

// The rows whose fixed columns hold the chosen values. `fixed` maps a column to a value (as the
// drop-down gives it: compared as text) or to '' / undefined for any value.
export function filter_rows(rows, fixed) {
  const wanted = Object.entries(fixed).filter(([, v]) => v !== '' && v !== undefined && v !== null);
  return rows.filter((r) => wanted.every(([k, v]) => r[k] !== null && r[k] !== undefined && String(r[k]) === String(v)));
}

export function as_number(v) {
  if (typeof v === 'boolean') return v ? 1 : 0;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

// The series label of a row for colour columns `by` ("half, tensor=true, gpu_freq=624.75 MHz";
// "all" without any): text as it is, other values named, clocks in MHz.
export function series_label(row, by) {
  if (!by.length) return 'all';
  return by.map((c) => {
    const v = row[c];
    const f = mhz_factor(c, '');
    if (f !== null && typeof v === 'number') return `${clock_name(c)}=${mhz_text(v, f)} MHz`;
    return typeof v === 'string' ? v : `${c}=${v}`;
  }).join(', ');
}

// The mean of each run of points at the same x (sorted by x): one point per x, carrying every
// row behind it (`rows`) and the first (`row`, whose samples a click shows).
function mean_per_x(points) {
  const out = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (last && last.x === p.x) {
      last.rows.push(p.row);
      last.sum += p.y;
      last.y = last.sum / last.rows.length;
    } else {
      out.push({ x: p.x, y: p.y, sum: p.y, row: p.row, rows: [p.row] });
    }
  }
  return out.map(({ x, y, row, rows }) => ({ x, y, row, rows, n: rows.length }));
}

// Series of {x, y, row} points sorted by x, one per distinct label, labels sorted; rows without
// a numeric x or y (or, on a log axis, a positive one) are left out. x_factor and y_factor scale
// the values (a clock to MHz). With `aggregate` (a line), the points of a series at the same x
// (its repeats) become one point at their mean, so that the line does not zig-zag through them.
export function make_series(rows, x, y, by = [], { log_x = false, log_y = false, x_factor = 1, y_factor = 1, aggregate = false } = {}) {
  const groups = new Map();
  for (const row of rows) {
    const px = as_number(row[x]), py = as_number(row[y]);
    if (px === null || py === null || (log_x && px <= 0) || (log_y && py <= 0)) continue;
    const label = series_label(row, by);
    if (!groups.has(label)) groups.set(label, []);
    groups.get(label).push({ x: px * x_factor, y: py * y_factor, row });
  }
  return [...groups.entries()]
    .sort((a, b) => a[0].localeCompare(b[0], undefined, { numeric: true }))
    .map(([label, points]) => {
      points.sort((a, b) => a.x - b.x);
      return { label, points: aggregate ? mean_per_x(points) : points };
    });
}

// The columns a preset splits its series by: the ones it names (`first`), then every other
// parameter that takes more than one value in `rows`, except the axes (`axes`), `repeat` (its
// rows are one setting measured again) and a column that the x axis already determines (a
// square gemm's n and k beside m).
export function split_columns(columns, rows, x, axes, first = []) {
  const out = [...first];
  for (const c of parameter_columns(columns, rows)) {
    const n = c.name;
    if (out.includes(n) || axes.includes(n) || n === 'repeat') continue;
    if (distinct_values(rows, n).length < 2 || determined_by(rows, x, n)) continue;
    out.push(n);
  }
  return out;
}

// Whether each value of column `x` comes with a single value of column `n`.
function determined_by(rows, x, n) {
  const seen = new Map();
  for (const r of rows) {
    const k = String(r[x]);
    if (!seen.has(k)) seen.set(k, String(r[n]));
    else if (seen.get(k) !== String(r[n])) return false;
  }
  return true;
}

// The rows behind the plotted points, in series order (what the CSV download holds).
export function plotted_rows(series) {
  return series.flatMap((s) => s.points.flatMap((p) => p.rows || [p.row]));
}
