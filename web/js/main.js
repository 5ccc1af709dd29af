// The page's entry: loads the plotting libraries (naming any that is missing), then shows the
// view the address's #fragment names: #/board (default), #/jobs[?state=&kind=&tag=], #/jobs/ID.
import { load_libraries } from './libraries.js';
import { show_forget } from './token.js';
import { show_message } from './dom.js';
import { board_view } from './board_view.js';
import { jobs_view } from './jobs_view.js';
import { job_view } from './job_view.js';

let current = null;

function view_for(hash, root) {
  const [path, query] = hash.replace(/^#/, '').split('?');
  const job = /^\/jobs\/(\d+)$/.exec(path);
  if (job) return new job_view(root, Number(job[1]));
  if (path === '/jobs') return new jobs_view(root, Object.fromEntries(new URLSearchParams(query || '')));
  return new board_view(root);
}

async function route() {
  if (current) current.close();
  show_message('');
  const root = document.getElementById('view');
  for (const a of document.querySelectorAll('header nav a')) a.classList.toggle('active', location.hash.startsWith(a.getAttribute('href')));
  current = view_for(location.hash, root);
  try {
    await current.show();
  } catch (e) {
    show_message(`could not show this view: ${e.message}`);
  }
  // What the browser test waits for: the view's first data is on the page.
  document.body.dataset.view = location.hash || '#/board';
}

async function start() {
  show_forget();
  await load_libraries();
  window.addEventListener('hashchange', route);
  await route();
  document.body.dataset.ready = 'true';
}

start();
