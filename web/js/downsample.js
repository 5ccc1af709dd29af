// Min/max per pixel column: of the rows of a ring that fall in one column of the plot, keep the
// first, the last, and for every series the row holding its minimum and the row holding its
// maximum. Those are real rows, so every peak and dip survives; a plot `columns` pixels wide gets
// at most (2 + 2 x series) x columns rows whatever the ring holds.

// Indices (oldest first, 0..ring.length-1) of the rows to draw between times t0 and t1.
export function min_max_indices(r, columns, t0, t1) {
  const out = [];
  if (r.length === 0 || columns < 1) return out;
  const span = t1 > t0 ? t1 - t0 : 1;
  const w = r.width;
  const lo = new Int32Array(w), hi = new Int32Array(w);
  const lo_v = new Float64Array(w), hi_v = new Float64Array(w);
  let column = -1, first = -1, last = -1;
  const flush = () => {
    if (first < 0) return;
    const picked = [first, last];
    for (let j = 0; j < w; ++j) if (lo[j] >= 0) picked.push(lo[j], hi[j]);
    picked.sort((a, b) => a - b);
    for (let k = 0; k < picked.length; ++k) if (k === 0 || picked[k] !== picked[k - 1]) out.push(picked[k]);
  };
  for (let i = 0; i < r.length; ++i) {
    const s = r.slot(i);
    const t = r.times[s];
    if (t < t0 || t > t1) continue;
    const c = Math.min(columns - 1, Math.floor(((t - t0) / span) * columns));
    if (c !== column) {
      flush();
      column = c;
      first = i;
      lo.fill(-1);
      hi.fill(-1);
    }
    last = i;
    for (let j = 0; j < w; ++j) {
      const v = r.values[j][s];
      if (Number.isNaN(v)) continue;
      if (lo[j] < 0 || v < lo_v[j]) { lo[j] = i; lo_v[j] = v; }
      if (hi[j] < 0 || v > hi_v[j]) { hi[j] = i; hi_v[j] = v; }
    }
  }
  flush();
  return out;
}

// Rows [x, v1, ..., vn] for a plot, x in seconds relative to `t_ref` (ns), NaN as null (a gap).
export function downsample_rows(r, columns, t0, t1, t_ref) {
  return min_max_indices(r, columns, t0, t1).map((i) => {
    const s = r.slot(i);
    const row = [(r.times[s] - t_ref) / 1e9];
    for (let j = 0; j < r.width; ++j) {
      const v = r.values[j][s];
      row.push(Number.isNaN(v) ? null : v);
    }
    return row;
  });
}
