// Views of the message list, written in the URL's fragment as Zulip's web app writes them
// (#narrow/channel/3-Verona/topic/lunch, #narrow/dm/8,9-group, #narrow/is/starred, ...), so
// that the server's channel and topic links open in the client.

import type { Message } from './state';

export type View =
  | { kind: 'feed' }
  | { kind: 'channel'; streamId: number; topic?: string }
  | { kind: 'dm'; userIds: number[] } // the other participants (empty: oneself)
  | { kind: 'mentions' }
  | { kind: 'starred' }
  | { kind: 'search'; query: string };

// Zulip's hash encoding: encodeURIComponent, then "." for "%" (and "%2E" for ".").
export function encodeHash(s: string): string {
  return encodeURIComponent(s).replace(/\./g, '%2E').replace(/%/g, '.');
}

export function decodeHash(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\./g, '%'));
  } catch {
    return s;
  }
}

function slug(name: string): string {
  return encodeHash(name.replace(/ /g, '-'));
}

export function parseHash(hash: string): View {
  const parts = hash.replace(/^#/, '').split('/');
  if (parts[0] !== 'narrow') return { kind: 'feed' };
  const op = parts[1];
  const arg = parts[2] || '';
  switch (op) {
    case 'channel':
    case 'stream': {
      const id = parseInt(arg, 10);
      if (!(id > 0)) return { kind: 'feed' };
      if ((parts[3] === 'topic' || parts[3] === 'subject') && parts[4] !== undefined) {
        return { kind: 'channel', streamId: id, topic: decodeHash(parts[4]) };
      }
      return { kind: 'channel', streamId: id };
    }
    case 'dm':
    case 'pm-with': {
      const ids = arg.split('-')[0].split(',').map((x) => parseInt(x, 10)).filter((x) => x > 0);
      return { kind: 'dm', userIds: ids };
    }
    case 'is':
      if (arg === 'mentioned') return { kind: 'mentions' };
      if (arg === 'starred') return { kind: 'starred' };
      return { kind: 'feed' };
    case 'search':
      return { kind: 'search', query: decodeHash(parts.slice(2).join('/')) };
  }
  return { kind: 'feed' };
}

// viewHash writes a view; names are cosmetic (ids decide).
export function viewHash(v: View, names: { channel?: string; dm?: string } = {}): string {
  switch (v.kind) {
    case 'feed':
      return '#feed';
    case 'channel': {
      let h = `#narrow/channel/${v.streamId}-${slug(names.channel || '')}`;
      if (v.topic !== undefined) h += '/topic/' + encodeHash(v.topic);
      return h;
    }
    case 'dm':
      return `#narrow/dm/${v.userIds.join(',')}-${v.userIds.length > 1 ? 'group' : slug(names.dm || 'dm')}`;
    case 'mentions':
      return '#narrow/is/mentioned';
    case 'starred':
      return '#narrow/is/starred';
    case 'search':
      return '#narrow/search/' + encodeHash(v.query);
  }
}

// apiNarrow is the narrow of GET /messages for a view.
export function apiNarrow(v: View, me: number): object[] {
  switch (v.kind) {
    case 'feed':
      return [{ operator: 'in', operand: 'home' }]; // without muted channels and topics
    case 'channel':
      return v.topic === undefined
        ? [{ operator: 'channel', operand: v.streamId }]
        : [{ operator: 'channel', operand: v.streamId }, { operator: 'topic', operand: v.topic }];
    case 'dm':
      return [{ operator: 'dm', operand: v.userIds.length ? v.userIds : [me] }];
    case 'mentions':
      return [{ operator: 'is', operand: 'mentioned' }];
    case 'starred':
      return [{ operator: 'is', operand: 'starred' }];
    case 'search':
      return [{ operator: 'search', operand: v.query }];
  }
}

// dmKey names a direct-message conversation by its participants other than oneself.
export function dmKey(userIds: number[], me: number): string {
  const others = userIds.filter((id) => id !== me).sort((a, b) => a - b);
  return others.join(',');
}

export function messageDmKey(m: Message, me: number): string {
  if (m.type !== 'private' || !Array.isArray(m.display_recipient)) return '';
  return dmKey(m.display_recipient.map((r: any) => r.id), me);
}

// matches tells whether a new message belongs in a view; null when only the server can tell
// (search).
export function matches(v: View, m: Message, me: number): boolean | null {
  switch (v.kind) {
    case 'feed':
      return true;
    case 'channel':
      return m.type === 'stream' && m.stream_id === v.streamId && (v.topic === undefined || sameTopic(m.subject, v.topic));
    case 'dm':
      return m.type === 'private' && messageDmKey(m, me) === dmKey(v.userIds, me);
    case 'mentions':
      return m.flags.includes('mentioned') || m.flags.includes('wildcard_mentioned');
    case 'starred':
      return m.flags.includes('starred');
    case 'search':
      return null;
  }
}

export function sameTopic(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

export function sameView(a: View, b: View): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
