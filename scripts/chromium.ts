/**
 * The browser of the browser tests and `npm run screenshots`: Debian's Chromium package, driven by
 * playwright-core (which downloads no browser of its own). `npm test` installs the package with
 * apt-get where it is missing and we are root; anywhere else the tests fail saying what to install.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Flags for a headless run in a container or CI: no sandbox (often root), no GPU, no calls home. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'];

const say = (msg: string) => process.stderr.write(`[chromium] ${msg}\n`);

/** Why Chromium is not there, or undefined when it is: the text a failing browser test shows. */
export function chromiumMissing(): string | undefined {
  if (existsSync(CHROMIUM_PATH)) return undefined;
  return `${CHROMIUM_PATH} is missing: install Debian's chromium package (sudo apt-get install -y chromium); npm test does it by itself when run as root`;
}

function aptGet(args: string): { ok: boolean; detail: string } {
  const r = spawnSync('sh', ['-c', `DEBIAN_FRONTEND=noninteractive apt-get ${args}`], { encoding: 'utf8', timeout: 15 * 60_000 });
  if (r.error) return { ok: false, detail: r.error.message };
  const tail = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-5).join('\n');
  return { ok: r.status === 0, detail: tail };
}

/**
 * Installs Chromium with apt-get when it is missing and this process is root. Returns undefined
 * when Chromium is there afterwards, else the reason it is not (printed here, and shown again by
 * the browser test that cannot run).
 */
export function ensureChromium(): string | undefined {
  if (!chromiumMissing()) return undefined;
  if (process.platform !== 'linux' || typeof process.getuid !== 'function' || process.getuid() !== 0) {
    const why = chromiumMissing();
    say(`${why}; not root, so not installing it`);
    return why;
  }
  say('installing Debian chromium with apt-get (once; a few minutes)');
  let r = aptGet('install -y -qq --no-install-recommends chromium');
  if (!r.ok) {
    // A fresh container has no package lists yet.
    aptGet('update -qq');
    r = aptGet('install -y -qq --no-install-recommends chromium');
  }
  if (!chromiumMissing()) return undefined;
  const why = `apt-get install -y chromium failed: ${r.detail || 'no output'}`;
  say(why);
  return why;
}
