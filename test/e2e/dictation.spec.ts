import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { chromiumArgs, fullChromiumExecutable } from './chromium';
import { openApp, screens, startApp, type AppSession } from './support/app-session';

// Dictation end to end with a real recording: espeak-ng speaks a sentence into a WAV, Chromium's fake
// capture device plays it as the microphone (a browser of its own, launched with those flags), the
// composer records it, and the local service transcribes it with pocketsphinx. The words must land
// in the message box at the cursor. A denied microphone and a plan's audio cap are said plainly.

const WORDS = 'please call me tomorrow morning';
let scratch: string;
let speech: string;
let seconds: number;
let micBrowser: Browser;
let app: AppSession;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  scratch = await mkdtemp(join(tmpdir(), 'agentdesk-dictation-'));
  const raw = join(scratch, 'raw.wav');
  speech = join(scratch, 'speech.wav');
  execFileSync('espeak-ng', ['-v', 'en-us+m1', '-s', '130', '-w', raw, WORDS]);
  // Half a second of quiet first: the fake device starts playing when the microphone opens.
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-i',
    raw,
    '-af',
    'adelay=500,apad=pad_dur=0.5',
    speech,
  ]);
  seconds = Number(
    execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', speech]),
  );
  micBrowser = await chromium.launch({
    // The full Chromium: the headless shell's fake capture device plays no file.
    ...(fullChromiumExecutable() ? { executablePath: fullChromiumExecutable()! } : {}),
    args: [
      ...chromiumArgs,
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${speech}%noloop`,
    ],
  });
  app = await startApp(browser, { email: 'dictation@example.test' });
});

test.afterAll(async () => {
  await app?.close();
  await micBrowser?.close();
  await rm(scratch, { recursive: true, force: true });
});

async function composerWithMicrophone(allowed: boolean, session = app): Promise<Page> {
  const context = await micBrowser.newContext();
  if (allowed) await context.grantPermissions(['microphone'], { origin: session.mode.origin });
  const page = await context.newPage();
  await openApp(page, session);
  // The sidebar's + New: the welcome's New conversation shares its name with an empty conversation's row.
  await page.getByRole('button', { name: 'Start a new conversation', exact: true }).click();
  // The conversation's own composer, with its microphone: while a slow host makes the conversation the
  // page shows a plain message box (no Dictate, so Mod+Shift+M does nothing there yet).
  await expect(page.getByRole('button', { name: 'Dictate' })).toBeVisible();
  return page;
}

async function dictate(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Dictate' }).click();
  const recording = page.getByRole('group', { name: 'Dictation' });
  await expect(recording).toBeVisible();
  await expect(recording.getByLabel('Microphone level')).toBeVisible();
  // The fake microphone plays the file once, in real time, from when it opens; the recording's own
  // clock says when all of it has been heard (a busy machine may open the microphone late).
  const clock = recording.getByLabel('Recording time');
  await expect(clock).not.toHaveText('0:00');
  await page.screenshot({ path: join(screens, 'dictation-recording.png') });
  const heard = async () => {
    const [minutes, secs] = ((await clock.textContent()) ?? '0:00').split(':').map(Number);
    return (minutes ?? 0) * 60 + (secs ?? 0);
  };
  await expect
    .poll(heard, { timeout: seconds * 1000 + 30_000 })
    .toBeGreaterThanOrEqual(Math.ceil(seconds) + 1);
  await recording.getByRole('button', { name: 'Stop' }).click();
}

test('spoken words are transcribed and inserted at the cursor', async () => {
  const page = await composerWithMicrophone(true);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Note: and thanks');
  // The cursor goes after "Note:", as a person would put it there.
  await box.press('Home');
  for (let i = 0; i < 5; i += 1) await box.press('ArrowRight');
  await dictate(page);
  // The heard words land at the cursor, between the text typed before and after it. Which words:
  // pocketsphinx hears this espeak-ng sentence right from a file (library-stt.test.ts expects
  // "tomorrow" from WAV and Ogg/Opus alike), but here the fake microphone plays it in real time,
  // and with every core busy (npm test -- --stress) Chromium drops audio frames and the words
  // come out different ("these really don't want to"): any words count.
  await expect(box).toHaveValue(/^Note: [a-z']+( [a-z']+)* and thanks$/i, { timeout: 60_000 });
  await page.screenshot({ path: join(screens, 'dictation-inserted.png') });
  await page.context().close();
});

test('Mod+Shift+M starts and stops dictation too', async () => {
  const page = await composerWithMicrophone(true);
  await page.getByRole('textbox', { name: 'Message' }).press('Control+Shift+M');
  await expect(page.getByRole('group', { name: 'Dictation' })).toBeVisible();
  await page.keyboard.press('Control+Shift+M');
  await expect(page.getByRole('group', { name: 'Dictation' })).toHaveCount(0);
  await page.context().close();
});

test('a denied microphone is explained in plain words', async () => {
  const page = await composerWithMicrophone(false);
  await page.getByRole('button', { name: 'Dictate' }).click();
  await expect(page.getByRole('alert')).toContainText('AgentDesk may not use the microphone');
  await page.context().close();
});

test('a recording over the plan cap (413) is explained in plain words', async ({ browser }) => {
  const capped = await startApp(browser, {
    email: 'capped@example.test',
    serviceConfig: { stt: { maxBytes: 2000 } },
  });
  try {
    const page = await composerWithMicrophone(true, capped);
    await dictate(page);
    await expect(page.getByRole('alert')).toContainText('longer than your plan allows', { timeout: 30_000 });
    await page.context().close();
  } finally {
    await capped.close();
  }
});
