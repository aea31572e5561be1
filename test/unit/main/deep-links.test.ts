import { describe, expect, it } from 'vitest';
import { formatDeepLink } from '../../../src/core/host/platform/deep-link-format';
import { deepLinkInArgs, parseDeepLink } from '../../../src/main/deep-links';

const agent = '3f2b6c1e-9a4d-4e8b-b1a2-7c9d0e1f2a3b';
const session = 'c0ffee00-1234-4abc-8def-0123456789ab';

describe('deep-link parsing', () => {
  it('opens an agent, or one of its conversations', () => {
    expect(parseDeepLink(`agentdesk://agent/${agent}`)).toEqual({ agentId: agent });
    expect(parseDeepLink(`agentdesk://agent/${agent}/`)).toEqual({ agentId: agent });
    expect(parseDeepLink(`agentdesk://agent/${agent}/conversation/${session}`)).toEqual({
      agentId: agent,
      sessionId: session,
    });
    expect(parseDeepLink(`AgentDesk://agent/${agent}`)).toEqual({ agentId: agent });
  });

  it('reads back every link the app copies', () => {
    for (const place of [{ agentId: agent }, { agentId: 'a_b-9', sessionId: session }]) {
      expect(parseDeepLink(formatDeepLink(place))).toEqual(place);
    }
  });

  it.each([
    ['another scheme', `https://agent/${agent}`],
    ['a lookalike scheme', `agentdesk-evil://agent/${agent}`],
    ['no path', 'agentdesk://'],
    ['agent without id', 'agentdesk://agent/'],
    ['unknown place', `agentdesk://settings/${agent}`],
    ['conversation without id', `agentdesk://agent/${agent}/conversation`],
    ['extra segments', `agentdesk://agent/${agent}/conversation/${session}/delete`],
    ['path traversal', 'agentdesk://agent/../../etc/passwd'],
    ['escaped traversal', 'agentdesk://agent/%2e%2e%2fsecret'],
    ['a query string', `agentdesk://agent/${agent}?token=abc`],
    ['a fragment', `agentdesk://agent/${agent}#x`],
    ['credentials', `agentdesk://user:pass@agent/${agent}`],
    ['a port', `agentdesk://agent:80/${agent}`],
    ['a backslash', `agentdesk://agent\\${agent}`],
    ['whitespace', `agentdesk://agent/${agent} --inspect`],
    ['a script', 'agentdesk://agent/<script>alert(1)</script>'],
    ['javascript', 'javascript:alert(1)//agentdesk://agent/x'],
    ['a double slash', `agentdesk://agent//${agent}`],
    ['a NUL byte', `agentdesk://agent/${agent}\u0000x`],
    ['unicode lookalikes', 'agentdesk://agent/ａｂｃ'],
    ['a huge id', `agentdesk://agent/${'a'.repeat(129)}`],
    ['a huge string', `agentdesk://agent/${'a'.repeat(5000)}`],
  ])('ignores %s', (_name, link) => {
    expect(parseDeepLink(link)).toBeUndefined();
  });

  it('ignores values that are not strings', () => {
    for (const value of [undefined, null, 42, {}, ['agentdesk://agent/x']]) {
      expect(parseDeepLink(value)).toBeUndefined();
    }
  });

  it('finds the link among a launch arguments, as Windows and Linux pass it', () => {
    expect(deepLinkInArgs(['/opt/AgentDesk/agentdesk', '--no-sandbox', `agentdesk://agent/${agent}`])).toBe(
      `agentdesk://agent/${agent}`,
    );
    expect(deepLinkInArgs(['/opt/AgentDesk/agentdesk', '--flag'])).toBeUndefined();
  });
});
