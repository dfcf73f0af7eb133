// The client's entry point: render the page, register, follow the URL's fragment, report
// presence.

import { render } from 'preact';
import { call } from './api';
import { App } from './app';
import { parseHash } from './narrow';
import { boot, change, state } from './state';

const root = document.getElementById('app')!;
root.textContent = '';
render(<App />, root);

void boot(parseHash(location.hash)).then(() => {
  change();
  const ping = () => {
    if (!state.ready) return;
    call('POST', 'users/me/presence', {
      status: document.visibilityState === 'visible' ? 'active' : 'idle',
      new_user_input: document.visibilityState === 'visible',
      slim_presence: true,
    }).catch(() => {});
  };
  ping();
  setInterval(ping, 60000);
  // Presence ages without events: "active" turns "offline" after the server's threshold.
  setInterval(change, 30000);
});

matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
  if (state.ready) {
    document.documentElement.dataset.theme = state.settings.color_scheme === 2 || (state.settings.color_scheme !== 3 && matchMedia('(prefers-color-scheme: dark)').matches) ? 'dark' : 'light';
  }
});
