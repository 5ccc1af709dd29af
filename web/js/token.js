// The API token for actions (cancel, copy, restore clocks), kept in this tab's sessionStorage
// only: it goes when the tab closes and is never written to a cookie or to localStorage.
const key = 'jetperf.token';

export function token() {
  return sessionStorage.getItem(key) || '';
}

export function set_token(value) {
  if (value) sessionStorage.setItem(key, value);
  else sessionStorage.removeItem(key);
}

// Shows the header's token field; resolves with the token once one is entered (at once when the
// tab already has one).
export function ask_for_token(reason) {
  if (token()) return Promise.resolve(token());
  const form = document.getElementById('token-form');
  const input = document.getElementById('token-input');
  form.hidden = false;
  input.placeholder = reason || 'needed for this action';
  input.focus();
  return new Promise((resolve) => {
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      set_token(input.value.trim());
      input.value = '';
      form.hidden = true;
      show_forget();
      resolve(token());
    }, { once: true });
  });
}

export function show_forget() {
  const forget = document.getElementById('token-forget');
  forget.hidden = !token();
  forget.onclick = () => { set_token(''); forget.hidden = true; };
}
