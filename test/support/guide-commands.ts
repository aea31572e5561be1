import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The commands the README and the user guide tell a person to type (issue 41: "every command in the guide that
 * can run here runs in a test"). A command is named by its program and sub-commands, without its arguments:
 * `agentdesk sync <folder> --agent <id> --once` is `agentdesk sync`, `npm run service -- user add --email …` is
 * `npm run service -- user add`. The guide commands test runs each name, or names the test that does.
 */
export function guidePages(root: string): string[] {
  const guide = join(root, 'docs', 'guide');
  return [
    join(root, 'README.md'),
    ...readdirSync(guide)
      .filter((name) => name.endsWith('.md'))
      .map((name) => join(guide, name)),
  ];
}

const SYNC_COMMANDS = new Set(['conflicts', 'resolve', 'history', 'restore']);

/** The name of one typed command, or undefined when it is not an `agentdesk` or `npm run service` command. */
export function commandName(typed: string): string | undefined {
  const words = typed.trim().split(/\s+/);
  if (words[0] === 'agentdesk') {
    const sub = words[1];
    if (!sub || /^[<[-]/.test(sub)) return sub === '--help' ? 'agentdesk --help' : 'agentdesk';
    if (sub === 'sync' && words[2] && SYNC_COMMANDS.has(words[2])) return `agentdesk sync ${words[2]}`;
    return `agentdesk ${sub}`;
  }
  if (words.slice(0, 3).join(' ') === 'npm run service') {
    const admin = words[3] === '--' && words[4] && !words[4].startsWith('-') ? words.slice(4, 6) : [];
    return admin.length === 2 ? `npm run service -- ${admin.join(' ')}` : 'npm run service';
  }
  return undefined;
}

/** Every command name the pages show, in inline code or in shell blocks (one per line, `&&` splits). */
export function guideCommandNames(pages: string[]): Set<string> {
  const names = new Set<string>();
  const add = (typed: string) => {
    for (const part of typed.split(/&&|;|\|\|/)) {
      const name = commandName(part.replace(/#.*$/, ''));
      if (name) names.add(name);
    }
  };
  for (const page of pages) {
    const text = readFileSync(page, 'utf8');
    for (const block of text.matchAll(/^```(?:sh|bash|shell)?\n([\s\S]*?)^```/gm)) {
      for (const line of block[1]!.split('\n')) add(line);
    }
    for (const span of text.matchAll(/`([^`\n]+)`/g)) add(span[1]!);
    // "`agentdesk logout` / `whoami`": a sub-command named alone after a full one.
    for (const alone of text.matchAll(/`agentdesk [a-z]+` \/ `([a-z]+)`/g))
      names.add(`agentdesk ${alone[1]}`);
  }
  return names;
}
