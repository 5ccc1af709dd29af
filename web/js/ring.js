// A bounded ring of timed rows (one time, `width` values): the live plot keeps its last ten
// minutes here. Typed arrays, allocated once: pushing never allocates, and the oldest row is
// overwritten when the ring is full.
export class ring {
  constructor(capacity, width) {
    this.capacity = capacity;
    this.width = width;
    this.times = new Float64Array(capacity);
    this.values = Array.from({ length: width }, () => new Float64Array(capacity));
    this.start = 0;
    this.length = 0;
  }

  // `values[j]` null or undefined is stored as NaN (a gap in the plot).
  push(t, values) {
    const at = (this.start + this.length) % this.capacity;
    this.times[at] = t;
    for (let j = 0; j < this.width; ++j) {
      const v = values[j];
      this.values[j][at] = v === null || v === undefined ? NaN : v;
    }
    if (this.length < this.capacity) ++this.length;
    else this.start = (this.start + 1) % this.capacity;
  }

  // Physical slot of the i-th oldest row.
  slot(i) {
    return (this.start + i) % this.capacity;
  }

  last_time() {
    return this.length ? this.times[this.slot(this.length - 1)] : NaN;
  }
}
