// The compose box: to a channel and topic (topic autocomplete) or to one or several people;
// Markdown with a preview; autocomplete of @-mentions, #channels and :emoji:; uploads by
// picking, pasting or dropping files, with progress; Enter or Ctrl+Enter sends as the user's
// enter_sends setting says; Esc closes the suggestions, then leaves the box.

import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { call, upload } from './api';
import { EmojiGlyph, loadEmoji, searchEmoji } from './emoji';
import type { View } from './narrow';
import { change, loadTopics, state, topicKey, typingIn, userName, type User } from './state';
import { showError } from './notice';

interface Suggestion {
  label: string;
  detail?: string;
  insert: string;
  emoji?: { name: string; code: string; type: string };
}

function activeUsers(): User[] {
  return [...state.users.values()].filter((u) => u.is_active !== false);
}

// suggestFor lists the completions of the token before the cursor ("@ham", "#den", ":smi").
function suggestFor(before: string): { start: number; items: Suggestion[] } | null {
  let m = before.match(/(^|\s)@(\*\*)?([^\n@*]{0,30})$/);
  if (m) {
    const q = m[3].toLowerCase();
    const items = activeUsers()
      .filter((u) => u.full_name.toLowerCase().includes(q) || u.email.toLowerCase().startsWith(q))
      .sort((a, b) => Number(!a.full_name.toLowerCase().startsWith(q)) - Number(!b.full_name.toLowerCase().startsWith(q)) || a.full_name.localeCompare(b.full_name))
      .slice(0, 8)
      .map((u) => ({ label: u.full_name, detail: u.delivery_email || u.email, insert: `@**${u.full_name}** ` }));
    for (const w of ['all', 'everyone', 'channel', 'topic']) {
      if (q && w.startsWith(q) && items.length < 8) items.push({ label: w, detail: 'Notify everyone', insert: `@**${w}** ` });
    }
    return { start: before.length - m[0].length + m[1].length, items };
  }
  m = before.match(/(^|\s)#(\*\*)?([^\n#*>]{0,40})$/);
  if (m) {
    const q = m[3].toLowerCase();
    const items = [...state.streams.values()]
      .filter((s) => s.name.toLowerCase().includes(q))
      .sort((a, b) => a.name.localeCompare(b.name))
      .slice(0, 8)
      .map((s) => ({ label: '#' + s.name, insert: `#**${s.name}** ` }));
    return { start: before.length - m[0].length + m[1].length, items };
  }
  m = before.match(/(^|\s):([a-z0-9_+-]{1,30})$/i);
  if (m) {
    const items = searchEmoji(m[2], 8).map((e) => ({ label: ':' + e.name + ':', insert: `:${e.name}: `, emoji: { name: e.name, code: e.code, type: e.type } }));
    return { start: before.length - m[0].length + m[1].length, items };
  }
  return null;
}

// resolveRecipients reads the To field: names or emails separated by commas. Names may hold
// commas themselves ("Othello, the Moor of Venice"): the longest run of comma-separated parts
// that names someone wins.
export function resolveRecipients(text: string): { ids: number[]; unknown: string[] } {
  const ids: number[] = [];
  const unknown: string[] = [];
  const people = activeUsers();
  const find = (t: string) =>
    people.find((u) => u.full_name.toLowerCase() === t || u.email.toLowerCase() === t || (u.delivery_email || '').toLowerCase() === t);
  const parts = text.split(',');
  for (let i = 0; i < parts.length; ) {
    let matched = 0;
    for (let j = parts.length; j > i; j--) {
      const u = find(parts.slice(i, j).join(',').trim().toLowerCase());
      if (u) {
        if (!ids.includes(u.user_id)) ids.push(u.user_id);
        matched = j;
        break;
      }
    }
    if (matched) {
      i = matched;
      continue;
    }
    if (parts[i].trim()) unknown.push(parts[i].trim());
    i++;
  }
  return { ids, unknown };
}

interface Upload {
  id: number;
  name: string;
  progress: number;
}

let uploadSeq = 0;

function Suggestions(props: { id: string; items: Suggestion[]; active: number; onPick: (s: Suggestion) => void }) {
  return (
    <ul class="suggestions" role="listbox" id={props.id}>
      {props.items.map((s, i) => (
        <li key={s.insert} id={`${props.id}-${i}`} role="option" aria-selected={i === props.active} class={i === props.active ? 'active' : ''}
          onMouseDown={(e) => { e.preventDefault(); props.onPick(s); }}>
          {s.emoji && <EmojiGlyph {...s.emoji} />} {s.label} {s.detail && <span class="muted">{s.detail}</span>}
        </li>
      ))}
    </ul>
  );
}

export function Compose(props: { view: View }) {
  const v = props.view;
  const [mode, setMode] = useState<'stream' | 'private'>(v.kind === 'dm' ? 'private' : 'stream');
  const [streamId, setStreamId] = useState<number>(v.kind === 'channel' ? v.streamId : 0);
  const [topic, setTopic] = useState(v.kind === 'channel' && v.topic !== undefined ? v.topic : '');
  const [to, setTo] = useState(v.kind === 'dm' ? v.userIds.map(userName).join(', ') : '');
  const [content, setContent] = useState('');
  const [preview, setPreview] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [sugg, setSugg] = useState<{ start: number; items: Suggestion[]; field: 'content' | 'to' | 'topic' } | null>(null);
  const [active, setActive] = useState(0);
  const [dragging, setDragging] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const lastTyping = useRef(0);
  // caretAfterRender is where the caret goes once the text a completion changed is rendered.
  const caretAfterRender = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = textarea.current;
    if (el && caretAfterRender.current !== null) {
      el.focus();
      el.setSelectionRange(caretAfterRender.current, caretAfterRender.current);
      caretAfterRender.current = null;
    }
  });

  // The view chooses the recipient.
  useEffect(() => {
    if (v.kind === 'channel') {
      setMode('stream');
      setStreamId(v.streamId);
      setTopic(v.topic ?? '');
    } else if (v.kind === 'dm') {
      setMode('private');
      setTo(v.userIds.map(userName).join(', '));
    }
  }, [JSON.stringify(v)]);

  useEffect(() => {
    if (streamId) void loadTopics(streamId);
  }, [streamId]);

  const subs = [...state.subs.values()].sort((a, b) => a.name.localeCompare(b.name));
  const chosen = streamId || (subs[0]?.stream_id ?? 0);
  const topics = state.topics.get(chosen) || [];

  const typingRecipients = (): any => {
    if (mode === 'stream') return chosen ? { type: 'stream', stream_id: chosen, topic } : null;
    const r = resolveRecipients(to);
    return r.ids.length && !r.unknown.length ? { type: 'direct', to: r.ids } : null;
  };

  const notifyTyping = (op: 'start' | 'stop') => {
    if (op === 'start' && Date.now() - lastTyping.current < state.realm.typingWait) return;
    const p = typingRecipients();
    if (!p) return;
    lastTyping.current = op === 'start' ? Date.now() : 0;
    if (state.settings[mode === 'stream' ? 'send_stream_typing_notifications' : 'send_private_typing_notifications'] === false) return;
    call('POST', 'typing', { ...p, op }).catch(() => {});
  };

  const send = async () => {
    if (sending || !content.trim() || uploads.length) return;
    let params: Record<string, any>;
    if (mode === 'stream') {
      if (!chosen) return showError(new Error('Choose a channel.'));
      params = { type: 'stream', to: chosen, topic, content };
    } else {
      const r = resolveRecipients(to);
      if (r.unknown.length) return showError(new Error('Unknown recipient: ' + r.unknown.join(', ')));
      if (!r.ids.length) return showError(new Error('Choose the people to write to.'));
      params = { type: 'private', to: r.ids, content };
    }
    setSending(true);
    try {
      await call('POST', 'messages', params);
      setContent('');
      setPreview(null);
      notifyTyping('stop');
    } catch (e) {
      showError(e);
    } finally {
      setSending(false);
      textarea.current?.focus();
    }
  };

  const addFiles = (files: FileList | File[] | null) => {
    for (const f of Array.from(files || [])) {
      const id = ++uploadSeq;
      setUploads((u) => [...u, { id, name: f.name, progress: 0 }]);
      upload(f, (p) => setUploads((u) => u.map((x) => (x.id === id ? { ...x, progress: p } : x))))
        .then((r) => {
          const link = `[${r.filename.replace(/[[\]]/g, '')}](${r.url})`;
          setContent((c) => (c && !c.endsWith('\n') && !c.endsWith(' ') ? c + ' ' : c) + link + ' ');
        })
        .catch(showError)
        .finally(() => setUploads((u) => u.filter((x) => x.id !== id)));
    }
  };

  const pick = (s: Suggestion) => {
    if (!sugg) return;
    if (sugg.field === 'topic') {
      setTopic(s.insert);
    } else if (sugg.field === 'to') {
      const parts = to.split(',');
      parts[parts.length - 1] = (parts.length > 1 ? ' ' : '') + s.insert;
      setTo(parts.join(',') + ', ');
    } else {
      const el = textarea.current!;
      const pos = el.selectionStart;
      const next = content.slice(0, sugg.start) + s.insert + content.slice(pos);
      setContent(next);
      caretAfterRender.current = sugg.start + s.insert.length;
    }
    setSugg(null);
  };

  const onContentInput = (e: Event) => {
    const el = e.target as HTMLTextAreaElement;
    setContent(el.value);
    const before = el.value.slice(0, el.selectionStart);
    if (/:[a-z0-9_+-]+$/i.test(before)) void loadEmoji();
    const s = suggestFor(before);
    setSugg(s && s.items.length ? { ...s, field: 'content' } : null);
    setActive(0);
    if (el.value) notifyTyping('start');
  };

  const onTopicInput = (e: Event) => {
    const value = (e.target as HTMLInputElement).value;
    setTopic(value);
    const q = value.toLowerCase();
    const items = topics
      .filter((t) => t.name.toLowerCase().includes(q) && t.name !== value)
      .slice(0, 8)
      .map((t) => ({ label: t.name || '(no topic)', insert: t.name }));
    setSugg(items.length ? { start: 0, items, field: 'topic' } : null);
    setActive(0);
  };

  const onToInput = (e: Event) => {
    const value = (e.target as HTMLInputElement).value;
    setTo(value);
    const last = value.split(',').pop()!.trim().toLowerCase();
    const taken = new Set(resolveRecipients(value.split(',').slice(0, -1).join(',')).ids);
    const items = last
      ? activeUsers()
          .filter((u) => !taken.has(u.user_id) && (u.full_name.toLowerCase().includes(last) || u.email.toLowerCase().startsWith(last)))
          .slice(0, 8)
          .map((u) => ({ label: u.full_name, detail: u.delivery_email || u.email, insert: u.full_name }))
      : [];
    setSugg(items.length ? { start: 0, items, field: 'to' } : null);
    setActive(0);
  };

  // suggestionKeys moves through and accepts suggestions; it reports whether it used the key.
  const suggestionKeys = (e: KeyboardEvent): boolean => {
    if (!sugg) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const n = sugg.items.length;
      setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
      return true;
    }
    if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      pick(sugg.items[active] || sugg.items[0]);
      return true;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      setSugg(null);
      return true;
    }
    return false;
  };

  const onContentKey = (e: KeyboardEvent) => {
    if (suggestionKeys(e)) return;
    if (e.key === 'Enter' && !e.isComposing) {
      const enterSends = !!state.settings.enter_sends;
      if (e.ctrlKey || e.metaKey || (enterSends && !e.shiftKey && !e.altKey)) {
        e.preventDefault();
        void send();
      }
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      (e.target as HTMLElement).blur();
    }
  };

  const togglePreview = async () => {
    if (preview !== null) return setPreview(null);
    try {
      const r = await call('POST', 'messages/render', { content: content || ' ' });
      setPreview(r.rendered);
    } catch (e) {
      showError(e);
    }
  };

  const typingKey = mode === 'stream' ? 'stream:' + topicKey(chosen, topic) : 'dm:' + resolveRecipients(to).ids.sort((a, b) => a - b).join(',');
  const typers = typingIn(typingKey);
  const enterSends = !!state.settings.enter_sends;
  const listId = 'compose-suggestions';

  return (
    <form class={'compose' + (dragging ? ' dragging' : '')} aria-label="Compose" onSubmit={(e) => { e.preventDefault(); void send(); }}
      onDragOver={(e) => { if (e.dataTransfer?.types.includes('Files')) { e.preventDefault(); setDragging(true); } }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => { e.preventDefault(); setDragging(false); addFiles(e.dataTransfer?.files || null); }}>
      <div class="compose-recipient">
        <div class="segmented" role="group" aria-label="Message type">
          <button type="button" aria-pressed={mode === 'stream'} onClick={() => setMode('stream')}>Channel</button>
          <button type="button" aria-pressed={mode === 'private'} onClick={() => setMode('private')}>Direct message</button>
        </div>
        {mode === 'stream' ? (
          <>
            <select aria-label="Channel" value={chosen} onChange={(e) => { setStreamId(Number((e.target as HTMLSelectElement).value)); }}>
              {subs.map((s) => <option key={s.stream_id} value={s.stream_id}>#{s.name}</option>)}
            </select>
            <div class="topic-field">
              <input class="topic" aria-label="Topic" placeholder="Topic" value={topic} maxLength={60} autoComplete="off"
                aria-autocomplete="list" aria-controls={listId + '-topic'}
                aria-activedescendant={sugg && sugg.field === 'topic' ? `${listId}-topic-${active}` : undefined}
                onInput={onTopicInput} onFocus={onTopicInput} onKeyDown={(e) => suggestionKeys(e)}
                onBlur={() => setTimeout(() => setSugg((s) => (s && s.field === 'topic' ? null : s)), 150)} />
              {sugg && sugg.field === 'topic' && <Suggestions id={listId + '-topic'} items={sugg.items} active={active} onPick={pick} />}
            </div>
          </>
        ) : (
          <div class="to-field">
            <input aria-label="To" placeholder="Names or emails, separated by commas" value={to} autoComplete="off"
              aria-autocomplete="list" aria-controls={listId + '-to'}
              aria-activedescendant={sugg && sugg.field === 'to' ? `${listId}-to-${active}` : undefined}
              onInput={onToInput} onKeyDown={(e) => suggestionKeys(e)} onBlur={() => setTimeout(() => setSugg(null), 150)} />
            {sugg && sugg.field === 'to' && <Suggestions id={listId + '-to'} items={sugg.items} active={active} onPick={pick} />}
          </div>
        )}
      </div>
      <div class="compose-body">
        {sugg && sugg.field === 'content' && <Suggestions id={listId} items={sugg.items} active={active} onPick={pick} />}
        {preview !== null ? (
          <div class="preview rendered" aria-label="Preview" role="region" dangerouslySetInnerHTML={{ __html: preview }} />
        ) : (
          <textarea ref={textarea} aria-label="Message" placeholder={enterSends ? 'Message (Enter sends, Shift+Enter for a new line)' : 'Message (Ctrl+Enter sends)'}
            value={content} maxLength={state.realm.maxMessageLength} rows={3}
            aria-autocomplete="list" aria-controls={listId} aria-activedescendant={sugg && sugg.field === 'content' ? `${listId}-${active}` : undefined}
            onInput={onContentInput} onKeyDown={onContentKey} onBlur={() => setTimeout(() => setSugg((s) => (s && s.field === 'content' ? null : s)), 150)}
            onPaste={(e) => { const files = e.clipboardData?.files; if (files && files.length) { e.preventDefault(); addFiles(files); } }} />
        )}
      </div>
      {uploads.length > 0 && (
        <ul class="uploads" aria-label="Uploads">
          {uploads.map((u) => (
            <li key={u.id}>Uploading {u.name}… <progress max={1} value={u.progress} aria-label={`Uploading ${u.name}`} /> {Math.round(u.progress * 100)}%</li>
          ))}
        </ul>
      )}
      <div class="compose-actions">
        <input ref={fileInput} type="file" multiple hidden onChange={(e) => { addFiles((e.target as HTMLInputElement).files); (e.target as HTMLInputElement).value = ''; }} />
        <button type="button" onClick={() => fileInput.current?.click()}>Attach files</button>
        <button type="button" aria-pressed={preview !== null} onClick={togglePreview}>{preview !== null ? 'Edit' : 'Preview'}</button>
        <label class="enter-sends">
          <input type="checkbox" checked={enterSends} onChange={(e) => {
            const value = (e.target as HTMLInputElement).checked;
            state.settings = { ...state.settings, enter_sends: value };
            change();
            call('PATCH', 'settings', { enter_sends: value }).catch(showError);
          }} /> Enter sends
        </label>
        <span class="typing" aria-live="polite">{typers.length ? `${typers.map(userName).join(', ')} ${typers.length > 1 ? 'are' : 'is'} typing…` : ''}</span>
        <button type="submit" class="primary" disabled={sending || uploads.length > 0}>Send</button>
      </div>
    </form>
  );
}
