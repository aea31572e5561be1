import { EventEmitter } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/core/log/logger';
import { openRotatingLog } from '../../../src/main/log-file';
import { createUpdateController } from '../../../src/main/updater';

// electron-updater is a stand-in (an EventEmitter with its method names): it needs an installed
// Electron app and an update feed, neither of which exists here.
function fakeUpdater() {
  return Object.assign(new EventEmitter(), {
    autoDownload: false,
    autoInstallOnAppQuit: false,
    channel: null as string | null,
    allowPrerelease: false,
    checkForUpdates: vi.fn(async () => null),
    quitAndInstall: vi.fn(),
  });
}

describe('update controller', () => {
  it('checks at start and every few hours in an installed app only', () => {
    const updater = fakeUpdater();
    const timers: number[] = [];
    const lines: string[] = [];
    const dev = createUpdateController({
      updater: updater as never,
      isPackaged: false,
      channel: 'stable',
      log: (l) => lines.push(l),
      every: (_run, ms) => (timers.push(ms), {}),
    });
    dev.start();
    expect(updater.checkForUpdates).not.toHaveBeenCalled();
    expect(timers).toEqual([]);
    const installed = createUpdateController({
      updater: updater as never,
      isPackaged: true,
      channel: 'beta',
      log: () => {},
      every: (_run, ms) => (timers.push(ms), {}),
    });
    expect(updater).toMatchObject({ autoDownload: true, channel: 'beta', allowPrerelease: true });
    installed.setChannel('stable');
    expect(updater).toMatchObject({ channel: 'latest', allowPrerelease: false });
    installed.start();
    expect(updater.checkForUpdates).toHaveBeenCalledTimes(1);
    expect(timers).toEqual([4 * 60 * 60 * 1000]);
  });

  it('follows the updater through download to ready, and a failed check stays quiet but kept', async () => {
    const updater = fakeUpdater();
    const controller = createUpdateController({
      updater: updater as never,
      isPackaged: true,
      channel: 'stable',
      log: () => {},
      now: () => 42,
    });
    const seen: string[] = [];
    controller.subscribe((state) => seen.push(state.phase));
    updater.emit('checking-for-update');
    updater.emit('update-available', { version: '1.4.0' });
    updater.emit('download-progress', { percent: 50 });
    updater.emit('update-downloaded', { version: '1.4.0' });
    expect(controller.current()).toEqual({ phase: 'ready', version: '1.4.0', lastCheckedAt: 42 });
    updater.emit('error', new Error('feed unreachable'));
    expect(controller.current()).toMatchObject({
      phase: 'ready',
      lastError: { message: 'feed unreachable' },
    });
    expect(seen).toEqual(['checking', 'downloading', 'downloading', 'ready', 'ready']);
    expect(updater.quitAndInstall).not.toHaveBeenCalled();
    controller.install();
    expect(updater.quitAndInstall).toHaveBeenCalledWith(false, true);

    const failing = fakeUpdater();
    failing.checkForUpdates.mockRejectedValueOnce(new Error('offline'));
    const quiet = createUpdateController({
      updater: failing as never,
      isPackaged: true,
      channel: 'stable',
      log: () => {},
      every: () => ({}),
    });
    quiet.start();
    await vi.waitFor(() => expect(quiet.current().phase).toBe('failed'));
    expect(quiet.current().lastError?.message).toBe('offline');
  });
});

describe('rotating log file', () => {
  it('rotates past its size, keeps a few old files, private, and never holds a token', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentdesk-log-'));
    const log = openRotatingLog(join(dir, 'logs'), { maxBytes: 400, keep: 2 });
    const logger = createLogger(log.sink, 'main');
    for (let i = 0; i < 30; i += 1) logger.info(`line ${i} Authorization: Bearer abcdefghijklmnop`);
    expect((await readdir(join(dir, 'logs'))).sort()).toEqual([
      'agentdesk.log',
      'agentdesk.log.1',
      'agentdesk.log.2',
    ]);
    const text = await readFile(log.path, 'utf8');
    expect(text).toContain('line 29');
    expect(text).not.toContain('abcdefghijklmnop');
    const { statSync } = await import('node:fs');
    expect(statSync(log.path).mode & 0o777).toBe(0o600);
    await rm(dir, { recursive: true, force: true });
  });
});
