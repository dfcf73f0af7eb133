// Dialogs: one's own settings (theme, name, status, avatar, password, Enter sends) and, for
// administrators, the basics of running the organization (create a channel, subscribe people,
// make an invitation link, deactivate a user).

import { useState } from 'preact/hooks';
import { call } from './api';
import { applyTheme, change, state } from './state';
import { notify, showError } from './notice';
import { resolveRecipients } from './compose';

function Dialog(props: { title: string; onClose: () => void; children: any }) {
  return (
    <div class="dialog-backdrop" onClick={(e) => { if (e.target === e.currentTarget) props.onClose(); }}>
      <div class="dialog" role="dialog" aria-modal="true" aria-label={props.title}>
        <h2>{props.title}</h2>
        {props.children}
        <div class="row"><button type="button" onClick={props.onClose}>Close</button></div>
      </div>
    </div>
  );
}

function val(e: Event): string {
  return (e.target as HTMLInputElement).value;
}

async function run(f: () => Promise<any>, done: string): Promise<boolean> {
  try {
    await f();
    notify(done);
    return true;
  } catch (e) {
    showError(e);
    return false;
  }
}

export function SettingsDialog(props: { onClose: () => void }) {
  const [name, setName] = useState(state.me.full_name);
  const status = state.statuses.get(state.me.user_id);
  const [statusText, setStatusText] = useState(status?.status_text || '');
  const [oldPw, setOldPw] = useState('');
  const [newPw, setNewPw] = useState('');
  const setScheme = (scheme: number) => {
    state.settings = { ...state.settings, color_scheme: scheme };
    applyTheme();
    change();
    call('PATCH', 'settings', { color_scheme: scheme }).catch(showError);
  };
  return (
    <Dialog title="Settings" onClose={props.onClose}>
      <fieldset>
        <legend>Theme</legend>
        {[[1, 'Automatic'], [3, 'Light'], [2, 'Dark']].map(([v, label]) => (
          <label key={v}><input type="radio" name="theme" checked={state.settings.color_scheme === v} onChange={() => setScheme(v as number)} /> {label}</label>
        ))}
      </fieldset>
      <form onSubmit={(e) => { e.preventDefault(); void run(() => call('PATCH', 'settings', { full_name: name }), 'Name saved.'); }}>
        <label>Name <input value={name} onInput={(e) => setName(val(e))} required /></label>
        <button type="submit">Save name</button>
      </form>
      <form onSubmit={(e) => { e.preventDefault(); void run(() => call('POST', 'users/me/status', { status_text: statusText }), 'Status saved.'); }}>
        <label>Status <input value={statusText} maxLength={60} placeholder="What are you up to?" onInput={(e) => setStatusText(val(e))} /></label>
        <button type="submit">Save status</button>
      </form>
      <label>Avatar <input type="file" accept="image/*" onChange={(e) => {
        const f = (e.target as HTMLInputElement).files?.[0];
        if (!f) return;
        const body = new FormData();
        body.append('file', f, f.name);
        void run(async () => {
          const res = await fetch('/json/users/me/avatar', { method: 'POST', body, credentials: 'same-origin', headers: { 'X-CSRFToken': (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || '' } });
          const d = await res.json();
          if (d.result !== 'success') throw new Error(d.msg);
        }, 'Avatar saved.');
      }} /></label>
      <form onSubmit={(e) => {
        e.preventDefault();
        void run(() => call('PATCH', 'settings', { old_password: oldPw, new_password: newPw }), 'Password changed.').then((ok) => { if (ok) { setOldPw(''); setNewPw(''); } });
      }}>
        <label>Current password <input type="password" autoComplete="current-password" value={oldPw} onInput={(e) => setOldPw(val(e))} required /></label>
        <label>New password <input type="password" autoComplete="new-password" value={newPw} onInput={(e) => setNewPw(val(e))} required /></label>
        <button type="submit">Change password</button>
      </form>
    </Dialog>
  );
}

export function AdminDialog(props: { onClose: () => void }) {
  const [channel, setChannel] = useState('');
  const [description, setDescription] = useState('');
  const [people, setPeople] = useState('');
  const [subStream, setSubStream] = useState(0);
  const [subPeople, setSubPeople] = useState('');
  const [invite, setInvite] = useState('');
  const [deactivate, setDeactivate] = useState(0);
  const streams = [...state.streams.values()].sort((a, b) => a.name.localeCompare(b.name));
  const users = [...state.users.values()].filter((u) => u.is_active !== false && !u.is_bot && u.user_id !== state.me.user_id).sort((a, b) => a.full_name.localeCompare(b.full_name));
  const principals = (text: string) => {
    const r = resolveRecipients(text);
    if (r.unknown.length) throw new Error('Unknown user: ' + r.unknown.join(', '));
    return r.ids;
  };
  return (
    <Dialog title="Administration" onClose={props.onClose}>
      <form onSubmit={(e) => {
        e.preventDefault();
        void run(() => call('POST', 'users/me/subscriptions', {
          subscriptions: [{ name: channel, description }],
          principals: [state.me.user_id, ...principals(people)],
        }), `Channel #${channel} created.`).then((ok) => { if (ok) { setChannel(''); setDescription(''); setPeople(''); } });
      }}>
        <h3>Create a channel</h3>
        <label>Channel name <input value={channel} onInput={(e) => setChannel(val(e))} required /></label>
        <label>Description <input value={description} onInput={(e) => setDescription(val(e))} /></label>
        <label>Subscribers <input value={people} placeholder="Names or emails, separated by commas" onInput={(e) => setPeople(val(e))} /></label>
        <button type="submit">Create channel</button>
      </form>
      <form onSubmit={(e) => {
        e.preventDefault();
        const s = state.streams.get(subStream || streams[0]?.stream_id);
        if (!s) return;
        void run(() => call('POST', 'users/me/subscriptions', { subscriptions: [{ name: s.name }], principals: principals(subPeople) }), `Subscribed to #${s.name}.`)
          .then((ok) => { if (ok) setSubPeople(''); });
      }}>
        <h3>Subscribe people</h3>
        <label>Channel <select value={subStream} onChange={(e) => setSubStream(Number(val(e)))}>
          {streams.map((s) => <option key={s.stream_id} value={s.stream_id}>#{s.name}</option>)}
        </select></label>
        <label>People <input value={subPeople} placeholder="Names or emails, separated by commas" onInput={(e) => setSubPeople(val(e))} required /></label>
        <button type="submit">Subscribe</button>
      </form>
      <div>
        <h3>Invitation link</h3>
        <button type="button" onClick={() => void run(async () => {
          const r = await call('POST', 'invites/multiuse', { invite_expires_in_minutes: 10080, invite_as: 400, stream_ids: [] });
          setInvite(r.invite_link);
        }, 'Invitation link made.')}>Make an invitation link</button>
        {invite && <p><label>Link <input readOnly value={invite} onFocus={(e) => (e.target as HTMLInputElement).select()} /></label></p>}
      </div>
      <form onSubmit={(e) => {
        e.preventDefault();
        const id = deactivate || users[0]?.user_id;
        const u = state.users.get(id);
        if (!u || !confirm(`Deactivate ${u.full_name}?`)) return;
        void run(() => call('DELETE', `users/${id}`), `${u.full_name} deactivated.`);
      }}>
        <h3>Deactivate a user</h3>
        <label>User <select value={deactivate} onChange={(e) => setDeactivate(Number(val(e)))}>
          {users.map((u) => <option key={u.user_id} value={u.user_id}>{u.full_name}</option>)}
        </select></label>
        <button type="submit" class="danger">Deactivate</button>
      </form>
    </Dialog>
  );
}
