import { describe, expect, it } from 'vitest';
import { redact, rememberSecret } from '../../../../src/core/log/redact';
import { createLogger } from '../../../../src/core/log/logger';

describe('redact', () => {
  it('masks secrets it was told about, wherever they appear', () => {
    rememberSecret('opaque-token-value-1234567890');
    expect(redact('sent opaque-token-value-1234567890 twice: opaque-token-value-1234567890')).toBe(
      'sent [redacted] twice: [redacted]',
    );
  });

  it('masks secrets it never saw by their shape', () => {
    const line = [
      'Authorization: Bearer abc.def-ghi',
      '{"access_token":"AT1","refresh_token":"RT1","token_type":"Bearer"}',
      'grant_type=refresh_token&refresh_token=RT2&client_id=agentdesk-desktop',
      'GET /callback?code=CODE9&state=S',
      'agent token gat_abcDEF123',
      '{"accessToken":"AT3","refreshToken":"RT3"}',
    ].join('\n');
    const out = redact(line);
    for (const secret of ['abc.def-ghi', 'AT1', 'RT1', 'RT2', 'CODE9', 'gat_abcDEF123', 'AT3', 'RT3']) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('client_id=agentdesk-desktop');
    expect(out).toContain('"token_type":"Bearer"');
  });

  it("keeps an ApiError's code readable", () => {
    expect(redact({ code: 'not_found', message: 'Not found.' })).toBe(
      '{"code":"not_found","message":"Not found."}',
    );
  });

  it('ignores values too short to be secrets', () => {
    rememberSecret('abc');
    expect(redact('abc')).toBe('abc');
  });

  it('is applied by the core logger to messages and details', () => {
    const lines: string[] = [];
    const logger = createLogger((level, line) => lines.push(`${level} ${line}`), 'auth');
    rememberSecret('refresh-secret-abcdefgh');
    logger.info('using refresh-secret-abcdefgh', { headers: { authorization: 'Bearer XYZ123' } });
    expect(lines).toEqual(['info [auth] using [redacted] {"headers":{"authorization":"Bearer [redacted]"}}']);
  });
});
