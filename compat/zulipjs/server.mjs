// Builds and runs the example server for the compatibility suite.
//
// CHATSERVER=/path/to/binary uses a prebuilt binary; otherwise the runner builds
// ./examples/chatserver from the repository root into a temporary directory.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const repoRoot = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../..');

// build returns the path of a chatserver binary and a cleanup function.
export function build() {
  if (process.env.CHATSERVER) {
    return { bin: process.env.CHATSERVER, cleanup() {} };
  }
  const dir = mkdtempSync(join(tmpdir(), 'teamchat-compat-'));
  const bin = join(dir, 'chatserver');
  execFileSync('go', ['build', '-o', bin, './examples/chatserver'], { cwd: repoRoot, stdio: 'inherit' });
  return { bin, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

// freePort asks the kernel for an unused loopback port.
function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

// start runs `chatserver serve --dev --store memory` on a free port and waits until
// /server_settings answers. It retries on another port when the first one was taken meanwhile.
export async function start(bin, extraArgs = []) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const listen = `127.0.0.1:${port}`;
    const args = ['serve', '--dev', '--store', 'memory', '--listen', listen, ...extraArgs];
    const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr.on('data', (d) => { log += d; });
    let exited = false;
    child.on('exit', () => { exited = true; });
    const site = `http://${listen}`;
    const deadline = Date.now() + 20000;
    while (!exited && Date.now() < deadline) {
      try {
        const res = await fetch(`${site}/api/v1/server_settings`);
        if (res.ok) {
          return {
            site, listen, port,
            log: () => log,
            async stop() {
              if (exited) return;
              const done = new Promise((ok) => child.on('exit', ok));
              child.kill('SIGTERM');
              await done;
            },
          };
        }
      } catch {
        // not listening yet
      }
      await sleep(50);
    }
    child.kill('SIGKILL');
    if (!exited && Date.now() >= deadline) {
      throw new Error(`chatserver did not answer on ${listen} within 20s:\n${log}`);
    }
    if (!/address already in use/.test(log)) {
      throw new Error(`chatserver exited:\n${log}`);
    }
  }
  throw new Error('no free port after 3 attempts');
}

// zuliprc runs `chatserver zuliprc` with the flags the server was started with.
export function zuliprc(bin, server, email, out) {
  execFileSync(bin, ['zuliprc', '--dev', '--store', 'memory', '--listen', server.listen,
    '--user', email, '--out', out], { stdio: ['ignore', 'ignore', 'inherit'] });
}
