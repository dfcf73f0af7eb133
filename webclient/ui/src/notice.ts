// Notices: errors and confirmations shown briefly at the top of the page (an ARIA live
// region).

import { change } from './state';

export const notices: { id: number; text: string; kind: 'error' | 'info' }[] = [];
let seq = 0;

export function notify(text: string, kind: 'error' | 'info' = 'info'): void {
  const id = ++seq;
  notices.push({ id, text, kind });
  change();
  setTimeout(() => {
    const i = notices.findIndex((n) => n.id === id);
    if (i >= 0) notices.splice(i, 1);
    change();
  }, 6000);
}

export function showError(e: unknown): void {
  notify(e instanceof Error ? e.message : String(e), 'error');
}
