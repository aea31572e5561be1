import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** Serious and critical axe findings in `include`, in the light theme and then the dark one. */
export async function seriousViolations(page: Page, include = 'body'): Promise<string[]> {
  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
    const result = await new AxeBuilder({ page }).include(include).analyze();
    for (const v of result.violations)
      if (v.impact === 'serious' || v.impact === 'critical')
        found.push(`${theme} ${v.id} ${v.nodes[0]?.target.join(' ')}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}
