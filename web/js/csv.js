// Rows as CSV (RFC 4180, CRLF) with the given columns in order, for the explorer's download.
// Lists join with ';' and objects as key=value pairs, as the API's own CSV does (csv_quote.cpp),
// and text that a spreadsheet would run as a formula (= + - @, tab, CR first) keeps a leading
// apostrophe: names come from users (networks, layers, tags). Numbers are never text here.
function cell(v) {
  if (v === null || v === undefined) return '';
  let s;
  if (Array.isArray(v)) s = v.join(';');
  else if (typeof v === 'object') s = Object.entries(v).map(([k, x]) => `${k}=${typeof x === 'object' ? JSON.stringify(x) : x}`).join(';');
  else s = String(v);
  if (typeof v !== 'number' && typeof v !== 'boolean' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function to_csv(names, rows) {
  return [names.map(cell).join(','), ...rows.map((r) => names.map((n) => cell(r[n])).join(','))].join('\r\n') + '\r\n';
}

// Offers `text` as a file download named `name` (a blob: URL, which the page's CSP allows).
export function download(name, text, type = 'text/csv') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
