// A job's spec, summary or provenance as tables a person reads: one row per key, nested objects
// flattened into dotted keys ("params.cpu_freq_khz"), lists of objects as a sub-table (one row
// per entry, one column per key any entry has), clocks in MHz. The raw JSON stays one click away
// (job_view.js). Text only through el(), never markup.
import { el } from './dom.js';
import { number_text } from './summary_tables.js';
import { mhz_factor, mhz_text, clock_label, setting_text_in_mhz } from './clock_units.js';

const is_object = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const is_record_list = (v) => Array.isArray(v) && v.length > 0 && v.every(is_object);

// [key, value] pairs of `v` with nested objects flattened into dotted keys; lists kept whole.
export function flatten(v, prefix = '') {
  const out = [];
  for (const [k, x] of Object.entries(v)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (is_object(x) && Object.keys(x).length) out.push(...flatten(x, key));
    else out.push([key, x]);
  }
  return out;
}

// The last step of a dotted key: what says whether it is a clock.
const leaf = (key) => key.slice(key.lastIndexOf('.') + 1);

// A value's text: numbers as the client prints them, clocks in MHz, lists joined.
export function value_text(key, v) {
  if (v === null || v === undefined) return '–';
  const f = mhz_factor(leaf(key), '');
  if (f !== null && typeof v === 'number') return mhz_text(v, f);
  if (typeof v === 'number') return number_text(v);
  if (Array.isArray(v)) return v.length ? v.map((x) => value_text(key, x)).join(', ') : '–';
  if (is_object(v)) return Object.keys(v).length ? JSON.stringify(v) : '–';
  return typeof v === 'string' ? setting_text_in_mhz(v) : String(v);
}

// A key as a row or column header: a clock's says MHz.
export function key_text(key) {
  const l = leaf(key);
  const label = clock_label(l, '', null);
  return label === null ? key : key.slice(0, key.length - l.length) + label;
}

// One row per entry of a list of objects, one column per flattened key in first-seen order.
export function records_table(list) {
  const rows = list.map((r) => flatten(r));
  const keys = [];
  for (const r of rows) for (const [k] of r) if (!keys.includes(k)) keys.push(k);
  return el('table', { class: 'records' },
    el('thead', {}, el('tr', {}, keys.map((k) => el('th', {}, key_text(k))))),
    el('tbody', {}, rows.map((r) => {
      const at = new Map(r);
      return el('tr', {}, keys.map((k) => el('td', {}, value_text(k, at.get(k)))));
    })));
}

// The key/value table of an object (`id` on the table); a list of objects in it becomes a
// sub-table in its value cell.
export function json_table(v, id) {
  if (!is_object(v)) return el('p', { id }, value_text('', v));
  return el('table', { id, class: 'keys' }, flatten(v).map(([k, x]) =>
    el('tr', {}, el('th', {}, key_text(k)), el('td', {}, is_record_list(x) ? records_table(x) : value_text(k, x)))));
}
