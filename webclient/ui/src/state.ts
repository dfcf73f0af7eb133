// The client's state: what register returned, kept current by the events of GET /events, and
// the messages of the view on screen. Components read it and re-render on change().

import { ApiError, call, loginRedirect } from './api';
import { apiNarrow, matches, messageDmKey, sameView, type View } from './narrow';

export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
}

export interface Message {
  id: number;
  sender_id: number;
  sender_full_name: string;
  sender_email: string;
  avatar_url: string | null;
  content: string;
  timestamp: number;
  type: 'stream' | 'private';
  stream_id?: number;
  subject: string;
  display_recipient: string | { id: number; full_name: string; email: string }[];
  reactions: Reaction[];
  flags: string[];
  last_edit_timestamp?: number;
  match_content?: string;
  match_subject?: string;
}

export interface User {
  user_id: number;
  full_name: string;
  email: string;
  delivery_email?: string | null;
  is_admin: boolean;
  is_owner?: boolean;
  is_guest: boolean;
  is_bot: boolean;
  is_active?: boolean;
  role?: number;
  avatar_url: string | null;
  timezone?: string;
  profile_data?: Record<string, { value: string; rendered_value?: string }>;
}

export interface Sub {
  stream_id: number;
  name: string;
  description: string;
  color: string;
  is_muted: boolean;
  pin_to_top: boolean;
  invite_only: boolean;
}

export interface Unread {
  streamId?: number;
  topic?: string;
  dm?: string;
  mentioned: boolean;
}

export interface Status {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
  away?: boolean;
}

export interface ViewState {
  view: View;
  messages: Message[];
  foundOldest: boolean;
  foundNewest: boolean;
  loading: boolean;
  error: string;
  // arrived holds the messages of the view that events brought while its first page loaded.
  arrived: Message[];
}

export const state = {
  ready: false,
  connection: 'ok' as 'ok' | 'reconnecting',
  queueId: '',
  lastEventId: -1,
  me: { user_id: 0, email: '', full_name: '', is_admin: false, is_owner: false },
  realm: {
    name: '',
    allowEditing: true,
    editLimit: null as number | null,
    deleteLimit: null as number | null,
    emoji: {} as Record<string, { id: string; name: string; source_url: string; deactivated: boolean }>,
    profileFields: [] as { id: number; name: string; type: number; hint: string; order: number }[],
    maxMessageLength: 10000,
    typingWait: 10000,
    presenceOffline: 140,
  },
  settings: { enter_sends: false, color_scheme: 1, twenty_four_hour_time: false } as Record<string, any>,
  users: new Map<number, User>(),
  subs: new Map<number, Sub>(),
  streams: new Map<number, { stream_id: number; name: string }>(),
  unread: new Map<number, Unread>(),
  mutedTopics: new Set<string>(), // "streamId:lowercase topic"
  topics: new Map<number, { name: string; max_id: number }[]>(),
  dms: new Map<string, number>(), // conversation key → newest message id
  presence: new Map<number, number>(), // user id → last active (unix seconds)
  statuses: new Map<number, Status>(),
  typing: new Map<string, Map<number, number>>(), // conversation → user → expiry (ms)
  current: { view: { kind: 'feed' }, messages: [], foundOldest: false, foundNewest: false, loading: true, error: '', arrived: [] } as ViewState,
  serverDelta: 0, // server clock minus ours (seconds)
};

type Listener = () => void;
const listeners = new Set<Listener>();
let scheduled = false;

// change asks every listener to re-render, once per animation frame.
export function change(): void {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    for (const l of listeners) l();
  });
}

export function subscribe(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function topicKey(streamId: number, topic: string): string {
  return streamId + ':' + topic.toLowerCase();
}

export function userName(id: number): string {
  const u = state.users.get(id);
  return u ? u.full_name : 'Unknown user';
}

export function now(): number {
  return Date.now() / 1000 + state.serverDelta;
}

// ---- register ----

const registerParams = {
  apply_markdown: true,
  client_gravatar: true,
  slim_presence: true,
  include_subscribers: false,
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: false,
    stream_typing_notifications: true,
    user_settings_object: true,
    empty_topic_name: true,
  },
};

