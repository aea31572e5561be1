import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerAppRequest } from '../../../src/main/app-protocol';
import { contentSecurityPolicy } from '../../../src/main/window-options';

// The handler Electron calls for agentdesk:// requests, run on real files (no Electron needed).
let root: string;
let renderer: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'agentdesk-protocol-'));
  renderer = join(root, 'renderer');
  await mkdir(join(renderer, 'assets'), { recursive: true });
  await writeFile(join(renderer, 'index.html'), '<!doctype html><p>app</p>');
  await writeFile(join(renderer, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(root, 'secret.txt'), 'not part of the app');
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('the agentdesk:// app protocol', () => {
  it('serves the built renderer with the strict CSP and its content types', async () => {
    const page = await answerAppRequest(renderer, 'agentdesk://app/index.html');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(contentSecurityPolicy);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<p>app</p>');
    const script = await answerAppRequest(renderer, 'agentdesk://app/assets/app.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it.each([
    'agentdesk://app/%2e%2e/secret.txt',
    'agentdesk://app/..%2fsecret.txt',
    'agentdesk://other/index.html',
    'agentdesk://app/%',
    'agentdesk://app/missing.js',
  ])('answers %s with 404 and nothing outside the renderer', async (url) => {
    const answer = await answerAppRequest(renderer, url);
    expect(answer.status).toBe(404);
    expect(await answer.text()).not.toContain('not part of the app');
  });
});
