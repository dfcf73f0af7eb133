// Emoji: the server's emoji data (names and code points of Unicode emoji), the organization's
// custom emoji, how a reaction shows, and a picker.

import { useEffect, useRef, useState } from 'preact/hooks';
import { state, change, subscribe } from './state';

export interface EmojiChoice {
  name: string;
  code: string;
  type: 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';
  url?: string;
}

let unicode: EmojiChoice[] = [];
let loading: Promise<void> | null = null;

// loadEmoji fetches the server's emoji data once.
export function loadEmoji(): Promise<void> {
  if (!loading) {
    loading = fetch('/static/generated/emoji/emoji_api.json', { credentials: 'same-origin' })
      .then((r) => r.json())
      .then((d) => {
        const out: EmojiChoice[] = [];
        for (const [code, names] of Object.entries(d.code_to_names || {})) {
          for (const name of names as string[]) out.push({ name, code, type: 'unicode_emoji' });
        }
        out.sort((a, b) => a.name.localeCompare(b.name));
        unicode = out;
        change();
      })
      .catch(() => {
        loading = null;
      });
  }
  return loading;
}

export function customEmoji(): EmojiChoice[] {
  return Object.values(state.realm.emoji)
    .filter((e) => !e.deactivated)
    .map((e) => ({ name: e.name, code: e.id, type: 'realm_emoji' as const, url: e.source_url }));
}

const popular = ['+1', 'tada', 'smile', 'heart', 'working_on_it', 'octopus'];

// searchEmoji lists the emoji whose name contains q (prefix matches first), custom ones first.
export function searchEmoji(q: string, limit: number): EmojiChoice[] {
  q = q.toLowerCase();
  const all = [...customEmoji(), ...unicode];
  if (!q) {
    const top = popular.map((n) => all.find((e) => e.name === n)).filter((e): e is EmojiChoice => !!e);
    return [...customEmoji(), ...top, ...unicode].filter((e, i, a) => a.indexOf(e) === i).slice(0, limit);
  }
  const prefix = all.filter((e) => e.name.startsWith(q));
  const inner = all.filter((e) => !e.name.startsWith(q) && e.name.includes(q));
  return [...prefix, ...inner].slice(0, limit);
}

export function unicodeChar(code: string): string {
  try {
    return String.fromCodePoint(...code.split('-').map((c) => parseInt(c, 16)));
  } catch {
    return '';
  }
}

// EmojiGlyph shows one emoji: the character, the custom image, or its name.
export function EmojiGlyph(props: { name: string; code: string; type: string }) {
  if (props.type === 'realm_emoji') {
    const e = state.realm.emoji[props.code];
    if (e) return <img class="emoji" src={e.source_url} alt={':' + props.name + ':'} />;
  }
  if (props.type === 'unicode_emoji') {
    const ch = unicodeChar(props.code);
    if (ch) return <span class="emoji">{ch}</span>;
  }
  return <span class="emoji">:{props.name}:</span>;
}

// EmojiPicker is a dialog: a search box and the matching emoji; Esc closes it.
export function EmojiPicker(props: { onPick: (e: EmojiChoice) => void; onClose: () => void }) {
  const [q, setQ] = useState('');
  const [, setTick] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    void loadEmoji();
    input.current?.focus();
    // The picker lives inside memoized message rows: it follows the state itself (the emoji
    // data arriving, custom emoji added).
    return subscribe(() => setTick((t) => t + 1));
  }, []);
  const list = searchEmoji(q, 80);
  return (
    <div class="popover emoji-picker" role="dialog" aria-label="Add a reaction" onKeyDown={(e) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        props.onClose();
      }
    }}>
      <input ref={input} type="search" aria-label="Search emoji" placeholder="Search emoji" value={q}
        onInput={(e) => setQ((e.target as HTMLInputElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && list.length) {
            e.preventDefault();
            props.onPick(list[0]);
          }
        }} />
      <div class="emoji-grid">
        {list.map((e) => (
          <button type="button" key={e.type + e.code + e.name} title={':' + e.name + ':'} aria-label={e.name}
            onClick={() => props.onPick(e)}>
            <EmojiGlyph name={e.name} code={e.code} type={e.type} />
          </button>
        ))}
      </div>
    </div>
  );
}
