import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { startWalkRig, walkNewUser, type WalkRig } from './support/new-user-walk';

// axe-core on every screen a new person walks through (the first run, the chat with every kind of event,
// schedules, each studio section, the library, search, settings, the public share page), in the light and
// the dark theme: no serious or critical violation. Browser mode on the real local service and its demo
// agent; tokens in a memory secret store (no OS keychain on a test machine).

let rig: WalkRig;

/** The axe rules whose outcome depends on colours: what a second theme can change. */
const colourRules = ['color-contrast', 'link-in-text-block'];

test.beforeAll(async () => {
  rig = await startWalkRig();
});

test.afterAll(async () => {
  await rig?.close();
});

test('no serious or critical axe violation on any screen, in either theme', async ({ page }) => {
  // 25 stops, each analysed twice (about 10 s a stop on a busy machine).
  test.setTimeout(480_000);
  const found: string[] = [];
  const visited: string[] = [];
  await walkNewUser(page, rig, async (name) => {
    for (const theme of ['light', 'dark'] as const) {
      // No motion: axe measures a fade half-way (the reply's actions appearing under the pointer) as low contrast.
      await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
      // The dark theme changes colours only (custom properties and code colours under prefers-color-scheme):
      // every other rule reads the same DOM the light pass just read, so the dark pass runs the rules
      // that read colours (the spec 84 -> 72 s alone: colour contrast is most of axe's time).
      const axe = new AxeBuilder({ page });
      const result = await (theme === 'dark' ? axe.withRules(colourRules) : axe).analyze();
      visited.push(`${name} (${theme})`);
      for (const violation of result.violations) {
        if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
        const where = violation.nodes
          .map((node) => `${node.target.join(' ')}: ${node.failureSummary?.split('\n').slice(1, 2).join('')}`)
          .join(' | ');
        found.push(`${name} (${theme}) ${violation.id} [${violation.impact}] ${where}`);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });
  expect(visited.length).toBeGreaterThanOrEqual(2 * 10);
  expect(found).toEqual([]);
});
