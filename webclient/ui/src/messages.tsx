// The message list: the view's messages with their recipients, senders, rendered content and
// reactions; older ones load when one scrolls to the top; messages are marked read as they
// are seen; one's own can be edited and deleted within the organization's limits.

import { memo } from 'preact/compat';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { call } from './api';
import { EmojiGlyph, EmojiPicker } from './emoji';
import { viewHash } from './narrow';
import { canDelete, canEdit, change, loadOlder, markSeen, state, userName, type Message, type Reaction } from './state';
import { Avatar } from './people';
import { showError } from './notice';

function formatTime(ts: number): string {
  const d = new Date(ts * 1000);
  return d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: !state.settings.twenty_four_hour_time });
}

function formatDay(ts: number): string {
  return new Date(ts * 1000).toLocaleDateString([], { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' });
}

function recipientKey(m: Message): string {
  return m.type === 'stream' ? `s:${m.stream_id}:${m.subject.toLowerCase()}` : `d:${Array.isArray(m.display_recipient) ? m.display_recipient.map((r) => r.id).join(',') : ''}`;
}

function RecipientBar(props: { m: Message }) {
  const m = props.m;
  if (m.type === 'stream') {
    const name = state.streams.get(m.stream_id!)?.name || String(m.display_recipient);
    const color = state.subs.get(m.stream_id!)?.color;
    return (
      <div class="recipient-bar">
        <a href={viewHash({ kind: 'channel', streamId: m.stream_id! }, { channel: name })} class="recipient-channel">
          <span class="channel-swatch" style={color ? { backgroundColor: color } : undefined} />#{name}
        </a>
        <span aria-hidden="true"> › </span>
        <a href={viewHash({ kind: 'channel', streamId: m.stream_id!, topic: m.subject }, { channel: name })} class="recipient-topic">
          {m.match_subject ? <span dangerouslySetInnerHTML={{ __html: m.match_subject }} /> : m.subject || '(no topic)'}
        </a>
        <span class="recipient-date">{formatDay(m.timestamp)}</span>
      </div>
    );
  }
  const others = Array.isArray(m.display_recipient) ? m.display_recipient.filter((r) => r.id !== state.me.user_id) : [];
  const ids = others.map((r) => r.id);
  const label = others.length ? others.map((r) => userName(r.id) || r.full_name).join(', ') : userName(state.me.user_id);
  return (
    <div class="recipient-bar dm">
      <a href={viewHash({ kind: 'dm', userIds: ids }, { dm: label })}>Direct message with {label}</a>
      <span class="recipient-date">{formatDay(m.timestamp)}</span>
    </div>
  );
}

interface Group {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  users: number[];
}

function groupReactions(rs: Reaction[]): Group[] {
  const groups = new Map<string, Group>();
  for (const r of rs) {
    const k = r.reaction_type + ':' + r.emoji_code;
    if (!groups.has(k)) groups.set(k, { emoji_name: r.emoji_name, emoji_code: r.emoji_code, reaction_type: r.reaction_type, users: [] });
    groups.get(k)!.users.push(r.user_id);
  }
  return [...groups.values()];
}

async function toggleReaction(m: Message, e: { emoji_name: string; emoji_code: string; reaction_type: string }) {
  const mine = m.reactions.some((r) => r.user_id === state.me.user_id && r.emoji_code === e.emoji_code && r.reaction_type === e.reaction_type);
  try {
    await call(mine ? 'DELETE' : 'POST', `messages/${m.id}/reactions`, { emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type });
  } catch (err) {
    showError(err);
  }
}

function Reactions(props: { m: Message }) {
  const groups = groupReactions(props.m.reactions);
  if (!groups.length) return null;
  return (
    <div class="reactions">
      {groups.map((g) => {
        const mine = g.users.includes(state.me.user_id);
        const names = g.users.map(userName).join(', ');
        return (
          <button type="button" class={'reaction' + (mine ? ' mine' : '')} aria-pressed={mine}
            aria-label={`${g.emoji_name}: ${g.users.length} (${names})`} title={`${names} reacted with :${g.emoji_name}:`}
            onClick={() => toggleReaction(props.m, g)}>
            <EmojiGlyph name={g.emoji_name} code={g.emoji_code} type={g.reaction_type} /> <span>{g.users.length}</span>
          </button>
        );
      })}
    </div>
  );
}

function Editor(props: { m: Message; onDone: () => void }) {
  const [text, setText] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    call('GET', `messages/${props.m.id}`, { apply_markdown: false })
      .then((r) => setText(r.raw_content ?? r.message?.content ?? ''))
      .catch((e) => {
        showError(e);
        props.onDone();
      });
  }, [props.m.id]);
  const save = async () => {
    if (text === null) return;
    setBusy(true);
    try {
      await call('PATCH', `messages/${props.m.id}`, { content: text });
      props.onDone();
    } catch (e) {
      showError(e);
      setBusy(false);
    }
  };
  if (text === null) return <p class="muted">Loading…</p>;
  return (
    <div class="message-editor">
      <textarea aria-label="Edit message" value={text} ref={(el) => el?.focus()} disabled={busy}
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            props.onDone();
          } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey || (state.settings.enter_sends && !e.shiftKey))) {
            e.preventDefault();
            void save();
          }
        }} />
      <div class="row">
        <button type="button" class="primary" onClick={save} disabled={busy}>Save</button>
        <button type="button" onClick={props.onDone}>Cancel</button>
      </div>
    </div>
  );
}

