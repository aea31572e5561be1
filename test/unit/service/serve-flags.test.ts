import { describe, expect, it } from 'vitest';
import { readServeFlags } from '../../../src/service/serve-flags';

// README (Local service): "Any other flag `--some-flag v` becomes the key `someFlag`".
describe('the service command line', () => {
  it('takes port and data, and turns every other flag and its value into a config key', () => {
    const flags = readServeFlags([
      '--port',
      '8787',
      '--data',
      './somewhere',
      '--some-flag',
      'v',
      '--engine-command',
      'goose acp',
      '--max-machines=2',
      '--verbose',
    ]);
    expect(flags).toEqual({
      ok: true,
      port: 8787,
      data: './somewhere',
      config: { someFlag: 'v', engineCommand: 'goose acp', maxMachines: '2', verbose: true },
    });
  });

  it('leaves the port to the service when none is given, and refuses one that is not a port', () => {
    expect(readServeFlags([])).toEqual({ ok: true, port: undefined, data: undefined, config: {} });
    expect(readServeFlags(['--port', '0'])).toMatchObject({ ok: true, port: 0 });
    for (const port of ['abc', '70000', '1.5'])
      expect(readServeFlags(['--port', port])).toEqual({
        ok: false,
        detalle: '--port takes a whole number from 0 to 65535 (0: any free port).',
      });
  });
});
