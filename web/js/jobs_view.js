// The job list: state, progress and ETA, filtered by state, kind and tag (the API's own
// filters). The running job's progress and ETA come live from its event stream; the list itself
// is re-read every few seconds for jobs that were queued or finished meanwhile.
import { get_json, events } from './api.js';
import { el, select, format_duration } from './dom.js';
import { format_eta_basis } from './eta_basis.js';

export const states = ['', 'queued', 'running', 'succeeded', 'partial', 'failed', 'cancelled', 'interrupted'];

// The query string of the list for the filters {state, kind, tag} (empty ones left out).
export function jobs_query(filters) {
  const q = new URLSearchParams();
  for (const key of ['state', 'kind', 'tag']) if (filters[key]) q.set(key, filters[key]);
  q.set('limit', '200');
  return `/v1/jobs?${q}`;
}

export function progress_cell(p) {
  const bar = el('span', { class: 'progress' }, el('span'));
  bar.firstChild.style.width = `${Math.round(100 * (p.total ? p.done / p.total : 0))}%`;
  return [bar, ` ${p.done}/${p.total}`];
}

export class jobs_view {
  constructor(root, filters = {}) {
    this.root = root;
    this.filters = Object.assign({ state: '', kind: '', tag: '' }, filters);
    this.timer = null;
    this.stream = null;
    this.stream_id = 0;
  }

  async show() {
    const kinds = await get_json('/v1/kinds').then((k) => k.kinds.map((x) => x.kind)).catch(() => []);
    const on = (key) => (e) => { this.filters[key] = e.target.value; this.reload(); };
    this.root.replaceChildren(
      el('h2', {}, 'Jobs'),
      el('div', { class: 'controls' },
        el('label', {}, 'state', select('filter-state', states.map((s) => [s, s || 'any']), this.filters.state, on('state'))),
        el('label', {}, 'kind', select('filter-kind', [['', 'any'], ...kinds], this.filters.kind, on('kind'))),
        el('label', {}, 'tag', el('input', { id: 'filter-tag', value: this.filters.tag, onchange: on('tag') }))),
      el('table', { id: 'jobs-table' }));
    await this.reload();
    this.timer = setInterval(() => this.reload().catch(() => {}), 3000);
  }

  async reload() {
    const list = await get_json(jobs_query(this.filters));
    const table = document.getElementById('jobs-table');
    if (!table) return;
    table.replaceChildren(
      el('tr', {}, ['id', 'kind', 'state', 'progress', 'ETA', 'tags', 'created'].map((h) => el('th', {}, h))),
      ...list.jobs.map((j) => el('tr', { class: 'clickable', id: `job-row-${j.id}`, 'data-state': j.state, onclick: () => { location.hash = `#/jobs/${j.id}`; } },
        el('td', {}, j.id), el('td', {}, j.kind), el('td', { class: `state-${j.state}` }, j.state),
        el('td', { class: 'progress-cell' }, progress_cell(j.progress)),
        el('td', { class: 'eta-cell', title: j.state === 'running' ? format_eta_basis(j.progress.eta_basis) : '' },
          j.state === 'running' ? format_duration(j.progress.eta_s) : '–'),
        el('td', {}, j.tags.join(', ')), el('td', {}, j.created_at || ''))));
    this.follow(list.jobs.find((j) => j.state === 'running'));
  }

  // One event stream, for the running job (only one runs at a time): live progress and ETA.
  follow(job) {
    const id = job ? job.id : 0;
    if (id === this.stream_id) return;
    if (this.stream) this.stream.close();
    this.stream = null;
    this.stream_id = id;
    if (!id) return;
    this.stream = events(`/v1/jobs/${id}/events`, {
      progress: (p) => {
        const row = document.getElementById(`job-row-${id}`);
        if (!row) return;
        row.querySelector('.progress-cell').replaceChildren(...progress_cell(p));
        const cell = row.querySelector('.eta-cell');
        cell.textContent = format_duration(p.eta_s);
        cell.title = format_eta_basis(p.eta_basis);
      },
      end: () => { this.stream.close(); this.stream_id = 0; this.reload().catch(() => {}); },
    });
  }

  close() {
    clearInterval(this.timer);
    if (this.stream) this.stream.close();
  }
}
