// Client compatibility suite: drives the example server only through the official JavaScript
// client, zulip-js, pinned in package.json. Run with `npm ci && npm test` (see ../../.ci/run).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import zulipInit from 'zulip-js';

import { build, start, zuliprc } from './server.mjs';
import { expectError, expectShape, expectSuccess } from './shape.mjs';

const PASSWORD = 'devpassword'; // --dev-password default
const API_KEY = /^[A-Za-z0-9]{32}$/;

let built;
let server;
let dir;
let site;
const clients = {}; // email -> logged-in zulip-js client

before(async () => {
  built = build();
  // A short heartbeat so that a blocking GET /events returns within the suite's time budget.
  server = await start(built.bin, ['--heartbeat-wait', '1s']);
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
