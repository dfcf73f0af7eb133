// The left sidebar: views (combined feed, mentions, starred), channels with unread counts
// (pinned first, muted dimmed), the topics of the channel on screen, and direct-message
// conversations.

import { useEffect } from 'preact/hooks';
import { dmKey, viewHash, type View } from './narrow';
import { counts, loadTopics, state, topicKey, userName } from './state';

function Count(props: { n: number; label?: string }) {
  if (!props.n) return null;
  return <span class="count" aria-label={`${props.n} unread${props.label ? ' ' + props.label : ''}`}>{props.n}</span>;
}

export function Sidebar(props: { view: View }) {
  const c = counts();
  const v = props.view;
  const current = (h: string) => (location.hash === h ? 'page' : undefined);
  const subs = [...state.subs.values()].sort((a, b) => a.name.localeCompare(b.name));
  const pinned = subs.filter((s) => s.pin_to_top);
  const others = subs.filter((s) => !s.pin_to_top);
  const openStream = v.kind === 'channel' ? v.streamId : 0;
  useEffect(() => {
    if (openStream) void loadTopics(openStream);
  }, [openStream]);
  const topics = openStream ? state.topics.get(openStream) || [] : [];
  const openSub = state.streams.get(openStream);
  const dms = [...state.dms.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30);

  const channelItem = (s: (typeof subs)[number]) => {
    const h = viewHash({ kind: 'channel', streamId: s.stream_id }, { channel: s.name });
    return (
      <li key={s.stream_id} class={(s.is_muted ? 'muted-channel ' : '') + (openStream === s.stream_id ? 'open' : '')}>
        <span class="channel-swatch" style={{ backgroundColor: s.color }} />
        <a href={h} aria-current={current(h)}>{s.name}</a>
        {s.invite_only && <span class="badge" role="img" aria-label="private" title="Private channel">🔒</span>}
        {s.is_muted && <span class="badge" role="img" aria-label="muted" title="Muted">🔇</span>}
        <Count n={c.streams.get(s.stream_id) || 0} />
      </li>
    );
  };

  return (
    <div class="sidebar">
      <nav aria-label="Views">
        <ul>
          <li><a href="#feed" aria-current={v.kind === 'feed' ? 'page' : undefined}>Combined feed</a><Count n={c.total} /></li>
          <li><a href="#narrow/is/mentioned" aria-current={current('#narrow/is/mentioned')}>Mentions</a><Count n={c.mentions} /></li>
          <li><a href="#narrow/is/starred" aria-current={current('#narrow/is/starred')}>Starred messages</a></li>
        </ul>
      </nav>
      <nav aria-label="Channels">
        <h2>Channels</h2>
        {pinned.length > 0 && (
          <>
            <h3 class="section-label">Pinned</h3>
            <ul class="channels pinned">{pinned.map(channelItem)}</ul>
            <h3 class="section-label">Other channels</h3>
          </>
        )}
        <ul class="channels">{others.map(channelItem)}</ul>
      </nav>
      {openSub && (
        <nav aria-label={`Topics of ${openSub.name}`}>
          <h2>Topics of #{openSub.name}</h2>
          <ul class="topics">
            {topics.slice(0, 30).map((t) => {
              const h = viewHash({ kind: 'channel', streamId: openStream, topic: t.name }, { channel: openSub.name });
              const muted = state.mutedTopics.has(topicKey(openStream, t.name));
              return (
                <li key={t.name} class={muted ? 'muted-topic' : ''}>
                  <a href={h} aria-current={v.kind === 'channel' && v.topic?.toLowerCase() === t.name.toLowerCase() ? 'page' : undefined}>{t.name || '(no topic)'}</a>
                  {muted && <span class="badge" role="img" aria-label="muted" title="Muted">🔇</span>}
                  <Count n={c.topics.get(topicKey(openStream, t.name)) || 0} />
                </li>
              );
            })}
            {!topics.length && <li class="muted">No topics yet.</li>}
          </ul>
        </nav>
      )}
      <nav aria-label="Direct messages">
        <h2>Direct messages</h2>
        <ul>
          {dms.map(([key]) => {
            const ids = key ? key.split(',').map(Number) : [];
            const label = ids.length ? ids.map(userName).join(', ') : userName(state.me.user_id) + ' (you)';
            const h = viewHash({ kind: 'dm', userIds: ids }, { dm: label });
            return (
              <li key={key}>
                <a href={h} aria-current={v.kind === 'dm' && dmKey(v.userIds, state.me.user_id) === key ? 'page' : undefined}>{label}</a>
                <Count n={c.dms.get(key) || 0} />
              </li>
            );
          })}
          {!dms.length && <li class="muted">No conversations yet.</li>}
        </ul>
      </nav>
    </div>
  );
}
