import { lstat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The first of `name(1)`, `name(2)`, … that nothing under `root` holds yet, so a conflict copy
 * or a kept version never replaces an earlier one made in the same second.
 */
export async function freeName(root: string, name: (n: number) => string): Promise<string> {
  for (let n = 1; ; n += 1) {
    const candidate = name(n);
    if (!(await lstat(join(root, candidate)).catch(() => undefined))) return candidate;
  }
}
