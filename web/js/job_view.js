// One job: its state and progress (live from its event stream while it runs, with each finished
// point as it comes), spec, provenance and summary, actions (cancel, submit a copy), and once it
// has results the explorer and a point's samples.
import { get_json, act, events } from './api.js';
import { el, pairs_table, format_duration, show_message } from './dom.js';
import { progress_cell } from './jobs_view.js';
import { eta_text } from './eta_basis.js';
import { explorer_view } from './explorer_view.js';
import { samples_view } from './samples_view.js';
import { summary_tables_view } from './summary_tables.js';
import { json_table } from './json_table.js';

// A section of the job as a key/value table (`id`), its raw JSON behind a toggle (`id`-json).
function json_section(title, value, id, open, wide) {
  return el('details', { open, class: wide ? 'json-section wide' : 'json-section' }, el('summary', {}, title),
    json_table(value, id),
    el('details', { class: 'raw-json', id: `${id}-raw` }, el('summary', {}, 'raw JSON'),
      el('pre', { id: `${id}-json` }, JSON.stringify(value, null, 1))));
}

export class job_view {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.stream = null;
    this.explorer = null;
    this.samples = null;
  }

  async show() {
    const job = await get_json(`/v1/jobs/${this.id}`);
    this.job = job;
    const live = job.state === 'queued' || job.state === 'running';
    this.root.replaceChildren(
      el('h2', {}, `Job ${job.id}: ${job.kind} `, el('span', { id: 'job-state', class: `state-${job.state}` }, job.state)),
      el('div', { class: 'controls' },
        el('span', { id: 'job-progress' }, progress_cell(job.progress)),
        el('span', { id: 'job-eta' }, live ? eta_text(job.progress, format_duration) : ''),
        el('button', { id: 'job-cancel', hidden: !live, onclick: () => this.cancel() }, 'Cancel'),
        el('button', { id: 'job-copy', onclick: () => this.copy() }, 'Submit a copy')),
      job.error ? el('p', { class: 'error' }, job.error) : '',
      el('div', { class: 'grid' },
        json_section('Spec', job.spec, 'job-spec', true),
        json_section('Provenance', job.provenance, 'job-provenance', false),
        json_section('Summary', job.summary, 'job-summary', true, true)),
      el('div', { id: 'job-summary-tables' }),
      pairs_table([['tags', job.tags.join(', ')], ['created', job.created_at], ['started', job.started_at], ['finished', job.finished_at]]),
      el('h3', { hidden: !live }, 'Points as they finish'), el('table', { id: 'point-events', hidden: !live }),
      el('h3', {}, 'Results'), el('div', { id: 'explorer' }, live ? 'results appear when the job ends' : ''),
      el('div', { id: 'samples' }));
    await this.show_summary_tables();
    if (live) this.follow();
    else await this.show_results();
  }

  // The summary's declared tables (GET /v1/kinds/{kind}); a kind this daemon no longer has, or
  // one that declares none, leaves the summary's key/value table above as the only view.
  async show_summary_tables() {
    let kind = null;
    try {
      kind = await get_json(`/v1/kinds/${encodeURIComponent(this.job.kind)}`);
    } catch (_) {
      return;
    }
    const box = document.getElementById('job-summary-tables');
    if (box) box.replaceChildren(...summary_tables_view(kind.summary_tables, this.job.summary));
  }

  follow() {
    const table = document.getElementById('point-events');
    this.stream = events(`/v1/jobs/${this.id}/events`, {
      state: (s) => { document.getElementById('job-state').textContent = s.state; },
      progress: (p) => {
        document.getElementById('job-progress').replaceChildren(...progress_cell(p));
        document.getElementById('job-eta').textContent = eta_text(p, format_duration);
      },
      point: (p) => table.append(el('tr', {}, el('td', {}, `point ${p.index}`), el('td', {}, p.status))),
      end: () => { this.stream.close(); this.stream = null; this.show().catch((e) => show_message(e.message)); },
    });
  }

  async show_results() {
    const results = await get_json(`/v1/jobs/${this.id}/results`);
    const box = document.getElementById('explorer');
    if (!results.rows.length) { box.textContent = 'no results'; return; }
    this.samples = new samples_view(document.getElementById('samples'), this.job);
    this.explorer = new explorer_view(box, results, (row) => this.samples.show(row).catch((e) => show_message(e.message)));
    const presets = this.explorer.presets;
    if (presets.length) this.explorer.apply_preset(presets[0].id);
    else this.explorer.show();
  }

  async cancel() {
    try {
      await act('DELETE', `/v1/jobs/${this.id}`);
      show_message(`job ${this.id} cancelled`);
    } catch (e) {
      show_message(`cancel failed: ${e.message}`);
    }
  }

  async copy() {
    try {
      const j = await act('POST', '/v1/jobs', { kind: this.job.kind, spec: this.job.spec, tags: this.job.tags });
      location.hash = `#/jobs/${j.id}`;
    } catch (e) {
      show_message(`submit failed: ${e.message}`);
    }
  }

  close() {
    if (this.stream) this.stream.close();
    if (this.explorer) this.explorer.close();
    if (this.samples) this.samples.close();
  }
}
