// The tables a kind declares in its job summary (GET /v1/kinds/{kind}: summary_tables), drawn
// from the declaration alone, as the client's `show` prints them: the page knows no kind's
// summary shape (a layers job's networks, a command job's runs and phases). Cells read as the
// client's do (client/output.cpp format_number): the same digits for the same number, except
// clocks, which read in MHz (the header says so) where the client prints the stored Hz or kHz.
import { el } from './dom.js';
import { mhz_factor, mhz_text, clock_label, clock_name, setting_text_in_mhz } from './clock_units.js';

// The value at a dotted path ("over_idle.gflops_per_w"); null where any step is missing.
export function at_path(v, path) {
  let at = v;
  for (const step of path.split('.')) {
    if (at === null || typeof at !== 'object' || Array.isArray(at) || !(step in at)) return null;
    at = at[step];
  }
  return at;
}

function trim_zeros(s) {
  return s.includes('.') && !s.includes('e') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

// C's %.3g: three significant digits, an exponent of two digits or more below 1e-4 and from 1e3.
function g3(v) {
  const [mantissa, exponent] = v.toExponential(2).split('e');
  const x = Number(exponent);
  if (x < -4 || x >= 3) return `${trim_zeros(mantissa)}e${x < 0 ? '-' : '+'}${String(Math.abs(x)).padStart(2, '0')}`;
  return trim_zeros(v.toFixed(2 - x));
}

// A number as the client's table prints it: whole numbers whole, else by magnitude.
export function number_text(v) {
  if (Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  const a = Math.abs(v);
  if (Number.isInteger(v) && a < 1e15) return v.toFixed(0);
  if (a >= 1e6 || a < 1e-3) return g3(v);
  if (a >= 1e4) return v.toFixed(0);
  if (a >= 100) return trim_zeros(v.toFixed(1));
  if (a >= 1) return trim_zeros(v.toFixed(3));
  return trim_zeros(v.toFixed(4));
}

export function cell_text(v) {
  if (v === null || v === undefined) return '–';
  if (typeof v === 'number') return number_text(v);
  if (typeof v === 'boolean' || typeof v === 'string') return String(v);
  if (Array.isArray(v)) return v.length ? v.map(cell_text).join(',') : '–';
  return JSON.stringify(v);
}

// A clock's cell in MHz (a setting stored as text too); any other value as cell_text.
function value_text(v, name, unit) {
  const f = mhz_factor(name, unit);
  if (f !== null && typeof v === 'number') return mhz_text(v, f);
  return typeof v === 'string' ? setting_text_in_mhz(v) : cell_text(v);
}

// "cpu_freq=2201.6 MHz,gpu_freq=..." of a setting's non-null values; "as is" when none.
function setting_text(setting) {
  const parts = [];
  if (setting && typeof setting === 'object' && !Array.isArray(setting)) {
    for (const [k, v] of Object.entries(setting)) {
      if (v === null) continue;
      const f = mhz_factor(k, '');
      parts.push(f !== null && typeof v === 'number' ? `${clock_name(k)}=${mhz_text(v, f)} MHz` : `${k}=${cell_text(v)}`);
    }
  }
  return parts.length ? parts.join(',') : 'as is';
}

function column_text(c, row, parent, key) {
  if (c.source === 'key') return key;
  const from = c.source === 'parent' ? parent : row;
  const value = at_path(from, c.path);
  if (c.format === 'setting') return setting_text(value);
  if (c.format === 'fraction') return `${cell_text(value)}/${cell_text(at_path(from, c.of))}`;
  return value_text(value, c.header, c.unit);
}

// The table's rows as cell texts, in the summary's order (a nested table: each row's members in
// their order); entries that are not objects are passed over.
export function table_rows(table, summary) {
  const list = summary && Array.isArray(summary[table.rows]) ? summary[table.rows] : [];
  const out = [];
  for (const r of list) {
    if (!r || typeof r !== 'object' || Array.isArray(r)) continue;
    if (!table.nested) {
      out.push(table.columns.map((c) => column_text(c, r, {}, '')));
      continue;
    }
    const members = r[table.nested];
    if (!members || typeof members !== 'object' || Array.isArray(members)) continue;
    // The server's objects hold their keys in text order; JavaScript would put numeric names first.
    const names = Object.keys(members).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names) out.push(table.columns.map((c) => column_text(c, members[name], r, name)));
  }
  return out;
}

// One element per declared table whose rows the summary holds: its title, then the table (or
// its empty text). Nothing for a summary that holds none of them.
export function summary_tables_view(tables, summary) {
  const parts = [];
  for (const t of tables || []) {
    if (!summary || !Array.isArray(summary[t.rows])) continue;
    const rows = table_rows(t, summary);
    const box = el('div', { class: 'summary-table', id: `summary-table-${t.name}`, 'data-rows': String(rows.length) });
    if (t.title) box.append(el('h4', {}, t.title));
    if (!rows.length) {
      if (t.empty_text) box.append(el('p', {}, t.empty_text));
    } else {
      box.append(el('table', {},
        el('thead', {}, el('tr', {}, t.columns.map((c) => el('th', { title: c.unit ? `unit: ${c.unit}` : undefined }, clock_label(c.header, c.unit, c.header))))),
        el('tbody', {}, rows.map((cells) => el('tr', {}, cells.map((x) => el('td', {}, x)))))));
    }
    parts.push(box);
  }
  return parts;
}
