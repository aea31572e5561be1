import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// electron-builder's own schema check of electron-builder.yml (packaging itself needs each system's tools).
const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): Record<string, unknown> };
const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  validateConfiguration(config: unknown, logger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new () => unknown };

describe('electron-builder.yml', () => {
  it('passes electron-builder validation, with agentdesk:// registered on every system and each target', async () => {
    const config = yaml.load(await readFile('electron-builder.yml', 'utf8'));
    await expect(validateConfiguration(config, new DebugLogger())).resolves.toBeUndefined();
    expect(config['protocols']).toEqual([{ name: 'AgentDesk link', schemes: ['agentdesk'] }]);
    expect(config['linux']).toMatchObject({
      target: ['AppImage', 'deb'],
      desktop: { entry: { MimeType: 'x-scheme-handler/agentdesk;' } },
    });
    expect(config['mac']).toMatchObject({ target: ['dmg', 'zip'] });
    expect(config['win']).toMatchObject({ target: ['nsis'] });
    // The packaged app carries the built main, renderer, service and demo agent: nothing to fetch at start.
    expect(config['files']).toContain('out/**');
  });

  it('refuses a misspelt key, so the check above can fail', async () => {
    const config = yaml.load(await readFile('electron-builder.yml', 'utf8'));
    await expect(validateConfiguration({ ...config, protocol: [] }, new DebugLogger())).rejects.toThrow();
  });
});
