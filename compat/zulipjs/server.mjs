// Builds and runs the example server for the compatibility suite.
//
// CHATSERVER=/path/to/binary uses a prebuilt binary; otherwise the runner builds
// ./examples/chatserver from the repository root into a temporary directory.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

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

// start runs `chatserver serve --dev --store memory --listen 127.0.0.1:0`: the server picks a
// free port and prints the address it bound (HOST:PORT) on standard output once it serves.
export async function start(bin, extraArgs = []) {
  const args = ['serve', '--dev', '--store', 'memory', '--listen', '127.0.0.1:0', ...extraArgs];
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr.on('data', (d) => { log += d; });
  let exited = false;
  child.on('exit', () => { exited = true; });
  const listen = await new Promise((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`chatserver reported no address within 20s:\n${log}`)), 20000);
    const done = (f) => { clearTimeout(timer); f(); };
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) done(() => ok(out.slice(0, nl).trim()));
    });
    child.on('exit', () => done(() => fail(new Error(`chatserver exited:\n${log}`))));
  });
  const site = `http://${listen}`;
  const port = Number(listen.slice(listen.lastIndexOf(':') + 1));
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

// zuliprc runs `chatserver zuliprc` with the flags the server was started with.
export function zuliprc(bin, server, email, out) {
  execFileSync(bin, ['zuliprc', '--dev', '--store', 'memory', '--listen', server.listen,
    '--user', email, '--out', out], { stdio: ['ignore', 'ignore', 'inherit'] });
}
