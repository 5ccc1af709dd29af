// The plotting libraries, from Debian's libjs-* packages as the daemon serves them at
// /javascript/ (its javascript_dir). A missing one is named on the page with the file the daemon
// looked for, instead of a plot that silently never appears.
export const libraries = [
  { package: 'libjs-dygraphs', url: '/javascript/dygraphs/dygraph.min.js', global: 'Dygraph', use: 'live plots and samples',
    css: '/javascript/dygraphs/dygraph.min.css' },
  { package: 'libjs-chart.js', url: '/javascript/chart.js/chart.min.js', global: 'Chart', use: 'results explorer' },
];

function add_script(url) {
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = url;
    s.onload = resolve;
    s.onerror = () => reject(new Error(`${url} did not load`));
    document.head.append(s);
  });
}

// Loads one library; resolves with null when loaded, or with the sentence to show.
export async function load_library(lib) {
  if (window[lib.global]) return null;
  const res = await fetch(lib.url, { method: 'GET', cache: 'no-store' });
  if (!res.ok) {
    let reason = `${lib.url} answered HTTP ${res.status}`;
    try { reason = (await res.json()).error.message; } catch (_) { /* keep the status */ }
    return `${lib.package} is not installed: ${reason} (needed for the ${lib.use})`;
  }
  try {
    await add_script(lib.url);
    // The library's own stylesheet (dygraphs places its legend with it), once the package is known
    // to be there.
    if (lib.css) document.head.append(Object.assign(document.createElement('link'), { rel: 'stylesheet', href: lib.css }));
  } catch (e) {
    return `${lib.package} could not be loaded: ${e.message}`;
  }
  return window[lib.global] ? null : `${lib.package}: ${lib.url} did not define ${lib.global}`;
}

// Loads every library; shows the missing ones in #library-errors and returns their sentences.
export async function load_libraries() {
  const missing = (await Promise.all(libraries.map(load_library))).filter((m) => m);
  const box = document.getElementById('library-errors');
  box.textContent = missing.join('\n');
  box.hidden = missing.length === 0;
  return missing;
}

export function have(global) {
  return Boolean(window[global]);
}
