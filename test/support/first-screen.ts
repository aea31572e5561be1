import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** One chunk of Vite's manifest (build.manifest: true), keyed by its source or by `_<chunk name>`. */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

export interface FirstScreen {
  /** The scripts the page loads before it can run: the entry and what it imports statically. */
  files: string[];
  bytes: number;
  /** Every source that is a chunk loaded on first use (a dynamic import), by its path under src/renderer. */
  lazySources: string[];
}

/** Reads a built renderer (`outDir`, e.g. out/renderer) through its manifest. */
export function firstScreenOf(outDir: string): FirstScreen {
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) throw new Error(`${outDir}'s manifest names no entry.`);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) visit(next);
  };
  visit(entry);
  const files = [...seen].map((key) => manifest[key]!.file);
  return {
    files,
    bytes: files.reduce((sum, file) => sum + statSync(join(outDir, file)).size, 0),
    lazySources: Object.keys(manifest).filter((key) => manifest[key]!.isDynamicEntry),
  };
}

/** The scripts the built index.html names (its module script and modulepreload links). */
export function scriptsNamedBy(html: string): string[] {
  const named = [
    ...html.matchAll(/<script[^>]*\ssrc="\.\/([^"]+)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\.\/([^"]+)"/g),
  ];
  return named.map((match) => match[1]!);
}
