// Small DOM builders: every text goes through textContent (never innerHTML), so nothing the API
// returns can become markup.
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'hidden' || k === 'selected' || k === 'disabled') e[k] = Boolean(v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  return e;
}

// A two-column table of [name, value] pairs.
export function pairs_table(pairs, id) {
  return el('table', { id }, pairs.map(([k, v]) => el('tr', {}, el('th', {}, k), el('td', {}, v === null || v === undefined ? '–' : String(v)))));
}

export function select(id, options, value, onchange) {
  return el('select', { id, onchange },
    options.map((o) => {
      const [v, label] = Array.isArray(o) ? o : [o, o];
      return el('option', { value: String(v), selected: String(v) === String(value) }, label);
    }));
}

export function show_message(text) {
  const box = document.getElementById('messages');
  box.textContent = text || '';
  box.hidden = !text;
}

export function format_number(v, digits = 4) {
  if (typeof v !== 'number' || !Number.isFinite(v)) return v === null || v === undefined ? '–' : String(v);
  if (Number.isInteger(v)) return String(v);
  return Number(v.toPrecision(digits)).toString();
}

export function format_duration(s) {
  if (typeof s !== 'number' || !Number.isFinite(s)) return '–';
  if (s < 60) return `${Math.round(s)} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}
