/**
 * What the test suite needs from the machine besides npm packages: a Chromium for the
 * end-to-end tests, the speech tools the transcription tests use (espeak-ng makes speech,
 * ffmpeg re-encodes it, pocketsphinx transcribes it), and PostgreSQL's server (the store tests
 * start a throwaway cluster of their own, test/support/postgres.ts). As root on Debian they are
 * installed with apt-get; anywhere else each missing one is named with the one line that gets it.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { debianHeadlessShell } from '../test/e2e/chromium';
import { postgresBinDir } from '../test/support/postgres-binaries';

interface Requirement {
  /** What the person reads. */
  what: string;
  present: () => boolean;
  debianPackages: string[];
  /** Said when it is missing and cannot be installed here. */
  hint: string;
}

function onPath(command: string): boolean {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter).filter(Boolean)) {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // Not in this folder.
    }
  }
  return false;
}

function chromiumPresent(): boolean {
  const fromEnv = process.env['AGENTDESK_CHROMIUM'];
  if (fromEnv) return existsSync(fromEnv);
  return existsSync('/usr/bin/chromium');
}

const speech: Requirement[] = [
  {
    what: 'espeak-ng (speech for the transcription tests)',
    present: () => onPath('espeak-ng'),
    debianPackages: ['espeak-ng'],
    hint: 'apt-get install espeak-ng',
  },
  {
    what: 'ffmpeg (audio re-encoding for the transcription tests)',
    present: () => onPath('ffmpeg'),
    debianPackages: ['ffmpeg'],
    hint: 'apt-get install ffmpeg',
  },
  {
    what: 'pocketsphinx with its US English model (the local service transcribes with it)',
    present: () => onPath('pocketsphinx_continuous') && existsSync('/usr/share/pocketsphinx/model/en-us'),
    debianPackages: ['pocketsphinx', 'pocketsphinx-en-us'],
    hint: 'apt-get install pocketsphinx pocketsphinx-en-us',
  },
];

const postgres: Requirement = {
  what: "PostgreSQL's server (the store tests run against a throwaway cluster)",
  present: () => postgresBinDir() !== undefined,
  debianPackages: ['postgresql'],
  hint: 'apt-get install postgresql, or set AGENTDESK_POSTGRES_BIN=/path/to/postgresql/bin',
};

const browser: Requirement = {
  what: 'Chromium (the end-to-end tests drive it)',
  present: chromiumPresent,
  debianPackages: ['chromium'],
  hint: 'apt-get install chromium, or set AGENTDESK_CHROMIUM=/path/to/chrome',
};

/** Wanted, not required: the e2e tests run in it for about a quarter less CPU (test/e2e/chromium.ts). */
const headlessShell: Requirement = {
  what: "Chromium's headless shell (the e2e tests run faster in it)",
  present: () => !!process.env['AGENTDESK_CHROMIUM'] || existsSync(debianHeadlessShell),
  debianPackages: ['chromium-headless-shell'],
  hint: 'apt-get install chromium-headless-shell',
};

function canUseApt(): boolean {
  return process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
}

function aptInstall(packages: string[]): boolean {
  console.log(`\n=== apt-get install ${packages.join(' ')} ===`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  if (update.status !== 0) return false;
  const install = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  });
  return install.status === 0;
}

export async function ensureSystemPackages(options: {
  needBrowser: boolean;
}): Promise<{ ok: true } | { ok: false; problems: string[] }> {
  const required = options.needBrowser ? [browser, postgres, ...speech] : [postgres, ...speech];
  let missing = required.filter((r) => !r.present());
  // Apart from the required ones, so that a Debian without the package still gets those.
  if (options.needBrowser && !headlessShell.present() && canUseApt())
    aptInstall(headlessShell.debianPackages);
  if (missing.length > 0 && canUseApt()) {
    aptInstall(missing.flatMap((r) => r.debianPackages));
    missing = missing.filter((r) => !r.present());
  }
  if (missing.length === 0) return { ok: true };
  return {
    ok: false,
    problems: missing.map((r) => `Missing ${r.what}. Get it with: ${r.hint}`),
  };
}
