// The dashboard's script, as the browser runs it (bundled by ../script.ts): the key form, Forget,
// and a look again when a hidden tab is shown. The key is kept in the tab's sessionStorage and
// sent in a header, never in a URL; every element is built with textContent, so no value of the
// sandbox is ever read as HTML.
import { element } from './dom.js';
import { forget, poll, start } from './polling.js';
import { KEY_ITEM, state } from './state.js';
import { say } from './status.js';

element('key-form').addEventListener('submit', (submitted) => {
  submitted.preventDefault();
  const key = element<HTMLInputElement>('api-key').value.trim();
  if (key === '') {
    say('Type an API key first.');
    return;
  }
  state.key = key;
  sessionStorage.setItem(KEY_ITEM, key);
  start();
});
element('forget').addEventListener('click', () => {
  forget();
  element<HTMLInputElement>('api-key').value = '';
  say('The key is forgotten. Type an API key to see its channel.');
});
// A hidden tab does not poll; it looks again as soon as it is shown.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && state.polling) {
    window.clearTimeout(state.timer);
    void poll();
  }
});
if (state.key !== '') {
  element<HTMLInputElement>('api-key').value = state.key;
  start();
}
