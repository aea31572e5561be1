import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * Follows every relative link of the README and of `docs/` (issue 41): a link to a file that is not there,
 * or to a heading (`#anchor`) the file does not have, is a broken promise to the reader. Links inside code
 * are text, not links, and web or mail addresses are not followed (no network here).
 */
export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  why: string;
}

/** The Markdown files a reader of the repository meets: README.md and everything under docs/. */
export function documentationFiles(root: string): string[] {
  const found = [join(root, 'README.md')].filter(existsSync);
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.md')) found.push(path);
    }
  };
  if (existsSync(join(root, 'docs'))) walk(join(root, 'docs'));
  return found;
}

/** Blanks fenced blocks and inline code, keeping line numbers, so their brackets are not taken for links. */
function withoutCode(text: string): string {
  const blanked = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) =>
    block.replace(/[^\n]/g, ' '),
  );
  return blanked.replace(/(`+)[^`\n]*?\1/g, (span) => ' '.repeat(span.length));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  const plain = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`]/g, '')
    .trim()
    .toLowerCase();
  return plain.replace(/[^\p{L}\p{N}\s-]/gu, '').replace(/\s/g, '-');
}

/** Every anchor a Markdown file offers: its headings (with GitHub's -1, -2 for repeats) and explicit ids. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutCode(text).split('\n')) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading?.[1]) {
      const base = headingAnchor(heading[1]);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const id of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id[1]!);
  }
  return anchors;
}

const LINK = /!?\[(?:[^\]\n]|\][^(\n])*?\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;

/** The broken relative links of the given files, each with where it stands and why it is broken. */
export function brokenLinks(root: string, files: string[] = documentationFiles(root)): BrokenLink[] {
  const broken: BrokenLink[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchorsAt = (path: string) => {
    let anchors = anchorCache.get(path);
    if (!anchors) anchorCache.set(path, (anchors = anchorsOf(readFileSync(path, 'utf8'))));
    return anchors;
  };
  for (const file of files) {
    const lines = withoutCode(readFileSync(file, 'utf8')).split('\n');
    lines.forEach((text, index) => {
      for (const match of text.matchAll(LINK)) {
        const target = match[1]!;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const [pathPart = '', anchor] = target.split('#', 2);
        const where = { file: relative(root, file), line: index + 1, target };
        const linked = pathPart ? resolve(dirname(file), decodeURIComponent(pathPart)) : file;
        if (!existsSync(linked)) {
          broken.push({ ...where, why: `no file ${relative(root, linked)}` });
          continue;
        }
        if (anchor && linked.endsWith('.md') && !anchorsAt(linked).has(decodeURIComponent(anchor))) {
          broken.push({ ...where, why: `no heading #${anchor} in ${relative(root, linked)}` });
        }
      }
    });
  }
  return broken;
}
