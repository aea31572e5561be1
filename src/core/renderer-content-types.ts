import { extname } from 'node:path';

/** Content types of the built renderer's files, for whichever server hands them to a page. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

/** The content type of a renderer file by its name; unknown kinds are plain bytes. */
export function rendererContentType(file: string): string {
  return CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
}
