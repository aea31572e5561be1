import { describe, expect, it } from 'vitest';
import { SSE_EVENT_NAMES, encodeSseEvent, parseSseEvent } from '../../../../src/shared/api';

describe('parseSseEvent', () => {
  it('knows every event name of the spec', () => {
    expect([...SSE_EVENT_NAMES].sort()).toEqual(
      [
        'started',
        'caps',
        'status',
        'chunk',
        'thought',
        'tool',
        'title',
        'models',
        'usage',
        'permission',
        'permission-resolved',
        'artifact',
        'done',
        'error',
      ].sort(),
    );
  });

  it('parses the spec payloads from JSON text', () => {
    const samples: [string, unknown][] = [
      ['started', { turnId: 't1' }],
      ['caps', { image: true }],
      ['status', { phase: 'thinking' }],
      ['chunk', { text: 'Hola', turnId: 't1' }],
      ['thought', { text: 'hmm' }],
      [
        'tool',
        { id: 'c1', title: 'Read a.md', kind: 'read', status: 'completed', path: 'a.md', detalle: 'ok' },
      ],
      ['title', { title: 'Plan' }],
      ['models', { options: [{ id: 'm1', label: 'Model 1' }], current: 'm1' }],
      ['usage', { used: 10, size: 100, cost: 0.01, input: 6, output: 4 }],
      ['permission', { id: 'p1', title: 'Write?', tool: 'write', options: [{ optionId: 'allow' }] }],
      ['permission-resolved', { id: 'p1' }],
      ['artifact', { path: 'out/report.md' }],
      ['done', { turnId: 't1' }],
      ['done', { reposo: true }],
      ['error', { message: 'boom' }],
    ];
    for (const [name, payload] of samples) {
      const result = parseSseEvent(name, JSON.stringify(payload));
      expect(result, name).toEqual({ ok: true, event: { event: name, data: payload } });
      if (result.ok)
        expect(encodeSseEvent(result.event)).toEqual({ event: name, data: JSON.stringify(payload) });
    }
  });

  it('returns errors as values naming what is wrong', () => {
    expect(parseSseEvent('nope', '{}')).toMatchObject({ ok: false, error: { code: 'unknown_event' } });
    expect(parseSseEvent('chunk', '{')).toMatchObject({ ok: false, error: { code: 'invalid_json' } });
    const bad = parseSseEvent('chunk', { text: 'x' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    if (!bad.ok) expect(bad.error.message).toContain('turnId');
    expect(parseSseEvent('done', { reposo: false }).ok).toBe(false);
  });
});
