import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { test } from '@playwright/test';
import { startWalkRig, walkNewUser, type WalkRig } from '../e2e/support/new-user-walk';

// The screenshot tour: a new person's first run, a chat with every kind of event, the studio, the
// library, search, schedules, settings and a public share page, each in the light and the dark theme at
// 1280×800 and 900×800, written to test-results/tour/NN-screen-theme-width.png.

const out = resolve(import.meta.dirname, '../../test-results/tour');
const widths = [1280, 900] as const;
const themes = ['light', 'dark'] as const;

let rig: WalkRig;

test.beforeAll(async () => {
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  rig = await startWalkRig();
});

test.afterAll(async () => {
  await rig?.close();
});

test('a new person walks every screen', async ({ page }) => {
  let stop = 0;
  await walkNewUser(page, rig, async (name) => {
    stop += 1;
    for (const theme of themes) {
      await page.emulateMedia({ colorScheme: theme });
      for (const width of widths) {
        await page.setViewportSize({ width, height: 800 });
        // Two frames: the layout and any transition settle on the new size and colours.
        await page.evaluate(
          'new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))',
        );
        const file = `${String(stop).padStart(2, '0')}-${name}-${theme}-${width}.png`;
        await page.screenshot({ path: join(out, file) });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