async function deleteMessage(m: Message) {
  if (!confirm('Delete this message?')) return;
  try {
    await call('DELETE', `messages/${m.id}`);
  } catch (e) {
    showError(e);
  }
}

async function toggleStar(m: Message) {
  const starred = m.flags.includes('starred');
  try {
    await call('POST', 'messages/flags', { messages: [m.id], op: starred ? 'remove' : 'add', flag: 'starred' });
  } catch (e) {
    showError(e);
  }
}

const MessageRow = memo(function MessageRow(props: { m: Message; showRecipient: boolean; showSender: boolean; unread: boolean }) {
  const m = props.m;
  const [editing, setEditing] = useState(false);
  const [picking, setPicking] = useState(false);
  const starred = m.flags.includes('starred');
  const sender = state.users.get(m.sender_id);
  return (
    <article class={'message' + (props.unread ? ' unread' : '') + (props.showSender ? ' first' : '')} data-message-id={m.id}
      aria-label={`${m.sender_full_name}, ${formatTime(m.timestamp)}`}>
      {props.showRecipient && <RecipientBar m={m} />}
      <div class="message-body">
        <div class="gutter">{props.showSender && <Avatar user={sender} name={m.sender_full_name} />}</div>
        <div class="message-main">
          {props.showSender && (
            <div class="sender-line">
              <button type="button" class="sender-name linklike" data-user-id={m.sender_id}>{m.sender_full_name}</button>
              <time datetime={new Date(m.timestamp * 1000).toISOString()}>{formatTime(m.timestamp)}</time>
            </div>
          )}
          {editing ? (
            <Editor m={m} onDone={() => setEditing(false)} />
          ) : (
            <div class="message-content rendered" dangerouslySetInnerHTML={{ __html: m.match_content ?? m.content }} />
          )}
          {m.last_edit_timestamp && !editing && <span class="edited">(edited)</span>}
          <Reactions m={m} />
        </div>
        <div class="message-actions">
          <button type="button" aria-label="Add reaction" title="Add reaction" onClick={() => setPicking(!picking)}>☺</button>
          <button type="button" aria-label={starred ? 'Unstar' : 'Star'} aria-pressed={starred} title={starred ? 'Unstar' : 'Star'} class={starred ? 'starred' : ''} onClick={() => toggleStar(m)}>{starred ? '★' : '☆'}</button>
          {canEdit(m) && !editing && <button type="button" aria-label="Edit" title="Edit" onClick={() => setEditing(true)}>✎</button>}
          {canDelete(m) && <button type="button" aria-label="Delete" title="Delete" onClick={() => deleteMessage(m)}>🗑</button>}
        </div>
        {picking && (
          <EmojiPicker onClose={() => setPicking(false)} onPick={(e) => {
            setPicking(false);
            void toggleReaction(m, { emoji_name: e.name, emoji_code: e.code, reaction_type: e.type });
          }} />
        )}
      </div>
    </article>
  );
});

