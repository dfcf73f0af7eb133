// Client compatibility suite: drives the example server only through the official JavaScript
// client, zulip-js, pinned in package.json. Run with `npm ci && npm test` (see ../../.ci/run).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import zulipInit from 'zulip-js';

import { build, start, zuliprc } from './server.mjs';
import { expectError, expectShape, expectSuccess } from './shape.mjs';

const PASSWORD = 'devpassword'; // --dev-password default
const API_KEY = /^[A-Za-z0-9]{32}$/;
const TOUR_VIDEO = 'https://videos.example.com/navigation-tour.mp4'; // --navigation-tour-video-url

let built;
let server;
let dir;
let site;
const clients = {}; // email -> logged-in zulip-js client

before(async () => {
  built = build();
  // A short heartbeat so that a blocking GET /events returns within the suite's time budget.
  server = await start(built.bin, ['--heartbeat-wait', '1s', '--navigation-tour-video-url', TOUR_VIDEO]);
  site = server.site;
  dir = mkdtempSync(join(tmpdir(), 'teamchat-zuliprc-'));
});

after(async () => {
  await server?.stop();
  built?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// login logs in with a password through zulip-js (POST /fetch_api_key) once per user.
async function login(email) {
  if (!clients[email]) {
    const client = await zulipInit({ realm: site, username: email, password: PASSWORD });
    assert.match(String(client.config.apiKey), API_KEY, `login ${email}`);
    clients[email] = client;
  }
  return clients[email];
}

test('logs in with a password (fetch_api_key)', async () => {
  const iago = await login('iago@zulip.com');
  assert.equal(iago.config.apiURL, `${site}/api/v1`);
  // The client's own accounts resource, called again, shows the full answer.
  const res = expectSuccess(await iago.accounts.retrieve(), 'fetch_api_key');
  expectShape(res, { api_key: 'string', email: 'string', user_id: 'integer' });
  assert.equal(res.api_key, iago.config.apiKey);
  assert.equal(res.email, 'iago@zulip.com');
});

test('refuses a wrong password and a malformed username', async () => {
  const othello = await zulipInit({ realm: site, username: 'othello@zulip.com', password: 'not the password' });
  assert.equal(othello.config.apiKey, undefined, 'zulip-js keeps no key after a failed login');
  expectError(await othello.accounts.retrieve(), 'AUTHENTICATION_FAILED',
    'Your username or password is incorrect', 'wrong password');

  const nobody = await zulipInit({ realm: site, username: 'not-an-email', password: PASSWORD });
  assert.equal(nobody.config.apiKey, undefined);
  expectError(await nobody.accounts.retrieve(), 'BAD_REQUEST', undefined, 'malformed username');
});

test('reads server settings', async () => {
  const iago = await login('iago@zulip.com');
  const res = expectSuccess(await iago.server.settings(), 'server_settings');
  expectShape(res, {
    zulip_version: 'string',
    zulip_feature_level: 'integer',
    zulip_merge_base: 'string',
    push_notifications_enabled: 'boolean',
    is_incompatible: 'boolean',
    email_auth_enabled: 'boolean',
    require_email_format_usernames: 'boolean',
    realm_url: 'string',
    realm_uri: 'string',
    realm_name: 'string',
    realm_icon: 'string',
    realm_description: 'string',
    realm_web_public_access_enabled: 'boolean',
    authentication_methods: { password: 'boolean', dev: 'boolean', email: 'boolean' },
    external_authentication_methods: ['object'],
  });
  assert.ok(res.zulip_feature_level >= 1);
  assert.equal(res.realm_url, site);
  assert.equal(res.realm_uri, site);
  assert.equal(res.realm_name, 'Zulip Dev');
  assert.equal(res.authentication_methods.password, true);
  assert.equal(res.authentication_methods.dev, true);
  assert.equal(res.is_incompatible, false);
});

test('logs in with a .zuliprc written by `chatserver zuliprc`', async () => {
  const rcPath = join(dir, 'hamlet.zuliprc');
  zuliprc(built.bin, server, 'hamlet@zulip.com', rcPath);
  const text = readFileSync(rcPath, 'utf8');
  assert.match(text, /^\[api\]\n/);
  assert.match(text, /^email=hamlet@zulip\.com$/m);
  assert.match(text, /^key=[A-Za-z0-9]{32}$/m);
  assert.match(text, new RegExp(`^site=${site.replace(/[.]/g, '\\.')}$`, 'm'));

  const hamlet = await zulipInit({ zuliprc: rcPath });
  assert.equal(hamlet.config.username, 'hamlet@zulip.com');
  assert.equal(hamlet.config.realm, site);
  const reg = expectSuccess(await hamlet.queues.register({ event_types: ['realm_user'] }), 'register');
  assert.equal(reg.delivery_email, 'hamlet@zulip.com');
  const me = reg.realm_users.find((u) => u.user_id === reg.user_id);
  assert.equal(me?.full_name, 'King Hamlet');
  expectSuccess(await hamlet.queues.deregister({ queue_id: reg.queue_id }), 'deregister');

  // A site written with a trailing slash makes zulip-js request "//api/v1/...".
  const slashPath = join(dir, 'slash.zuliprc');
  writeFileSync(slashPath, text.replace(/^site=(.*)$/m, 'site=$1/'));
  const slash = await zulipInit({ zuliprc: slashPath });
  assert.ok(slash.config.apiURL.endsWith('//api/v1'), slash.config.apiURL);
  expectSuccess(await slash.server.settings(), 'server_settings via //api/v1');
  const reg2 = expectSuccess(await slash.queues.register({ event_types: ['realm_user'] }), 'register via //api/v1');
  assert.equal(reg2.delivery_email, 'hamlet@zulip.com');
  expectSuccess(await slash.queues.deregister({ queue_id: reg2.queue_id }), 'deregister');
});

test('registers a queue and receives events', async () => {
  const iago = await login('iago@zulip.com');
  const reg = expectSuccess(await iago.queues.register({ event_types: ['realm_user'] }), 'register');
  expectShape(reg, {
    queue_id: 'string',
    last_event_id: 'integer',
    zulip_version: 'string',
    zulip_feature_level: 'integer',
    zulip_merge_base: 'string',
    realm_users: [{
      user_id: 'integer', email: 'string', full_name: 'string', is_admin: 'boolean',
      is_owner: 'boolean', is_guest: 'boolean', is_bot: 'boolean', role: 'integer',
      timezone: 'string', date_joined: 'string', avatar_url: 'string|null',
    }],
    user_id: 'integer',
    email: 'string',
    delivery_email: 'string',
    full_name: 'string',
    is_admin: 'boolean',
  });
  assert.equal(reg.last_event_id, -1);
  assert.equal(reg.is_admin, true);
  assert.ok(reg.realm_users.some((u) => u.full_name === 'Iago' && u.role === 200));

  // Nothing pending: dont_block answers at once with no events.
  const now = expectSuccess(await iago.events.retrieve({
    queue_id: reg.queue_id, last_event_id: reg.last_event_id, dont_block: true,
  }), 'events dont_block');
  assert.deepEqual(now.events, []);

  // A blocking fetch ends with a heartbeat (the server runs with --heartbeat-wait 1s).
  const beat = expectSuccess(await iago.events.retrieve({
    queue_id: reg.queue_id, last_event_id: reg.last_event_id,
  }), 'events long-poll');
  assert.equal(beat.events.length, 1, JSON.stringify(beat.events));
  assert.deepEqual(beat.events[0], { type: 'heartbeat', id: 0 });

  expectSuccess(await iago.queues.deregister({ queue_id: reg.queue_id }), 'deregister');
  const gone = expectError(await iago.events.retrieve({
    queue_id: reg.queue_id, last_event_id: 0, dont_block: true,
  }), 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${reg.queue_id}`, 'events after deregister');
  assert.equal(gone.queue_id, reg.queue_id);
});

test('refuses bad API keys with UNAUTHORIZED', async () => {
  const iago = await login('iago@zulip.com');
  const cases = [
    { name: 'wrong key', username: 'iago@zulip.com', apiKey: 'A'.repeat(32), msg: 'Invalid API key' },
    { name: 'malformed key', username: 'iago@zulip.com', apiKey: 'not-a-key', msg: 'Malformed API key' },
    { name: "another user's key", username: 'hamlet@zulip.com', apiKey: iago.config.apiKey, msg: 'Invalid API key' },
  ];
  for (const c of cases) {
    const client = await zulipInit({ realm: site, username: c.username, apiKey: c.apiKey });
    expectError(await client.queues.register({ event_types: ['realm_user'] }), 'UNAUTHORIZED', c.msg, c.name);
    expectError(await client.events.retrieve({ queue_id: 'x', last_event_id: -1 }), 'UNAUTHORIZED', c.msg, c.name);
  }
});

// userShape is the user object of GET /users and GET /users/me (Zulip's keys).
const userShape = {
  email: 'string', user_id: 'integer', avatar_version: 'integer', is_admin: 'boolean',
  is_owner: 'boolean', is_guest: 'boolean', role: 'integer', is_bot: 'boolean', full_name: 'string',
  timezone: 'string', is_active: 'boolean', date_joined: 'string', avatar_url: 'string|null',
};

// userIDs maps dev emails to user ids, read once through the client.
let userIDs;
async function idOf(email) {
  if (!userIDs) {
    const iago = await login('iago@zulip.com');
    const res = expectSuccess(await iago.users.retrieve(), 'GET /users');
    userIDs = Object.fromEntries(res.members.map((u) => [(u.delivery_email ?? u.email).toLowerCase(), u.user_id]));
  }
  const id = userIDs[email.toLowerCase()];
  assert.ok(Number.isInteger(id), `no user id for ${email}`);
  return id;
}

test('reads users and the own profile', async () => {
  const iago = await login('iago@zulip.com');
  const all = expectSuccess(await iago.users.retrieve(), 'GET /users');
  expectShape(all, { members: [userShape] });
  const byName = Object.fromEntries(all.members.map((u) => [u.full_name, u]));
  assert.equal(byName['King Hamlet']?.role, 400);
  assert.equal(byName['Desdemona']?.is_owner, true);
  assert.equal(byName['Polonius']?.is_guest, true);
  assert.equal(byName['Zulip Default Bot']?.is_bot, true);
  expectShape(byName['Zulip Default Bot'], { bot_type: 'integer', bot_owner_id: 'integer|null' });
  // iago is an administrator: he sees real emails.
  assert.equal(byName['King Hamlet'].delivery_email, 'hamlet@zulip.com');

  const me = expectSuccess(await iago.users.me.getProfile(), 'GET /users/me');
  expectShape(me, { ...userShape, max_message_id: 'integer' });
  assert.equal(me.full_name, 'Iago');
  assert.equal(me.is_admin, true);
  assert.equal(me.user_id, await idOf('iago@zulip.com'));

  // client_gravatar=false (query parameter) asks for every avatar URL.
  const noGravatar = expectSuccess(await iago.users.retrieve({ client_gravatar: false }), 'GET /users client_gravatar=false');
  for (const u of noGravatar.members) assert.equal(typeof u.avatar_url, 'string', u.full_name);

  // One user by id and by email, through the client's generic endpoint call.
  const hamletID = await idOf('hamlet@zulip.com');
  const one = expectSuccess(await iago.callEndpoint(`/users/${hamletID}`, 'GET'), 'GET /users/{id}');
  expectShape(one, { user: userShape });
  assert.equal(one.user.full_name, 'King Hamlet');
  expectError(await iago.callEndpoint('/users/999999', 'GET'), 'BAD_REQUEST', 'No such user', 'unknown user id');

  // A member sees the placeholder email of others (email_address_visibility admins only).
  const hamlet = await login('hamlet@zulip.com');
  const seen = expectSuccess(await hamlet.users.retrieve(), 'GET /users as member');
  const iagoSeen = seen.members.find((u) => u.user_id === me.user_id);
  assert.notEqual(iagoSeen.email, 'iago@zulip.com');
  assert.equal(iagoSeen.delivery_email, null);
});

test('refuses to create users without can_create_users', async () => {
  // An owner without the permission (the dev organization gives it to Iago only, as Zulip's
  // tools/test-api does).
  const desdemona = await login('desdemona@zulip.com');
  expectError(await desdemona.users.create({ email: 'new@zulip.com', password: 'a long password', full_name: 'New' }),
    'BAD_REQUEST', 'User not authorized to create users', 'POST /users');
  const res = expectSuccess(await desdemona.users.retrieve(), 'GET /users');
  assert.ok(!res.members.some((u) => u.full_name === 'New'), 'a refused create added a user');
});

test('changes a user and delivers realm_user events', async () => {
  const iago = await login('iago@zulip.com');
  const hamlet = await login('hamlet@zulip.com');
  const reg = expectSuccess(await hamlet.queues.register({ event_types: ['realm_user'] }), 'register');
  const cordeliaID = await idOf('cordelia@zulip.com');
  // zulip-js sends PATCH parameters in the query string.
  expectSuccess(await iago.callEndpoint(`/users/${cordeliaID}`, 'PATCH', { full_name: 'Cordelia of Britain' }), 'PATCH /users/{id}');
  const got = expectSuccess(await hamlet.events.retrieve({
    queue_id: reg.queue_id, last_event_id: reg.last_event_id, dont_block: true,
  }), 'events');
  const update = got.events.find((e) => e.type === 'realm_user' && e.op === 'update');
  assert.ok(update, JSON.stringify(got.events));
  assert.deepEqual(update.person, { user_id: cordeliaID, full_name: 'Cordelia of Britain' });
  assert.ok(Number.isInteger(update.id));
  const after = expectSuccess(await hamlet.callEndpoint(`/users/${cordeliaID}`, 'GET'), 'GET /users/{id}');
  assert.equal(after.user.full_name, 'Cordelia of Britain');
  expectSuccess(await hamlet.queues.deregister({ queue_id: reg.queue_id }), 'deregister');
});

// channelShape is the channel object of GET /streams; subscriptionShape adds the personal
// fields of GET /users/me/subscriptions.
const channelShape = {
  stream_id: 'integer', name: 'string', description: 'string', rendered_description: 'string',
  date_created: 'integer', creator_id: 'integer|null', invite_only: 'boolean', is_web_public: 'boolean',
  history_public_to_subscribers: 'boolean', message_retention_days: 'integer|null',
  first_message_id: 'integer|null', is_archived: 'boolean', topics_policy: 'string',
  stream_post_policy: 'integer', is_announcement_only: 'boolean', stream_weekly_traffic: 'integer|null',
  subscriber_count: 'integer', can_remove_subscribers_group: 'integer|object',
};
const subscriptionShape = {
  ...channelShape, color: 'string', is_muted: 'boolean', in_home_view: 'boolean', pin_to_top: 'boolean',
  desktop_notifications: 'boolean|null', audible_notifications: 'boolean|null',
  push_notifications: 'boolean|null', email_notifications: 'boolean|null',
  wildcard_mentions_notify: 'boolean|null',
};

test('creates channels, subscribes users and delivers subscription events', async () => {
  const iago = await login('iago@zulip.com');
  const hamlet = await login('hamlet@zulip.com');
  const hamletID = await idOf('hamlet@zulip.com');
  const iagoID = await idOf('iago@zulip.com');
  const reg = expectSuccess(await hamlet.queues.register({ event_types: ['subscription', 'stream'] }), 'register');
  expectShape(reg, { subscriptions: [subscriptionShape], never_subscribed: ['object'] });

  // zulip-js JSON-encodes array parameters of POST requests.
  const sub = expectSuccess(await iago.users.me.subscriptions.add({
    subscriptions: [{ name: 'zulip-js', description: 'Made by the **client**' }],
    principals: ['hamlet@zulip.com', 'iago@zulip.com'],
  }), 'subscribe');
  expectShape(sub, { subscribed: 'object', already_subscribed: 'object' });
  assert.deepEqual(sub.subscribed, { [hamletID]: ['zulip-js'], [iagoID]: ['zulip-js'] });
  assert.deepEqual(sub.already_subscribed, {});

  // Subscribing again changes nothing.
  const again = expectSuccess(await iago.users.me.subscriptions.add({ subscriptions: [{ name: 'zulip-js' }] }), 'subscribe again');
  assert.deepEqual(again.subscribed, {});
  assert.deepEqual(again.already_subscribed, { [iagoID]: ['zulip-js'] });

  const got = expectSuccess(await hamlet.events.retrieve({
    queue_id: reg.queue_id, last_event_id: reg.last_event_id, dont_block: true,
  }), 'events');
  const create = got.events.find((e) => e.type === 'stream' && e.op === 'create');
  assert.ok(create, JSON.stringify(got.events));
  expectShape(create, { streams: [channelShape] });
  assert.equal(create.streams[0].name, 'zulip-js');
  const add = got.events.find((e) => e.type === 'subscription' && e.op === 'add');
  assert.ok(add, JSON.stringify(got.events));
  expectShape(add, { subscriptions: [{ ...subscriptionShape, subscribers: ['integer'] }] });
  assert.equal(add.subscriptions[0].name, 'zulip-js');
  assert.deepEqual([...add.subscriptions[0].subscribers].sort((a, b) => a - b), [hamletID, iagoID].sort((a, b) => a - b));
  assert.ok(got.events.indexOf(create) < got.events.indexOf(add), 'stream create precedes subscription add');
  expectSuccess(await hamlet.queues.deregister({ queue_id: reg.queue_id }), 'deregister');

  // The client's subscription list and channel list show it.
  const subs = expectSuccess(await hamlet.streams.subscriptions.retrieve(), 'GET /users/me/subscriptions');
  expectShape(subs, { subscriptions: [subscriptionShape] });
  const mine = subs.subscriptions.find((s) => s.name === 'zulip-js');
  assert.ok(mine, JSON.stringify(subs.subscriptions.map((s) => s.name)));
  assert.equal(mine.description, 'Made by the **client**');
  assert.match(mine.rendered_description, /<strong>client<\/strong>/);
  assert.equal(mine.creator_id, iagoID);
  assert.equal(mine.subscriber_count, 2);
  assert.match(mine.color, /^#[0-9a-f]{6}$/i);

  const withSubs = expectSuccess(await hamlet.streams.subscriptions.retrieve({ include_subscribers: true }),
    'GET /users/me/subscriptions include_subscribers');
  const listed = withSubs.subscriptions.find((s) => s.name === 'zulip-js');
  assert.deepEqual([...listed.subscribers].sort((a, b) => a - b), [hamletID, iagoID].sort((a, b) => a - b));

  const streams = expectSuccess(await hamlet.streams.retrieve(), 'GET /streams');
  expectShape(streams, { streams: [channelShape] });
  assert.ok(streams.streams.some((s) => s.name === 'zulip-js' && s.stream_id === mine.stream_id));

  // POST /channels/create, through the client's generic endpoint call.
  const created = expectSuccess(await iago.callEndpoint('/channels/create', 'POST', {
    name: 'zulip-js private', subscribers: [iagoID], invite_only: 'true',
  }), 'POST /channels/create');
  expectShape(created, { id: 'integer' });
  const dup = expectError(await iago.callEndpoint('/channels/create', 'POST', { name: 'ZULIP-JS', subscribers: [iagoID] }),
    'CHANNEL_ALREADY_EXISTS', /^Channel '(zulip-js|ZULIP-JS)' already exists$/, 'create an existing channel');
  assert.equal(dup.result, 'error');
  const iagoSubs = expectSuccess(await iago.streams.subscriptions.retrieve(), 'GET /users/me/subscriptions');
  const priv = iagoSubs.subscriptions.find((s) => s.stream_id === created.id);
  assert.equal(priv?.invite_only, true);
  // hamlet cannot see the private channel.
  const hamletStreams = expectSuccess(await hamlet.streams.retrieve(), 'GET /streams');
  assert.ok(!hamletStreams.streams.some((s) => s.stream_id === created.id), 'a member sees a private channel');
});

test('refuses subscriptions it cannot grant', async () => {
  const iago = await login('iago@zulip.com');
  const hamlet = await login('hamlet@zulip.com');
  expectError(await hamlet.users.me.subscriptions.add({ subscriptions: [{ name: 'zulip-js private' }] }),
    'BAD_REQUEST', 'Unable to access channel (zulip-js private).', 'subscribe to a private channel');
  expectError(await iago.users.me.subscriptions.add({ subscriptions: [{ name: 'zulip-js' }], principals: ['nobody@zulip.com'] }),
    'BAD_REQUEST', 'No such user', 'subscribe an unknown user');
  expectError(await iago.users.me.subscriptions.add({ subscriptions: [{ name: '' }] }),
    'BAD_REQUEST', undefined, 'subscribe to an empty name');
  const subs = expectSuccess(await hamlet.streams.subscriptions.retrieve(), 'GET /users/me/subscriptions');
  assert.ok(!subs.subscriptions.some((s) => s.name === 'zulip-js private' || s.name === ''), 'a refused subscribe changed something');
});

test('answers unknown endpoints and methods with JSON errors the client can read', async () => {
  const iago = await login('iago@zulip.com');
  // zulip-js throws "Server Returned a non-JSON response" on anything but JSON.
  const missing = await iago.callEndpoint('/no/such/endpoint', 'GET');
  assert.equal(missing.result, 'error', JSON.stringify(missing));
  assert.equal(missing.msg, 'Not Found');
  const method = await iago.callEndpoint('/server_settings', 'DELETE');
  assert.equal(method.result, 'error', JSON.stringify(method));
  assert.equal(method.msg, 'Method Not Allowed');
  assert.ok(method.allowed_methods.includes('GET'), JSON.stringify(method.allowed_methods));
});

test('adds, edits and removes linkifiers (filters) and delivers realm_linkifiers events', async () => {
  const iago = await login('iago@zulip.com');
  const hamlet = await login('hamlet@zulip.com');
  const linkifierShape = { id: 'integer', pattern: 'string', url_template: 'string' };
  // Only clients declaring linkifier_url_template get realm_linkifiers (else an empty list).
  const reg = expectSuccess(await hamlet.queues.register({
    event_types: ['realm_linkifiers'],
    client_capabilities: JSON.stringify({ linkifier_url_template: true }),
  }), 'register');
  expectShape(reg, { realm_linkifiers: [linkifierShape] });
  const before = reg.realm_linkifiers.length;

  const added = expectSuccess(await iago.callEndpoint('/realm/filters', 'POST', {
    pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip-js/issues/{id}',
  }), 'POST /realm/filters');
  expectShape(added, { id: 'integer' });

  // zulip-js sends PATCH parameters in the query string.
  expectSuccess(await iago.callEndpoint(`/realm/filters/${added.id}`, 'PATCH', {
    pattern: 'JS-(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip-js/issues/{id}',
  }), 'PATCH /realm/filters/{id}');

  const list = expectSuccess(await hamlet.callEndpoint('/realm/linkifiers', 'GET'), 'GET /realm/linkifiers');
  expectShape(list, { linkifiers: [linkifierShape] });
  const mine = list.linkifiers.find((l) => l.id === added.id);
  assert.deepEqual({ pattern: mine?.pattern, url_template: mine?.url_template },
    { pattern: 'JS-(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip-js/issues/{id}' });

  const got = expectSuccess(await hamlet.events.retrieve({
    queue_id: reg.queue_id, last_event_id: reg.last_event_id, dont_block: true,
  }), 'events');
  const changes = got.events.filter((e) => e.type === 'realm_linkifiers');
  assert.equal(changes.length, 2, JSON.stringify(got.events));
  expectShape(changes[1], { realm_linkifiers: [linkifierShape] });
  assert.equal(changes[0].realm_linkifiers.length, before + 1);
  assert.equal(changes[1].realm_linkifiers.find((l) => l.id === added.id)?.pattern, 'JS-(?P<id>[0-9]+)');

  // Refusals: a member may not add, a bad pattern and a template group missing from the pattern.
  expectError(await hamlet.callEndpoint('/realm/filters', 'POST', { pattern: 'X-(?P<id>[0-9]+)', url_template: 'https://x.test/{id}' }),
    'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator', 'member adds a linkifier');
  expectError(await iago.callEndpoint('/realm/filters', 'POST', { pattern: '(foo', url_template: 'https://x.test/' }),
    'BAD_REQUEST', /^Bad regular expression/, 'bad pattern');
  expectError(await iago.callEndpoint('/realm/filters', 'POST', { pattern: 'X-(?P<id>[0-9]+)', url_template: 'https://x.test/{name}' }),
    'BAD_REQUEST', undefined, 'template group not in pattern');
  expectError(await iago.callEndpoint('/realm/filters/999999', 'DELETE'), 'BAD_REQUEST', 'Linkifier not found.', 'remove unknown');

  expectSuccess(await iago.callEndpoint(`/realm/filters/${added.id}`, 'DELETE'), 'DELETE /realm/filters/{id}');
  const after = expectSuccess(await hamlet.callEndpoint('/realm/linkifiers', 'GET'), 'GET /realm/linkifiers');
  assert.equal(after.linkifiers.length, before, 'refusals added linkifiers or the removal failed');
  expectSuccess(await hamlet.queues.deregister({ queue_id: reg.queue_id }), 'deregister');

  // zulip-js's own filters.retrieve() calls the legacy GET /realm/filters, which newer Zulip
  // servers no longer route: whatever the answer, it must be a JSON envelope the client reads.
  const legacy = await hamlet.filters.retrieve();
  assert.ok(['success', 'error'].includes(legacy.result), JSON.stringify(legacy));
});

const messageShape = {
  id: 'integer', sender_id: 'integer', content: 'string', recipient_id: 'integer', timestamp: 'integer',
  client: 'string', subject: 'string', topic_links: 'array', is_me_message: 'boolean', reactions: 'array',
  submessages: 'array', sender_full_name: 'string', sender_email: 'string', display_recipient: 'string|array',
  type: 'string', avatar_url: 'string|null', content_type: 'string',
};

test('sends and fetches messages and delivers message events', async () => {
  const iago = await login('iago@zulip.com');
  const hamlet = await login('hamlet@zulip.com');
  const hamletID = await idOf('hamlet@zulip.com');
  const iagoID = await idOf('iago@zulip.com');
  // register's apply_markdown defaults to false (raw Markdown in events); ask for HTML
  // (zulip-js's multipart body takes strings only).
  const reg = expectSuccess(await hamlet.queues.register({ event_types: ['message'], apply_markdown: 'true' }), 'register');

  // The channel 'zulip-js' (created above) has iago and hamlet subscribed.
  const sent = expectSuccess(await iago.messages.send({
    type: 'stream', to: 'zulip-js', topic: 'greetings', content: 'Hello from **zulip-js**',
  }), 'POST /messages (channel)');
  expectShape(sent, { id: 'integer' });
  // zulip-js JSON-encodes the array of recipient ids.
  const dm = expectSuccess(await iago.messages.send({ type: 'direct', to: [hamletID], content: 'psst' }), 'POST /messages (direct)');

  const got = expectSuccess(await hamlet.events.retrieve({
    queue_id: reg.queue_id, last_event_id: reg.last_event_id, dont_block: true,
  }), 'events');
  const msgs = got.events.filter((e) => e.type === 'message');
  assert.deepEqual(msgs.map((e) => e.message.id), [sent.id, dm.id], JSON.stringify(got.events));
  for (const e of msgs) expectShape(e, { message: messageShape, flags: ['string'] });
  assert.equal(msgs[0].message.content, '<p>Hello from <strong>zulip-js</strong></p>');
  assert.equal(msgs[0].message.content_type, 'text/html');
  assert.equal(msgs[0].message.display_recipient, 'zulip-js');
  assert.equal(msgs[0].message.subject, 'greetings');
  assert.equal(msgs[0].message.sender_id, iagoID);
  assert.ok(!msgs[0].flags.includes('read'), 'a received message is unread');
  assert.equal(msgs[1].message.type, 'private');
  assert.deepEqual(msgs[1].message.display_recipient.map((r) => r.id), [iagoID, hamletID].sort((a, b) => a - b));
  expectSuccess(await hamlet.queues.deregister({ queue_id: reg.queue_id }), 'deregister');

  // zulip-js JSON-encodes the narrow and sends GET parameters in the query string.
  const fetched = expectSuccess(await hamlet.messages.retrieve({
    anchor: 'newest', num_before: 10, num_after: 0,
    narrow: [{ operator: 'channel', operand: 'zulip-js' }, { operator: 'topic', operand: 'greetings' }],
  }), 'GET /messages');
  expectShape(fetched, {
    messages: [{ ...messageShape, flags: ['string'] }], anchor: 'integer', found_anchor: 'boolean',
    found_oldest: 'boolean', found_newest: 'boolean', history_limited: 'boolean',
  });
  assert.deepEqual(fetched.messages.map((m) => m.id), [sent.id]);
  assert.equal(fetched.found_newest, true);

  const one = expectSuccess(await hamlet.messages.getById({ message_id: sent.id }), 'GET /messages/{id}');
  expectShape(one, { message: messageShape, raw_content: 'string' });
  assert.equal(one.raw_content, 'Hello from **zulip-js**');

  // Flags: mark the channel message read.
  const flagged = expectSuccess(await hamlet.messages.flags.add({ messages: [sent.id], flag: 'read' }), 'POST /messages/flags');
  assert.deepEqual(flagged.messages, [sent.id]);
  const reread = expectSuccess(await hamlet.messages.retrieve({
    anchor: sent.id, num_before: 0, num_after: 0,
  }), 'GET /messages anchor');
  assert.ok(reread.messages[0].flags.includes('read'), JSON.stringify(reread.messages[0].flags));

  // Error path: an unknown channel.
  const unknown = expectError(await iago.messages.send({ type: 'stream', to: 'no such channel', topic: 't', content: 'x' }),
    'STREAM_DOES_NOT_EXIST', "Channel 'no such channel' does not exist", 'send to an unknown channel');
  assert.equal(unknown.stream, 'no such channel');
  expectError(await hamlet.messages.retrieve({ anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'channel', operand: 'no such channel' }] }),
    'BAD_NARROW', /^Invalid narrow operator: unknown channel/, 'fetch from an unknown channel');
});

test('edits and moves messages and delivers update_message events', async () => {
  const iago = await login('iago@zulip.com');
  const hamlet = await login('hamlet@zulip.com');
  const reg = expectSuccess(await hamlet.queues.register({
    event_types: ['update_message'], client_capabilities: JSON.stringify({ empty_topic_name: true }),
  }), 'register');
  const sent = expectSuccess(await iago.messages.send({
    type: 'stream', to: 'zulip-js', topic: 'drafts', content: 'first version',
  }), 'POST /messages');

  // zulip-js sends every parameter in the body of PATCH /messages/{message_id}.
  const edited = expectSuccess(await iago.messages.update({ message_id: sent.id, content: 'second **version**' }), 'PATCH /messages/{id} (content)');
  expectShape(edited, { detached_uploads: 'array' });
  expectSuccess(await hamlet.messages.update({ message_id: sent.id, topic: 'final', propagate_mode: 'change_all' }), 'PATCH /messages/{id} (topic)');
  expectError(await hamlet.messages.update({ message_id: sent.id, content: 'not mine' }),
    'BAD_REQUEST', "You don't have permission to edit this message", 'edit of another user\'s content');

  const got = expectSuccess(await hamlet.events.retrieve({
    queue_id: reg.queue_id, last_event_id: reg.last_event_id, dont_block: true,
  }), 'events');
  const updates = got.events.filter((e) => e.type === 'update_message');
  assert.equal(updates.length, 2, JSON.stringify(got.events));
  for (const e of updates) {
    expectShape(e, { user_id: 'integer', edit_timestamp: 'integer', message_id: 'integer', message_ids: ['integer'], flags: ['string'], rendering_only: 'boolean' });
  }
  assert.equal(updates[0].orig_content, 'first version');
  assert.equal(updates[0].rendered_content, '<p>second <strong>version</strong></p>');
  assert.equal(updates[1].orig_subject, 'drafts');
  assert.equal(updates[1].subject, 'final');
  assert.equal(updates[1].propagate_mode, 'change_all');
  expectSuccess(await hamlet.queues.deregister({ queue_id: reg.queue_id }), 'deregister');

  const one = expectSuccess(await hamlet.messages.getById({ message_id: sent.id }), 'GET /messages/{id}');
  assert.equal(one.raw_content, 'second **version**');
  assert.equal(one.message.subject, 'final');
  expectShape(one.message, { last_edit_timestamp: 'integer', last_moved_timestamp: 'integer', edit_history: 'array' });
});

test('keeps alert words and reports presence', async () => {
  const hamlet = await login('hamlet@zulip.com');
  const reg = expectSuccess(await hamlet.queues.register({
    event_types: ['alert_words', 'presence'], client_capabilities: JSON.stringify({ simplified_presence_events: true }),
  }), 'register');

  // zulip-js reads alert words; adding and removing go through its generic call (JSON lists).
  const added = expectSuccess(await hamlet.callEndpoint('/users/me/alert_words', 'POST', { alert_words: JSON.stringify(['Lunch', ' deploy ', 'lunch']) }), 'POST /users/me/alert_words');
  assert.deepEqual(added.alert_words, ['lunch', 'deploy']); // the last spelling of a word wins
  expectSuccess(await hamlet.callEndpoint('/users/me/alert_words', 'DELETE', { alert_words: JSON.stringify(['DEPLOY']) }), 'DELETE /users/me/alert_words');
  const words = expectSuccess(await hamlet.users.me.alertWords.retrieve(), 'GET /users/me/alert_words');
  assert.deepEqual(words.alert_words, ['lunch']);
  expectError(await hamlet.callEndpoint('/users/me/alert_words', 'POST', { alert_words: 'lunch' }), 'BAD_REQUEST', 'alert_words is not valid JSON', 'alert words not JSON');

  // A report answers the modern format.
  const hamletID = await idOf('hamlet@zulip.com');
  const polled = expectSuccess(await hamlet.callEndpoint('/users/me/presence', 'POST', { status: 'active', last_update_id: '-1' }), 'POST /users/me/presence');
  expectShape(polled, { presences: 'object', server_timestamp: 'number', presence_last_update_id: 'integer' });
  expectShape(polled.presences[String(hamletID)], { active_timestamp: 'integer', idle_timestamp: 'integer' });
  const realm = expectSuccess(await hamlet.callEndpoint('/realm/presence', 'GET'), 'GET /realm/presence');
  // The legacy format is keyed by API email (placeholders here: emails are visible to admins only).
  assert.ok(Object.values(realm.presences).some((p) => p.aggregated?.status === 'active' && p.website?.client === 'website'), JSON.stringify(realm.presences));
  expectError(await hamlet.callEndpoint('/users/me/presence', 'POST', { status: 'away' }), 'BAD_REQUEST', 'Invalid status: away', 'unknown status');

  // Every dev user is already online (the seed's presence rows), so hamlet's report announced
  // nothing; a new user's first report announces them online (simplified form).
  const iago = await login('iago@zulip.com');
  const created = expectSuccess(await iago.users.create({ email: 'present@zulip.com', password: PASSWORD, full_name: 'Present' }), 'POST /users');
  const newcomer = await login('present@zulip.com');
  expectSuccess(await newcomer.callEndpoint('/users/me/presence', 'POST', { status: 'active' }), 'POST /users/me/presence (new user)');

  const got = expectSuccess(await hamlet.events.retrieve({ queue_id: reg.queue_id, last_event_id: reg.last_event_id, dont_block: true }), 'events');
  assert.deepEqual(got.events.map((e) => e.type), ['alert_words', 'alert_words', 'presence'], JSON.stringify(got.events));
  expectShape(got.events[2].presences[String(created.user_id)], { active_timestamp: 'integer', idle_timestamp: 'integer' });
  expectSuccess(await hamlet.queues.deregister({ queue_id: reg.queue_id }), 'deregister');
});

test('reads the organization settings and changes them (PATCH /realm), delivering realm events', async () => {
  const hamlet = await login('hamlet@zulip.com');
  const iago = await login('iago@zulip.com');
  const desdemona = await login('desdemona@zulip.com');
  const reg = expectSuccess(await hamlet.queues.register({ event_types: ['realm', 'realm_user_settings_defaults', 'realm_domains'] }), 'register');
  expectShape(reg, {
    realm_message_retention_days: 'integer', realm_video_chat_provider: 'integer', realm_enable_read_receipts: 'boolean',
    realm_wildcard_mention_policy: 'integer', realm_can_delete_own_message_group: 'integer', realm_default_external_accounts: 'object',
    realm_authentication_methods: 'object', server_generation: 'integer', server_supported_permission_settings: 'object',
    realm_user_settings_defaults: 'object', realm_domains: 'array',
  });
  assert.equal(reg.realm_message_retention_days, -1);
  assert.equal(reg.realm_video_chat_provider, 1);
  assert.equal(reg.realm_enable_read_receipts, true); // as in Zulip's development organization

  // zulip-js sends PATCH parameters in the query string.
  const changed = expectSuccess(await iago.callEndpoint('/realm', 'PATCH', { video_chat_provider: 0, enable_read_receipts: false }), 'PATCH /realm');
  assert.deepEqual({ video_chat_provider: changed.video_chat_provider, enable_read_receipts: changed.enable_read_receipts },
    { video_chat_provider: 0, enable_read_receipts: false });
  expectError(await iago.callEndpoint('/realm', 'PATCH', { message_retention_days: 30 }),
    'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner', 'administrator changes retention');
  expectSuccess(await desdemona.callEndpoint('/realm', 'PATCH', { message_retention_days: 30 }), 'owner changes retention');
  expectSuccess(await iago.callEndpoint('/realm/user_settings_defaults', 'PATCH', { twenty_four_hour_time: true }), 'PATCH /realm/user_settings_defaults');
  expectSuccess(await desdemona.callEndpoint('/realm/domains', 'POST', { domain: 'zulip.com', allow_subdomains: 'false' }), 'POST /realm/domains');
  expectError(await hamlet.callEndpoint('/realm', 'PATCH', { video_chat_provider: 1 }),
    'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator', 'member changes a setting');

  const got = expectSuccess(await hamlet.events.retrieve({ queue_id: reg.queue_id, last_event_id: reg.last_event_id, dont_block: true }), 'events');
  const summary = got.events.map((e) => [e.type, e.op, e.property]);
  assert.deepEqual(summary, [
    ['realm', 'update', 'enable_read_receipts'],
    ['realm', 'update', 'video_chat_provider'],
    ['realm', 'update', 'message_retention_days'],
    ['realm_user_settings_defaults', 'update', 'twenty_four_hour_time'],
    ['realm_domains', 'add', undefined],
  ], JSON.stringify(got.events));
  assert.equal(got.events[2].value, 30);
  expectSuccess(await hamlet.queues.deregister({ queue_id: reg.queue_id }), 'deregister');

  const fresh = expectSuccess(await hamlet.queues.register({ event_types: ['realm', 'realm_domains'] }), 'register again');
  assert.equal(fresh.realm_video_chat_provider, 0);
  assert.equal(fresh.realm_enable_read_receipts, false);
  assert.equal(fresh.realm_message_retention_days, 30);
  assert.deepEqual(fresh.realm_domains, [{ domain: 'zulip.com', allow_subdomains: false }]);
  expectSuccess(await hamlet.queues.deregister({ queue_id: fresh.queue_id }), 'deregister');
});

test('offers onboarding steps and marks one read (POST /users/me/onboarding_steps), delivering onboarding_steps events', async () => {
  const othello = await login('othello@zulip.com');
  const reg = expectSuccess(await othello.queues.register({ event_types: ['onboarding_steps'] }), 'register');
  expectShape(reg, { onboarding_steps: [{ type: 'string', name: 'string' }], navigation_tour_video_url: 'string' });
  assert.equal(reg.navigation_tour_video_url, TOUR_VIDEO);
  const names = reg.onboarding_steps.map((s) => s.name);
  assert.ok(names.includes('navigation_tour_video') && names.includes('intro_resolve_topic'), JSON.stringify(names));

  // zulip-js has no method for it: its generic call, as the web app posts it.
  expectSuccess(await othello.callEndpoint('/users/me/onboarding_steps', 'POST', { onboarding_step: 'navigation_tour_video' }), 'POST /users/me/onboarding_steps');
  expectError(await othello.callEndpoint('/users/me/onboarding_steps', 'POST', { onboarding_step: 'intro_streams' }),
    'BAD_REQUEST', 'Unknown onboarding_step: intro_streams', 'unknown onboarding step');

  const got = expectSuccess(await othello.events.retrieve({ queue_id: reg.queue_id, last_event_id: reg.last_event_id, dont_block: true }), 'events');
  assert.deepEqual(got.events.map((e) => e.type), ['onboarding_steps'], JSON.stringify(got.events));
  assert.deepEqual(got.events[0].onboarding_steps, reg.onboarding_steps.filter((s) => s.name !== 'navigation_tour_video'));
  expectSuccess(await othello.queues.deregister({ queue_id: reg.queue_id }), 'deregister');

  const fresh = expectSuccess(await othello.queues.register({ event_types: ['onboarding_steps'] }), 'register again');
  assert.deepEqual(fresh.onboarding_steps, got.events[0].onboarding_steps);
  expectSuccess(await othello.queues.deregister({ queue_id: fresh.queue_id }), 'deregister');
});

test('reacts, types and marks messages read, with reaction, typing and update_message_flags events', async () => {
  const iago = await login('iago@zulip.com');
  const hamlet = await login('hamlet@zulip.com');
  const hamletID = await idOf('hamlet@zulip.com');
  const iagoID = await idOf('iago@zulip.com');
  const reg = expectSuccess(await hamlet.queues.register({ event_types: ['reaction', 'typing', 'update_message_flags'] }), 'register');
  const dm = expectSuccess(await iago.messages.send({ type: 'direct', to: [hamletID], content: 'react to me' }), 'POST /messages');

  // Reactions: by name; again is REACTION_ALREADY_EXISTS; removal by name through DELETE's query.
  expectSuccess(await iago.reactions.add({ message_id: dm.id, emoji_name: 'octopus' }), 'POST reactions');
  expectError(await iago.reactions.add({ message_id: dm.id, emoji_name: 'octopus' }),
    'REACTION_ALREADY_EXISTS', 'Reaction already exists.', 'the same reaction twice');
  expectError(await iago.reactions.add({ message_id: dm.id, emoji_name: 'no_such_emoji' }),
    'BAD_REQUEST', "Emoji 'no_such_emoji' does not exist", 'an unknown emoji');
  expectSuccess(await hamlet.reactions.add({ message_id: dm.id, emoji_name: 'zulip' }), 'POST reactions (extra emoji)');
  const one = expectSuccess(await hamlet.messages.getById({ message_id: dm.id }), 'GET /messages/{id}');
  assert.deepEqual(one.message.reactions, [
    { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: iagoID },
    { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji', user_id: hamletID },
  ]);
  expectSuccess(await iago.reactions.remove({ message_id: dm.id, emoji_name: 'octopus' }), 'DELETE reactions');
  expectError(await iago.reactions.remove({ message_id: dm.id, emoji_name: 'octopus' }),
    'REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.", 'removing twice');

  // Typing: zulip-js sends the list of recipient ids.
  expectSuccess(await iago.typing.send({ to: [hamletID], op: 'start' }), 'POST /typing start');
  expectSuccess(await iago.typing.send({ to: [hamletID], op: 'stop' }), 'POST /typing stop');

  // Marking read: the message flags and POST /mark_all_as_read.
  expectSuccess(await hamlet.messages.flags.add({ messages: [dm.id], flag: 'read' }), 'POST /messages/flags');
  const later = expectSuccess(await iago.messages.send({ type: 'direct', to: [hamletID], content: 'and this' }), 'POST /messages');
  const all = expectSuccess(await hamlet.callEndpoint('/mark_all_as_read', 'POST', {}), 'POST /mark_all_as_read');
  assert.equal(all.complete, true);
  const reread = expectSuccess(await hamlet.messages.getById({ message_id: later.id }), 'GET /messages/{id} after');
  assert.ok(reread.message.flags.includes('read'), JSON.stringify(reread.message.flags));

  const got = expectSuccess(await hamlet.events.retrieve({
    queue_id: reg.queue_id, last_event_id: reg.last_event_id, dont_block: true,
  }), 'events');
  const reactions = got.events.filter((e) => e.type === 'reaction');
  assert.deepEqual(reactions.map((e) => [e.op, e.emoji_name, e.user_id]),
    [['add', 'octopus', iagoID], ['add', 'zulip', hamletID], ['remove', 'octopus', iagoID]], JSON.stringify(got.events));
  expectShape(reactions[0], {
    type: 'string', op: 'string', user_id: 'integer', message_id: 'integer', emoji_name: 'string',
    emoji_code: 'string', reaction_type: 'string', id: 'integer',
    user: { user_id: 'integer', email: 'string', full_name: 'string' },
  });
  const typing = got.events.filter((e) => e.type === 'typing');
  assert.deepEqual(typing.map((e) => [e.op, e.message_type, e.sender.user_id]), [['start', 'direct', iagoID], ['stop', 'direct', iagoID]]);
  assert.deepEqual(typing[0].recipients.map((r) => r.user_id).sort((a, b) => a - b), [iagoID, hamletID].sort((a, b) => a - b));
  const flags = got.events.filter((e) => e.type === 'update_message_flags');
  assert.deepEqual(flags.map((e) => [e.op, e.flag]), [['add', 'read'], ['add', 'read']], JSON.stringify(flags));
  assert.deepEqual(flags[0].messages, [dm.id]);
  // Every unread message of hamlet (the development organization's too), the newest last.
  assert.equal(flags[1].messages.at(-1), later.id, JSON.stringify(flags[1]));
  expectSuccess(await hamlet.queues.deregister({ queue_id: reg.queue_id }), 'deregister');
});

test('uploads a file, reads it back and lists it with the message that links it', async () => {
  const hamlet = await login('hamlet@zulip.com');
  const iago = await login('iago@zulip.com');
  const iagoID = await idOf('iago@zulip.com');
  const path = join(dir, 'notes.txt');
  writeFileSync(path, 'uploaded through zulip-js\n');
  // zulip-js posts its parameters as multipart form data; a file stream becomes a file part.
  const up = expectSuccess(await hamlet.callEndpoint('/user_uploads', 'POST', { file: createReadStream(path) }), 'POST /user_uploads');
  assert.match(up.url, /^\/user_uploads\/2\/[0-9a-f]{1,2}\/[A-Za-z0-9_-]{24}\/notes\.txt$/);
  assert.equal(up.uri, up.url);
  assert.equal(up.filename, 'notes.txt');
  const pathID = up.url.slice('/user_uploads/'.length);

  // The API form of the file's URL gives a temporary URL that needs no credentials.
  const tmp = expectSuccess(await hamlet.callEndpoint(`/user_uploads/${pathID}`, 'GET'), 'GET /user_uploads/{realm_id}/{filename}');
  assert.match(tmp.url, /^\/user_uploads\/temporary\/[^/]+\/notes\.txt$/);
  const res = await fetch(new URL(tmp.url, site));
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(await res.text(), 'uploaded through zulip-js\n');

  // Before a message links it, iago may not read it; after, he may.
  expectError(await iago.callEndpoint(`/user_uploads/${pathID}`, 'GET'), 'UNAUTHORIZED', 'You are not authorized to view this file.', 'not shared yet');
  const sent = expectSuccess(await hamlet.messages.send({ type: 'direct', to: [iagoID], content: `[notes](${up.url})` }), 'POST /messages');
  expectSuccess(await iago.callEndpoint(`/user_uploads/${pathID}`, 'GET'), 'shared by a message');

  const list = expectSuccess(await hamlet.callEndpoint('/attachments', 'GET'), 'GET /attachments');
  const mine = list.attachments.find((a) => a.path_id === pathID);
  assert.ok(mine, `attachment ${pathID} listed: ${JSON.stringify(list)}`);
  assert.deepEqual(mine.messages.map((m) => m.id), [sent.id]);
  assert.equal(mine.size, 26);
  assert.ok(list.upload_space_used >= 26);

  expectError(await hamlet.callEndpoint('/user_uploads', 'POST', {}), 'BAD_REQUEST', 'You must specify a file to upload', 'no file');
  expectSuccess(await hamlet.callEndpoint(`/attachments/${mine.id}`, 'DELETE'), 'DELETE /attachments/{id}');
  expectError(await iago.callEndpoint(`/user_uploads/${pathID}`, 'GET'), 'NOT_FOUND', 'File not found.', 'deleted');
});
