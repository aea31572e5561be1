import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApprovalRuleView } from '../../../src/shared/api';
import { folderChoices, isUnder, matchRules, normalPath } from '../../../src/renderer/model/approval-match';

const options = [
  { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow-always', name: 'Always allow writes', kind: 'allow_always' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];
let made = 0;
const rule = (effect: 'allow' | 'deny', tool: string, folder: string | null = null): ApprovalRuleView => ({
  id: `r${++made}`,
  effect,
  tool,
  folder,
  madeAt: 0,
});

describe('matchRules', () => {
  it('answers a request of the rule’s tool with the one-time option of its effect', () => {
    const allow = rule('allow', 'edit');
    expect(matchRules([allow], { tool: 'edit', path: 'kb/a.md' }, options)).toEqual({
      rule: allow,
      optionId: 'allow-once',
    });
    expect(matchRules([allow], { tool: 'execute' }, options)).toBeUndefined();
    expect(matchRules([rule('deny', 'edit')], { tool: 'edit' }, options)?.optionId).toBe('reject');
  });

  it('a folder rule answers only paths inside that folder, by whole segments', () => {
    const kb = rule('allow', 'edit', 'kb');
    expect(matchRules([kb], { tool: 'edit', path: 'kb/notes/a.md' }, options)?.rule).toBe(kb);
    expect(matchRules([kb], { tool: 'edit', path: 'kbx/a.md' }, options)).toBeUndefined();
    expect(matchRules([kb], { tool: 'edit', path: 'kb/../secrets/a.md' }, options)).toBeUndefined();
    expect(matchRules([kb], { tool: 'edit', path: '../kb/a.md' }, options)).toBeUndefined();
    expect(matchRules([kb], { tool: 'edit' }, options)).toBeUndefined();
  });

  it('a deny wins over every allow, in any order', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(
          [
            rule('allow', 'edit'),
            rule('allow', 'edit', 'kb'),
            rule('allow', 'execute'),
            rule('deny', 'edit', 'kb'),
          ],
          { minLength: 1 },
        ),
        (rules) => {
          const answer = matchRules(rules, { tool: 'edit', path: 'kb/a.md' }, options);
          const denies = rules.some((r) => r.effect === 'deny');
          const allows = rules.some((r) => r.effect === 'allow' && r.tool === 'edit');
          if (denies) expect(answer?.optionId).toBe('reject');
          else if (allows) expect(answer?.optionId).toBe('allow-once');
          else expect(answer).toBeUndefined();
        },
      ),
    );
  });

  it('a deny on a request with no reject option leaves the question to the person, never to an allow', () => {
    const noReject = options.filter((o) => !o.kind.startsWith('reject'));
    expect(
      matchRules([rule('allow', 'edit'), rule('deny', 'edit')], { tool: 'edit' }, noReject),
    ).toBeUndefined();
    expect(matchRules([rule('allow', 'edit')], { tool: 'edit' }, [{ optionId: 'x' }])).toBeUndefined();
  });
});

describe('paths', () => {
  it('normalises separators, dots and climbing', () => {
    expect(normalPath('kb\\notes\\.\\a.md')).toBe('kb/notes/a.md');
    expect(normalPath('/w/kb/../a.md')).toBe('/w/a.md');
    expect(normalPath('a/../../b')).toBeNull();
    expect(isUnder('/w/kb/a.md', '/w/kb/')).toBe(true);
    expect(isUnder('/w/kb', '/w/kb')).toBe(true);
  });

  it('offers the folders above a path, nearest first', () => {
    expect(folderChoices('kb/notes/a.md')).toEqual(['kb/notes', 'kb']);
    expect(folderChoices('/w/kb/a.md')).toEqual(['/w/kb', '/w']);
    expect(folderChoices('a.md')).toEqual([]);
    expect(folderChoices(undefined)).toEqual([]);
  });

  it('a path is under every folder offered for it', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,4}$/), { minLength: 1, maxLength: 5 }), (segments) => {
        const path = segments.join('/');
        for (const folder of folderChoices(path)) expect(isUnder(path, folder)).toBe(true);
      }),
    );
  });
});
