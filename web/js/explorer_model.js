// The results explorer's data logic, free of the DOM so that tests call it with known rows:
// which columns can be plotted, the values a parameter takes, the rows left once some
// parameters are fixed, and the series (one per value of the colour columns) of x against y.

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

// The series label of a row for colour columns `by` ("half, tensor=true"; "all" without any).
export function series_label(row, by) {
  if (!by.length) return 'all';
  return by.map((c) => (typeof row[c] === 'boolean' ? `${c}=${row[c]}` : String(row[c]))).join(', ');
}

// Series of {x, y, row} points sorted by x, one per distinct label, labels sorted; rows without
// a numeric x or y (or, on a log axis, a positive one) are left out.
export function make_series(rows, x, y, by = [], { log_x = false, log_y = false } = {}) {
  const groups = new Map();
  for (const row of rows) {
    const px = as_number(row[x]), py = as_number(row[y]);
    if (px === null || py === null || (log_x && px <= 0) || (log_y && py <= 0)) continue;
    const label = series_label(row, by);
    if (!groups.has(label)) groups.set(label, []);
    groups.get(label).push({ x: px, y: py, row });
  }
  return [...groups.entries()]
    .sort((a, b) => a[0].localeCompare(b[0], undefined, { numeric: true }))
    .map(([label, points]) => ({ label, points: points.sort((a, b) => a.x - b.x) }));
}

// The rows behind the plotted points, in series order (what the CSV download holds).
export function plotted_rows(series) {
  return series.flatMap((s) => s.points.map((p) => p.row));
}