// register opens an event queue and replaces the state with the server's.
export async function register(): Promise<void> {
  const r = await call('POST', 'register', registerParams);
  if (!r.queue_id || !r.user_id) {
    // A spectator's answer: this browser has no session.
    loginRedirect();
    throw new ApiError(401, { code: 'UNAUTHORIZED', msg: 'Not logged in' });
  }
  state.queueId = r.queue_id;
  state.lastEventId = r.last_event_id;
  state.serverDelta = (r.server_timestamp || Date.now() / 1000) - Date.now() / 1000;
  state.me = { user_id: r.user_id, email: r.email, full_name: r.full_name, is_admin: r.is_admin, is_owner: r.is_owner };
  state.realm = {
    name: r.realm_name,
    allowEditing: r.realm_allow_message_editing !== false,
    editLimit: r.realm_message_content_edit_limit_seconds ?? null,
    deleteLimit: r.realm_message_content_delete_limit_seconds ?? null,
    emoji: r.realm_emoji || {},
    profileFields: r.custom_profile_fields || [],
    maxMessageLength: r.max_message_length || 10000,
    typingWait: r.server_typing_started_wait_period_milliseconds || 10000,
    presenceOffline: r.server_presence_offline_threshold_seconds || 140,
  };
  state.settings = { ...state.settings, ...(r.user_settings || {}) };
  state.users = new Map();
  for (const u of [...(r.realm_users || []), ...(r.cross_realm_bots || [])]) state.users.set(u.user_id, u);
  for (const u of r.realm_non_active_users || []) state.users.set(u.user_id, { ...u, is_active: false });
  state.subs = new Map();
  state.streams = new Map();
  for (const s of r.streams || []) state.streams.set(s.stream_id, s);
  for (const s of r.subscriptions || []) {
    state.subs.set(s.stream_id, s);
    state.streams.set(s.stream_id, s);
  }
  loadUnread(r.unread_msgs);
  state.mutedTopics = new Set();
  for (const t of r.user_topics || []) if (t.visibility_policy === 1) state.mutedTopics.add(topicKey(t.stream_id, t.topic_name));
  state.dms = new Map();
  for (const c of r.recent_private_conversations || []) {
    state.dms.set(c.user_ids.filter((id: number) => id !== r.user_id).sort((a: number, b: number) => a - b).join(','), c.max_message_id);
  }
  state.presence = new Map();
  for (const [id, p] of Object.entries(r.presences || {})) {
    const v = p as any;
    state.presence.set(Number(id), v.active_timestamp ?? v.aggregated?.timestamp ?? 0);
  }
  state.statuses = new Map();
  for (const [id, s] of Object.entries(r.user_status || {})) state.statuses.set(Number(id), s as Status);
  state.topics = new Map();
  state.ready = true;
  applyTheme();
}

function loadUnread(u: any): void {
  state.unread = new Map();
  const mentions = new Set<number>(u?.mentions || []);
  for (const s of u?.streams || []) {
    for (const id of s.unread_message_ids) state.unread.set(id, { streamId: s.stream_id, topic: s.topic, mentioned: mentions.has(id) });
  }
  for (const p of u?.pms || []) {
    const other = p.other_user_id ?? p.sender_id;
    const key = other === state.me.user_id ? '' : String(other);
    for (const id of p.unread_message_ids) state.unread.set(id, { dm: key, mentioned: mentions.has(id) });
  }
  for (const h of u?.huddles || []) {
    const key = String(h.user_ids_string)
      .split(',')
      .map(Number)
      .filter((id) => id !== state.me.user_id)
      .sort((a, b) => a - b)
      .join(',');
    for (const id of h.unread_message_ids) state.unread.set(id, { dm: key, mentioned: mentions.has(id) });
  }
}

