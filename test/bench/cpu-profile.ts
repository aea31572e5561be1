/**
 * Where a process's CPU time went, from a V8 CPU profile (`node --cpu-prof`): self time per area of the
 * request path (token lookup, SQL, JSON, logging, middleware, Hono, Node's HTTP) and the functions that
 * used most, each named by its source file (through the bundle's source map when the code was built).
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Areas of the request path, first match wins, by the source file a function came from. */
const AREAS: [string, RegExp][] = [
  ['token lookup', /identity\/|auth\/|token-hash|token-cache/],
  ['SQL (Kysely, libsql, pg)', /\/kysely\/|\/libsql\/|\/pg\/|db\/statement/],
  ['logging', /request-log|log-writer/],
  ['middleware (guards)', /service\/http\//],
  ['routes', /service\/routes\//],
  ['Hono', /\/hono\/|@hono\//],
  ['Node HTTP and streams', /^node:(_http|http|net|internal\/(http|streams|stream_base|js_stream))/],
  ['other Node internals', /^node:/],
];

/** The source file of a frame: its original one when the file has a source map. */
function sourceOf(maps: Map<string, SourceMap | null>, frame: ProfileNode['callFrame']): string {
  const { url } = frame;
  if (!url.startsWith('file://')) return url;
  let map = maps.get(url);
  if (map === undefined) {
    const file = `${fileURLToPath(url)}.map`;
    map = existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8')) as SourceMapPayload) : null;
    maps.set(url, map);
  }
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber) as
    { originalSource?: string } | undefined;
  return entry?.originalSource ?? url;
}

function areaOf(frame: ProfileNode['callFrame'], source: string): string {
  if (frame.functionName === '(garbage collector)') return 'garbage collection';
  if (frame.functionName === '(idle)' || frame.functionName === '(program)') return '(idle or outside JS)';
  if (/JSON|stringify/.test(frame.functionName) && source === '') return 'JSON';
  for (const [name, pattern] of AREAS) if (pattern.test(source)) return name;
  if (frame.functionName === 'stringify' || frame.functionName === 'parse') return 'JSON';
  return source === '' ? `(native: ${frame.functionName || 'anonymous'})` : 'other';
}

/**
 * Lines summing the profile's samples taken within [fromUs, toUs] of the monotonic clock (the same clock as
 * `process.hrtime` in another process on this machine), or all of them when the window holds none.
 */
export function profileSummary(file: string, window?: { fromUs: number; toUs: number }, top = 12): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  let at = profile.startTime;
  const inWindow = (t: number) => !window || (t >= window.fromUs && t <= window.toUs);
  let counted = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (!inWindow(at)) continue;
    self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + delta);
    counted++;
  }
  if (counted === 0 && window) return profileSummary(file, undefined, top);

  const maps = new Map<string, SourceMap | null>();
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of self) {
    const frame = byId.get(id)!.callFrame;
    const source = sourceOf(maps, frame);
    const area = areaOf(frame, source);
    areas.set(area, (areas.get(area) ?? 0) + us);
    if (area === '(idle or outside JS)') continue;
    busy += us;
    const where = source.replace(/^.*?\/(src|node_modules)\//, '$1/').replace(/^file:\/\/.*\//, '');
    const name = `${frame.functionName || '(anonymous)'} ${where}${source ? `:${frame.lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  const share = (us: number) => `${((us / Math.max(busy, 1)) * 100).toFixed(1).padStart(5)} %`;
  const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(6)} ms`;
  const lines = [`CPU profile of the service (${(busy / 1000).toFixed(0)} ms busy in the window), by area:`];
  for (const [area, us] of [...areas].sort((a, b) => b[1] - a[1])) {
    if (area === '(idle or outside JS)') continue;
    lines.push(`  ${ms(us)} ${share(us)}  ${area}`);
  }
  lines.push(`  its ${top} functions with most self time:`);
  for (const [name, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    lines.push(`  ${ms(us)} ${share(us)}  ${name}`);
  }
  return lines;
}
