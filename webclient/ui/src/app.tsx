// The page: header (organization, search, settings, log out), the sidebar, the view's title
// and messages, the compose box, and the people.

import { useEffect, useState } from 'preact/hooks';
import { call, postForm } from './api';
import { Compose } from './compose';
import { MessageList } from './messages';
import { parseHash, viewHash, type View } from './narrow';
import { notices, showError } from './notice';
import { ProfileCard, UserList } from './people';
import { AdminDialog, SettingsDialog } from './settings';
import { Sidebar } from './sidebar';
import { change, openView, state, subscribe, userName } from './state';

export function viewTitle(v: View): string {
  switch (v.kind) {
    case 'feed':
      return 'Combined feed';
    case 'channel': {
      const name = '#' + (state.streams.get(v.streamId)?.name || 'unknown channel');
      return v.topic === undefined ? name : `${name} › ${v.topic || '(no topic)'}`;
    }
    case 'dm':
      return v.userIds.length ? 'Direct messages with ' + v.userIds.map(userName).join(', ') : 'Direct messages with yourself';
    case 'mentions':
      return 'Mentions';
    case 'starred':
      return 'Starred messages';
    case 'search':
      return `Search results for “${v.query}”`;
  }
}

type DialogState = { kind: 'none' } | { kind: 'settings' } | { kind: 'admin' } | { kind: 'profile'; userId: number };

export function App() {
  const [, setTick] = useState(0);
  const [view, setView] = useState<View>(parseHash(location.hash));
  const [dialog, setDialog] = useState<DialogState>({ kind: 'none' });
  const [query, setQuery] = useState(view.kind === 'search' ? view.query : '');

  useEffect(() => subscribe(() => setTick((t) => t + 1)), []);
  useEffect(() => {
    const onHash = () => {
      const v = parseHash(location.hash);
      setView(v);
      if (v.kind === 'search') setQuery(v.query);
      if (state.ready) void openView(v);
    };
    window.addEventListener('hashchange', onHash);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setDialog({ kind: 'none' });
      const t = e.target as HTMLElement;
      const typing = t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
      if (!typing && e.key === '/') {
        e.preventDefault();
        document.querySelector<HTMLInputElement>('input[aria-label="Search"]')?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('hashchange', onHash);
      window.removeEventListener('keydown', onKey);
    };
  }, []);

  useEffect(() => {
    document.title = state.ready ? `${viewTitle(view)} - ${state.realm.name}` : document.title;
  });

  if (!state.ready) return <p class="loading" role="status">Loading…</p>;
  const title = viewTitle(view);

  // Clicks on a sender's name or a mention open the person's profile card.
  const onClick = (e: MouseEvent) => {
    const el = (e.target as HTMLElement).closest<HTMLElement>('[data-user-id]');
    if (el && el.closest('.message')) {
      const id = Number(el.dataset.userId);
      if (state.users.has(id)) setDialog({ kind: 'profile', userId: id });
    }
  };

  const markAllRead = async () => {
    try {
      await call('POST', 'mark_all_as_read');
      state.unread.clear();
      change();
    } catch (e) {
      showError(e);
    }
  };

  return (
    <div class="layout" onClick={onClick}>
      <header class="topbar">
        <a class="realm-name" href="#feed">{state.realm.name}</a>
        <form role="search" class="search" onSubmit={(e) => {
          e.preventDefault();
          const q = query.trim();
          location.hash = q ? viewHash({ kind: 'search', query: q }) : '#feed';
        }}>
          <input type="search" aria-label="Search" placeholder="Search messages" value={query} onInput={(e) => setQuery((e.target as HTMLInputElement).value)} />
          <button type="submit">Search</button>
        </form>
        {state.connection !== 'ok' && <span class="connection" role="status">Reconnecting…</span>}
        <span class="me">{state.me.full_name}</span>
        <button type="button" onClick={() => setDialog({ kind: 'settings' })}>Settings</button>
        {state.me.is_admin && <button type="button" onClick={() => setDialog({ kind: 'admin' })}>Administration</button>}
        <button type="button" onClick={() => postForm('/accounts/logout/')}>Log out</button>
      </header>
      <Sidebar view={view} />
      <main class="main">
        <div class="view-title">
          <h1>{title}</h1>
          <button type="button" onClick={markAllRead}>Mark all as read</button>
        </div>
        <MessageList title={title} />
        <Compose view={view} />
      </main>
      <UserList onOpen={(id) => setDialog({ kind: 'profile', userId: id })} />
      <div class="notices" aria-live="polite">
        {notices.map((n) => <p key={n.id} class={'notice ' + n.kind} role={n.kind === 'error' ? 'alert' : 'status'}>{n.text}</p>)}
      </div>
      {dialog.kind === 'settings' && <SettingsDialog onClose={() => setDialog({ kind: 'none' })} />}
      {dialog.kind === 'admin' && <AdminDialog onClose={() => setDialog({ kind: 'none' })} />}
      {dialog.kind === 'profile' && (
        <ProfileCard userId={dialog.userId} onClose={() => setDialog({ kind: 'none' })}
          onAdmin={(u) => {
            if (!confirm(`Deactivate ${u.full_name}?`)) return;
            call('DELETE', `users/${u.user_id}`).then(() => setDialog({ kind: 'none' })).catch(showError);
          }} />
      )}
    </div>
  );
}