export function applyTheme(): void {
  const scheme = state.settings.color_scheme;
  const dark = scheme === 2 || (scheme !== 3 && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

// ---- unread counts ----

export interface Counts {
  streams: Map<number, number>;
  topics: Map<string, number>;
  dms: Map<string, number>;
  mentions: number;
  total: number;
}

export function counts(): Counts {
  const c: Counts = { streams: new Map(), topics: new Map(), dms: new Map(), mentions: 0, total: 0 };
  for (const u of state.unread.values()) {
    if (u.mentioned) c.mentions++;
    if (u.streamId !== undefined) {
      const tk = topicKey(u.streamId, u.topic || '');
      c.topics.set(tk, (c.topics.get(tk) || 0) + 1);
      if (state.mutedTopics.has(tk)) continue;
      c.streams.set(u.streamId, (c.streams.get(u.streamId) || 0) + 1);
      if (!state.subs.get(u.streamId)?.is_muted) c.total++;
    } else {
      c.dms.set(u.dm || '', (c.dms.get(u.dm || '') || 0) + 1);
      c.total++;
    }
  }
  return c;
}

// ---- the messages of the view ----

let viewSeq = 0;
const pageSize = 50; // the first page: enough to fill a screen, quickly
const olderPageSize = 100;

function mergeById(a: Message[], b: Message[]): Message[] {
  const byId = new Map<number, Message>();
  for (const m of a) byId.set(m.id, m);
  for (const m of b) byId.set(m.id, m);
  return [...byId.values()].sort((x, y) => x.id - y.id);
}

async function fetchMessages(view: View, anchor: string | number, before: number, after: number): Promise<any> {
  return call('GET', 'messages', {
    anchor,
    num_before: before,
    num_after: after,
    include_anchor: typeof anchor === 'string',
    narrow: apiNarrow(view, state.me.user_id),
    apply_markdown: true,
    client_gravatar: true,
  });
}

// openView shows a view: its newest messages first.
export async function openView(view: View): Promise<void> {
  if (state.current && sameView(state.current.view, view) && !state.current.error && state.current.messages.length) return;
  const seq = ++viewSeq;
  state.current = { view, messages: [], foundOldest: false, foundNewest: false, loading: true, error: '', arrived: [] };
  change();
  try {
    const r = await fetchMessages(view, 'newest', pageSize, 0);
    if (seq !== viewSeq) return;
    // A message sent while the page loaded is in the answer, in arrived, or in both.
    const messages = mergeById(r.messages, state.current.arrived);
    state.current = { view, messages, foundOldest: r.found_oldest, foundNewest: true, loading: false, error: '', arrived: [] };
  } catch (e) {
    if (seq !== viewSeq) return;
    state.current = { ...state.current, loading: false, error: (e as Error).message };
  }
  change();
}

// loadOlder fetches the page before the oldest message shown.
export async function loadOlder(): Promise<void> {
  const cur = state.current;
  if (cur.loading || cur.foundOldest || !cur.messages.length) return;
  const seq = viewSeq;
  cur.loading = true;
  change();
  try {
    const r = await fetchMessages(cur.view, cur.messages[0].id, olderPageSize, 0);
    if (seq !== viewSeq) return;
    state.current = { ...state.current, messages: mergeById(r.messages, state.current.messages), foundOldest: r.found_oldest, loading: false };
  } catch (e) {
    if (seq !== viewSeq) return;
    state.current = { ...state.current, loading: false, error: (e as Error).message };
  }
  change();
}

// catchUp reloads the view after a new queue: every message from the oldest shown on, so
// that what happened while no queue listened (new messages, edits, deletions) is shown once.
async function catchUp(): Promise<void> {
  const cur = state.current;
  const seq = viewSeq;
  if (!cur.messages.length) {
    await openView({ ...cur.view } as View).catch(() => {});
    return;
  }
  const first = cur.messages[0].id;
  let fresh: Message[] = [];
  let anchor: number | string = first;
  let includeFirst = true;
  for (let page = 0; page < 20; page++) {
    const r = await call('GET', 'messages', {
      anchor, num_before: 0, num_after: 1000, include_anchor: includeFirst,
      narrow: apiNarrow(cur.view, state.me.user_id), apply_markdown: true, client_gravatar: true,
    });
    includeFirst = false;
    fresh = mergeById(fresh, r.messages);
    if (r.found_newest || !r.messages.length) break;
    anchor = r.messages[r.messages.length - 1].id;
  }
  if (seq !== viewSeq) return;
  state.current = { ...state.current, messages: fresh };
  change();
}

function updateMessages(ids: Set<number>, f: (m: Message) => Message | null): void {
  let touched = false;
  const out: Message[] = [];
  for (const m of state.current.messages) {
    if (!ids.has(m.id)) {
      out.push(m);
      continue;
    }
    touched = true;
    const n = f(m);
    if (n) out.push(n);
  }
  if (touched) state.current = { ...state.current, messages: out };
}

// ---- events ----

function applyMessage(ev: any): void {
  const m: Message = { ...ev.message, flags: ev.flags || [] };
  const me = state.me.user_id;
  if (!m.flags.includes('read') && m.sender_id !== me) {
    state.unread.set(m.id, m.type === 'stream'
      ? { streamId: m.stream_id, topic: m.subject, mentioned: m.flags.includes('mentioned') || m.flags.includes('wildcard_mentioned') }
      : { dm: messageDmKey(m, me), mentioned: m.flags.includes('mentioned') });
  }
  if (m.type === 'private') state.dms.set(messageDmKey(m, me), m.id);
  if (m.type === 'stream' && m.stream_id !== undefined && state.topics.has(m.stream_id)) {
    const list = state.topics.get(m.stream_id)!.filter((t) => t.name.toLowerCase() !== m.subject.toLowerCase());
    state.topics.set(m.stream_id, [{ name: m.subject, max_id: m.id }, ...list]);
  }
  const cur = state.current;
  if (matches(cur.view, m, me) && !(cur.view.kind === 'feed' && isMuted(m))) {
    if (cur.loading && !cur.messages.length) cur.arrived.push(m);
    else if (cur.foundNewest) state.current = { ...cur, messages: mergeById(cur.messages, [m]) };
  }
  clearTyping(m.sender_id);
}

// isMuted tells whether a message is in a muted channel or topic (left out of the combined
// feed, as in:home leaves it out).
function isMuted(m: Message): boolean {
  if (m.type !== 'stream' || m.stream_id === undefined) return false;
  return !!state.subs.get(m.stream_id)?.is_muted || state.mutedTopics.has(topicKey(m.stream_id, m.subject));
}

function applyUpdateMessage(ev: any): void {
  const ids = new Set<number>(ev.message_ids || [ev.message_id]);
  const newTopic: string | undefined = ev.subject ?? ev.topic;
  const newStream: number | undefined = ev.new_stream_id;
  updateMessages(ids, (m) => {
    const n = { ...m };
    if (m.id === ev.message_id && ev.rendered_content !== undefined) {
      n.content = ev.rendered_content;
      n.last_edit_timestamp = ev.edit_timestamp;
      delete n.match_content;
    }
    if (newTopic !== undefined && ev.orig_subject !== undefined) n.subject = newTopic;
    if (newStream !== undefined) n.stream_id = newStream;
    return n;
  });
  if (newTopic !== undefined || newStream !== undefined) {
    for (const id of ids) {
      const u = state.unread.get(id);
      if (u && u.streamId !== undefined) state.unread.set(id, { ...u, topic: newTopic ?? u.topic, streamId: newStream ?? u.streamId });
    }
    state.topics.delete(ev.stream_id);
    if (newStream !== undefined) state.topics.delete(newStream);
  }
}

function applyFlags(ev: any): void {
  const ids: number[] = ev.messages || [];
  if (ev.flag === 'read') {
    if (ev.op === 'add') {
      if (ev.all) state.unread.clear();
      for (const id of ids) state.unread.delete(id);
    } else if (ev.op === 'remove' && ev.message_details) {
      for (const id of ids) {
        const d = ev.message_details[id];
        if (!d) continue;
        state.unread.set(id, d.type === 'stream'
          ? { streamId: d.stream_id, topic: d.topic, mentioned: !!d.mentioned }
          : { dm: (d.user_ids || []).filter((x: number) => x !== state.me.user_id).sort((a: number, b: number) => a - b).join(','), mentioned: !!d.mentioned });
      }
    }
  }
  const set = new Set(ids);
  updateMessages(set, (m) => {
    const flags = m.flags.filter((f) => f !== ev.flag);
    if (ev.op === 'add') flags.push(ev.flag);
    return { ...m, flags };
  });
  if (ev.all && ev.op === 'add') {
    state.current = { ...state.current, messages: state.current.messages.map((m) => (m.flags.includes(ev.flag) ? m : { ...m, flags: [...m.flags, ev.flag] })) };
  }
}

function applyReaction(ev: any): void {
  updateMessages(new Set([ev.message_id]), (m) => {
    const same = (r: Reaction) => r.user_id === ev.user_id && r.emoji_code === ev.emoji_code && r.reaction_type === ev.reaction_type;
    const reactions = m.reactions.filter((r) => !same(r));
    if (ev.op === 'add') reactions.push({ emoji_name: ev.emoji_name, emoji_code: ev.emoji_code, reaction_type: ev.reaction_type, user_id: ev.user_id });
    return { ...m, reactions };
  });
}

function typingKey(ev: any): string {
  if (ev.message_type === 'stream') return 'stream:' + topicKey(ev.stream_id, ev.topic || '');
  const ids = (ev.recipients || []).map((r: any) => r.user_id);
  return 'dm:' + ids.filter((id: number) => id !== state.me.user_id).sort((a: number, b: number) => a - b).join(',');
}

function clearTyping(userId: number): void {
  for (const m of state.typing.values()) m.delete(userId);
}

function applyTyping(ev: any): void {
  const key = typingKey(ev);
  const who = ev.sender?.user_id;
  if (who === undefined || who === state.me.user_id) return;
  if (!state.typing.has(key)) state.typing.set(key, new Map());
  if (ev.op === 'start') state.typing.get(key)!.set(who, Date.now() + 15000);
  else state.typing.get(key)!.delete(who);
}

function applySubscription(ev: any): void {
  switch (ev.op) {
    case 'add':
      for (const s of ev.subscriptions) {
        state.subs.set(s.stream_id, s);
        state.streams.set(s.stream_id, s);
      }
      break;
    case 'remove':
      for (const s of ev.subscriptions) state.subs.delete(s.stream_id);
      break;
    case 'update': {
      const s = state.subs.get(ev.stream_id);
      if (!s) break;
      const prop = ev.property === 'in_home_view' ? 'is_muted' : ev.property;
      const value = ev.property === 'in_home_view' ? !ev.value : ev.value;
      state.subs.set(ev.stream_id, { ...s, [prop]: value });
      break;
    }
  }
}

function applyStream(ev: any): void {
  switch (ev.op) {
    case 'create':
      for (const s of ev.streams) state.streams.set(s.stream_id, s);
      break;
    case 'delete':
      for (const s of ev.streams) {
        state.streams.delete(s.stream_id);
        state.subs.delete(s.stream_id);
      }
      break;
    case 'update': {
      const s = state.subs.get(ev.stream_id);
      if (s) state.subs.set(ev.stream_id, { ...s, [ev.property]: ev.value });
      const t = state.streams.get(ev.stream_id);
      if (t) state.streams.set(ev.stream_id, { ...t, [ev.property]: ev.value });
      break;
    }
  }
}

function applyRealmUser(ev: any): void {
  const p = ev.person;
  switch (ev.op) {
    case 'add':
      state.users.set(p.user_id, p);
      break;
    case 'remove': {
      const u = state.users.get(p.user_id);
      if (u) state.users.set(p.user_id, { ...u, is_active: false });
      break;
    }
    case 'update': {
      const u = state.users.get(p.user_id);
      if (!u) break;
      const n: any = { ...u, ...p };
      if (p.custom_profile_field) {
        n.profile_data = { ...(u.profile_data || {}), [p.custom_profile_field.id]: { value: p.custom_profile_field.value, rendered_value: p.custom_profile_field.rendered_value } };
        delete n.custom_profile_field;
      }
      if (p.role !== undefined) {
        n.is_admin = p.role <= 200;
        n.is_owner = p.role === 100;
        n.is_guest = p.role === 600;
      }
      state.users.set(p.user_id, n);
      if (p.user_id === state.me.user_id && p.full_name) state.me = { ...state.me, full_name: p.full_name };
      break;
    }
  }
}

function applyPresence(ev: any): void {
  if (ev.presences) {
    for (const [id, p] of Object.entries(ev.presences)) state.presence.set(Number(id), (p as any).active_timestamp || 0);
    return;
  }
  const clients = ev.presence || {};
  let latest = state.presence.get(ev.user_id) || 0;
  for (const c of Object.values(clients) as any[]) if (c.status === 'active' && c.timestamp > latest) latest = c.timestamp;
  state.presence.set(ev.user_id, latest);
}

function applyEvent(ev: any): void {
  switch (ev.type) {
    case 'message': applyMessage(ev); break;
    case 'update_message': applyUpdateMessage(ev); break;
    case 'delete_message': {
      const ids = new Set<number>(ev.message_ids || [ev.message_id]);
      for (const id of ids) state.unread.delete(id);
      updateMessages(ids, () => null);
      if (ev.stream_id !== undefined) state.topics.delete(ev.stream_id);
      break;
    }
    case 'update_message_flags': applyFlags(ev); break;
    case 'reaction': applyReaction(ev); break;
    case 'typing': applyTyping(ev); break;
    case 'subscription': applySubscription(ev); break;
    case 'stream': applyStream(ev); break;
    case 'realm_user': applyRealmUser(ev); break;
    case 'presence': applyPresence(ev); break;
    case 'user_status': {
      const old = state.statuses.get(ev.user_id) || {};
      const n: Status = { ...old };
      for (const k of ['status_text', 'emoji_name', 'emoji_code', 'reaction_type', 'away'] as const) if (ev[k] !== undefined) (n as any)[k] = ev[k];
      state.statuses.set(ev.user_id, n);
      break;
    }
    case 'user_settings':
      if (ev.op === 'update') {
        state.settings = { ...state.settings, [ev.property]: ev.value };
        if (ev.property === 'color_scheme') applyTheme();
      }
      break;
    case 'user_topic':
      if (ev.visibility_policy === 1) state.mutedTopics.add(topicKey(ev.stream_id, ev.topic_name));
      else state.mutedTopics.delete(topicKey(ev.stream_id, ev.topic_name));
      break;
    case 'realm_emoji':
      state.realm = { ...state.realm, emoji: ev.realm_emoji };
      break;
    case 'custom_profile_fields':
      state.realm = { ...state.realm, profileFields: ev.fields };
      break;
    case 'realm':
      if (ev.op === 'update_dict' && ev.data) {
        const d = ev.data;
        if ('message_content_edit_limit_seconds' in d) state.realm.editLimit = d.message_content_edit_limit_seconds;
        if ('message_content_delete_limit_seconds' in d) state.realm.deleteLimit = d.message_content_delete_limit_seconds;
        if ('allow_message_editing' in d) state.realm.allowEditing = d.allow_message_editing;
        if ('name' in d) state.realm.name = d.name;
      } else if (ev.op === 'update' && ev.property === 'name') {
        state.realm.name = ev.value;
      }
      break;
  }
}

// ---- the long-poll ----

let polling = false;
let pollAbort: AbortController | null = null;

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

// startEvents runs the long-poll for as long as the page lives: events are applied in
// order; a lost queue (BAD_EVENT_QUEUE_ID: expired, or a server that restarted without it)
// means a new register and a catch-up of the view; network failures and 5xx answers are
// retried with a growing pause.
export async function startEvents(): Promise<void> {
  if (polling) return;
  polling = true;
  let failures = 0;
  for (;;) {
    pollAbort = new AbortController();
    try {
      const r = await call('GET', 'events', { queue_id: state.queueId, last_event_id: state.lastEventId }, pollAbort.signal);
      failures = 0;
      if (state.connection !== 'ok') state.connection = 'ok';
      for (const ev of r.events) {
        if (ev.id <= state.lastEventId) continue;
        state.lastEventId = ev.id;
        applyEvent(ev);
      }
      change();
    } catch (e) {
      const err = e as ApiError;
      if (err.status === 401) return;
      if (err.code === 'BAD_EVENT_QUEUE_ID') {
        try {
          await register();
          await catchUp();
          state.connection = 'ok';
          change();
          continue;
        } catch {
          // fall through to the pause
        }
      }
      failures++;
      state.connection = 'reconnecting';
      change();
      const retry = err.data && err.data.retryAfter ? err.data.retryAfter * 1000 : 0;
      await sleep(Math.max(retry, Math.min(10000, 500 * 2 ** Math.min(failures, 5))));
    }
  }
}

// boot registers and opens the view of the URL; a missing session goes to the login page.
export async function boot(view: View): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await register();
      break;
    } catch (e) {
      const err = e as ApiError;
      // Without a session, /json/register answers as to a spectator, and refuses this
      // client's parameters (client_gravatar) with a 400: both mean "log in".
      if (err.status === 401 || err.status === 400 || err.status === 403) return loginRedirect();
      if (attempt >= 30) throw e;
      await sleep(1000);
    }
  }
  change();
  void openView(view);
  void startEvents();
}

