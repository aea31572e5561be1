/**
 * Issue 26, item 6: one Content-Security-Policy (src/core/renderer-csp.ts) for the Electron window
 * and browser mode. Browser mode's page server over real HTTP, and the Electron app protocol's
 * handler on real files (Electron itself cannot run here), serve the real renderer's index.html:
 * the header and the page's meta element agree, and both places send the same policy.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserModeCsp, serveRenderer, type StaticServer } from '../../../src/browser/static-server';
import { metaPolicyOf, rendererCsp } from '../../../src/core/renderer-csp';
import { answerAppRequest } from '../../../src/main/app-protocol';
import { contentSecurityPolicy } from '../../../src/main/window-options';

const sourceIndex = resolve(import.meta.dirname, '../../../src/renderer/index.html');
let dir: string;
let page: StaticServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentdesk-csp-'));
  await copyFile(sourceIndex, join(dir, 'index.html'));
  // As browser mode starts it: the policy names the server's own WebSocket origin.
  page = await serveRenderer(dir, 0, (origin) => browserModeCsp([origin.replace(/^http/, 'ws')]));
});
afterAll(async () => {
  await page?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The content of the page's CSP meta element (exactly one). */
function metaOf(html: string): string {
  const metas = [...html.matchAll(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/gi)];
  expect(metas).toHaveLength(1);
  return metas[0]![1]!;
}

/** The policy's directives by name. */
function directives(policy: string): Map<string, string> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.split(/\s+/)[0]!, d]),
  );
}

describe('one CSP for the window and browser mode', () => {
  it('browser mode: the header and the meta element agree, worker-src included', async () => {
    for (const path of ['', 'index.html', 'some/route']) {
      const answer = await fetch(`${page.url}${path}`);
      const header = answer.headers.get('content-security-policy')!;
      const meta = metaOf(await answer.text());
      expect(meta).toBe(metaPolicyOf(header));
      const [inHeader, inMeta] = [directives(header), directives(meta)];
      expect(inMeta.get('worker-src')).toBe("worker-src 'self'");
      // Everything a meta element can carry is in both, the same; frame-ancestors only in the header.
      for (const [name, value] of inHeader) {
        if (name === 'frame-ancestors') expect(inMeta.has(name)).toBe(false);
        else expect(inMeta.get(name)).toBe(value);
      }
      expect([...inMeta.keys()].every((name) => inHeader.has(name))).toBe(true);
    }
  });

  it('the Electron window: the header and the meta element agree', async () => {
    const answer = await answerAppRequest(dir, 'agentdesk://app/index.html');
    const header = answer.headers.get('content-security-policy')!;
    expect(header).toBe(contentSecurityPolicy);
    expect(metaOf(await answer.text())).toBe(metaPolicyOf(header));
  });

  it('both send the same policy; browser mode adds only its own bridge socket to connect-src', async () => {
    const browser = (await fetch(page.url)).headers.get('content-security-policy')!;
    const origin = new URL(page.url).origin.replace(/^http/, 'ws');
    expect(browser).toBe(rendererCsp([origin]));
    expect(browser.replace(` ${origin}`, '')).toBe(contentSecurityPolicy);
  });

  it('the policy is written once: the source index.html holds none, and the build and dev server add it', async () => {
    const { readFile } = await import('node:fs/promises');
    const source = await readFile(sourceIndex, 'utf8');
    expect(source).not.toContain('default-src');
    const { default: config } = await import('../../../electron.vite.config');
    const plugins = (config as { renderer: { plugins: { transformIndexHtml?: (html: string) => string }[] } })
      .renderer.plugins;
    const written = plugins.flatMap((p) => (p.transformIndexHtml ? [p.transformIndexHtml(source)] : []));
    expect(written).toHaveLength(1);
    expect(metaOf(written[0]!)).toBe(metaPolicyOf(rendererCsp()));
  });
});