// seenObserver marks a message read once half of it was on screen while the page was visible.
let observer: IntersectionObserver | null = null;
function seenObserver(): IntersectionObserver {
  if (!observer) {
    observer = new IntersectionObserver((entries) => {
      if (document.visibilityState !== 'visible') return;
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        const id = Number((e.target as HTMLElement).dataset.messageId);
        observer!.unobserve(e.target);
        markSeen(id);
      }
    }, { threshold: 0.5 });
  }
  return observer;
}

export function MessageList(props: { title: string }) {
  const cur = state.current;
  const box = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const anchor = useRef<{ first: number; height: number; top: number } | null>(null);
  const viewKey = JSON.stringify(cur.view);
  const lastView = useRef('');

  // Keep the reader's place: at the bottom when they were there, at the same message when
  // older ones were added above.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    if (lastView.current !== viewKey) {
      lastView.current = viewKey;
      if (!cur.loading) el.scrollTop = el.scrollHeight;
      atBottom.current = true;
      anchor.current = null;
    } else if (anchor.current && cur.messages.length && cur.messages[0].id !== anchor.current.first) {
      el.scrollTop = anchor.current.top + (el.scrollHeight - anchor.current.height);
    } else if (atBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
    anchor.current = cur.messages.length ? { first: cur.messages[0].id, height: el.scrollHeight, top: el.scrollTop } : null;
    if (!cur.loading && !cur.foundOldest && cur.messages.length && el.scrollHeight <= el.clientHeight) void loadOlder();
  });

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const obs = seenObserver();
    for (const row of el.querySelectorAll<HTMLElement>('article.message.unread')) obs.observe(row);
  });

  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState !== 'visible' || !box.current) return;
      const obs = seenObserver();
      for (const row of box.current.querySelectorAll<HTMLElement>('article.message.unread')) {
        obs.unobserve(row);
        obs.observe(row);
      }
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, []);

  const onScroll = () => {
    const el = box.current!;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    if (anchor.current) anchor.current.top = el.scrollTop;
    if (el.scrollTop < 300) void loadOlder();
  };

  let prev: Message | null = null;
  const rows = cur.messages.map((m) => {
    const showRecipient = !prev || recipientKey(prev) !== recipientKey(m) || formatDay(prev.timestamp) !== formatDay(m.timestamp);
    const showSender = showRecipient || !prev || prev.sender_id !== m.sender_id || m.timestamp - prev.timestamp > 300;
    prev = m;
    return <MessageRow key={m.id} m={m} showRecipient={showRecipient} showSender={showSender} unread={state.unread.has(m.id)} />;
  });

  return (
    <div class="message-scroller" ref={box} onScroll={onScroll} role="log" aria-label="Messages" aria-busy={cur.loading} tabIndex={0}>
      {cur.foundOldest && cur.messages.length > 0 && <p class="list-edge">This is the start of {props.title}.</p>}
      {!cur.foundOldest && cur.messages.length > 0 && <p class="list-edge" role="status">{cur.loading ? 'Loading older messages…' : ''}</p>}
      {rows}
      {!cur.loading && !cur.messages.length && !cur.error && <p class="empty">{cur.view.kind === 'search' ? 'No messages match this search.' : 'No messages here yet.'}</p>}
      {cur.loading && !cur.messages.length && <p class="empty" role="status">Loading…</p>}
      {cur.error && <p class="error" role="alert">{cur.error}</p>}
    </div>
  );
}

export function refresh() {
  change();
}