// ---- actions ----

const pendingRead = new Set<number>();
let readTimer = 0;

// markSeen marks messages read once they were on screen (batched).
export function markSeen(id: number): void {
  if (!state.unread.has(id)) return;
  state.unread.delete(id);
  pendingRead.add(id);
  change();
  if (!readTimer) {
    readTimer = window.setTimeout(flushRead, 250);
  }
}

async function flushRead(): Promise<void> {
  readTimer = 0;
  const ids = [...pendingRead];
  pendingRead.clear();
  if (!ids.length) return;
  try {
    await call('POST', 'messages/flags', { messages: ids, op: 'add', flag: 'read' });
  } catch {
    // The next register restores the true unread state.
  }
}

export async function loadTopics(streamId: number): Promise<void> {
  if (state.topics.has(streamId)) return;
  state.topics.set(streamId, []);
  try {
    const r = await call('GET', `users/me/${streamId}/topics`);
    state.topics.set(streamId, r.topics);
  } catch {
    state.topics.delete(streamId);
  }
  change();
}

export function canEdit(m: Message): boolean {
  if (m.sender_id !== state.me.user_id || !state.realm.allowEditing) return false;
  const limit = state.realm.editLimit;
  return !limit || now() - m.timestamp < limit;
}

export function canDelete(m: Message): boolean {
  if (state.me.is_admin) return true;
  if (m.sender_id !== state.me.user_id) return false;
  const limit = state.realm.deleteLimit;
  return !limit || now() - m.timestamp < limit;
}

// isActive tells whether a user was active recently, as Zulip's presence reports it.
export function isActive(userId: number): boolean {
  const t = state.presence.get(userId) || 0;
  return now() - t < state.realm.presenceOffline;
}

export function typingIn(key: string): number[] {
  const m = state.typing.get(key);
  if (!m) return [];
  const t = Date.now();
  return [...m.entries()].filter(([, exp]) => exp > t).map(([id]) => id);
}
