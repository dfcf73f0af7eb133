// People: avatars, the user list with presence, and a user's profile card.

import { useState } from 'preact/hooks';
import { isActive, state, type User } from './state';
import { viewHash } from './narrow';
import { EmojiGlyph } from './emoji';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/);
  return ((parts[0]?.[0] || '?') + (parts.length > 1 ? parts[parts.length - 1][0] : '')).toUpperCase();
}

function hue(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) % 360;
  return h;
}

// Avatar shows a user's uploaded avatar (served by this server) or their initials: gravatar
// and other outside images are not fetched.
export function Avatar(props: { user?: User; name: string; size?: 'small' | 'large' }) {
  const url = props.user?.avatar_url;
  const cls = 'avatar' + (props.size ? ' ' + props.size : '');
  if (url && url.startsWith('/')) return <img class={cls} src={url} alt="" />;
  return <span class={cls + ' initials'} aria-hidden="true" style={{ backgroundColor: `hsl(${hue(props.name)} 45% 45%)` }}>{initials(props.name)}</span>;
}

function StatusText(props: { userId: number }) {
  const s = state.statuses.get(props.userId);
  if (!s || (!s.status_text && !s.emoji_name)) return null;
  return (
    <span class="status-text">
      {s.emoji_name && <EmojiGlyph name={s.emoji_name} code={s.emoji_code || ''} type={s.reaction_type || 'unicode_emoji'} />} {s.status_text}
    </span>
  );
}

export function UserList(props: { onOpen: (id: number) => void }) {
  const [q, setQ] = useState('');
  const users = [...state.users.values()]
    .filter((u) => u.is_active !== false && !u.is_bot && u.full_name.toLowerCase().includes(q.toLowerCase()))
    .sort((a, b) => Number(isActive(b.user_id)) - Number(isActive(a.user_id)) || a.full_name.localeCompare(b.full_name));
  return (
    <aside class="people" aria-label="People">
      <h2>People</h2>
      <input type="search" aria-label="Filter people" placeholder="Filter people" value={q} onInput={(e) => setQ((e.target as HTMLInputElement).value)} />
      <ul>
        {users.slice(0, 300).map((u) => {
          const active = isActive(u.user_id);
          return (
            <li key={u.user_id}>
              <span class={'presence ' + (active ? 'active' : 'offline')} role="img" aria-label={active ? 'Active' : 'Offline'} />
              <button type="button" class="person linklike" onClick={() => props.onOpen(u.user_id)}>{u.full_name}</button>
              <StatusText userId={u.user_id} />
            </li>
          );
        })}
      </ul>
    </aside>
  );
}

function roleName(u: User): string {
  if (u.is_bot) return 'Bot';
  switch (u.role) {
    case 100: return 'Owner';
    case 200: return 'Administrator';
    case 300: return 'Moderator';
    case 600: return 'Guest';
  }
  return u.is_admin ? 'Administrator' : u.is_guest ? 'Guest' : 'Member';
}

// ProfileCard is a dialog with a user's name, role, status, presence and custom profile fields.
export function ProfileCard(props: { userId: number; onClose: () => void; onAdmin?: (u: User) => void }) {
  const u = state.users.get(props.userId);
  if (!u) return null;
  const fields = [...state.realm.profileFields].sort((a, b) => a.order - b.order);
  return (
    <div class="dialog-backdrop" onClick={(e) => { if (e.target === e.currentTarget) props.onClose(); }}>
      <div class="dialog profile-card" role="dialog" aria-modal="true" aria-label={u.full_name}>
        <div class="profile-head">
          <Avatar user={u} name={u.full_name} size="large" />
          <div>
            <h2>{u.full_name}</h2>
            <p class="muted">{u.delivery_email || u.email}</p>
            <p>{roleName(u)}{u.is_active === false ? ' (deactivated)' : ''} · {isActive(u.user_id) ? 'Active now' : 'Offline'}</p>
            <p><StatusText userId={u.user_id} /></p>
          </div>
        </div>
        {fields.length > 0 && (
          <dl class="profile-fields">
            {fields.map((f) => {
              const v = u.profile_data?.[String(f.id)];
              if (!v || v.value === '' || v.value === null) return null;
              return [
                <dt key={'t' + f.id}>{f.name}</dt>,
                <dd key={'d' + f.id}>{v.rendered_value ? <span dangerouslySetInnerHTML={{ __html: v.rendered_value }} /> : String(v.value)}</dd>,
              ];
            })}
          </dl>
        )}
        <div class="row">
          {u.user_id !== state.me.user_id && (
            <a class="button primary" href={viewHash({ kind: 'dm', userIds: [u.user_id] }, { dm: u.full_name })} onClick={props.onClose}>Send direct message</a>
          )}
          {props.onAdmin && state.me.is_admin && u.user_id !== state.me.user_id && u.is_active !== false && (
            <button type="button" class="danger" onClick={() => props.onAdmin!(u)}>Deactivate user</button>
          )}
          <button type="button" autofocus onClick={props.onClose}>Close</button>
        </div>
      </div>
    </div>
  );
}
