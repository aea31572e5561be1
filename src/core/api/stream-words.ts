import type { SseEvent, StreamEvent } from '../../shared/api';

/**
 * The wire's stream words -> ours (shared/api/stream-event.ts), read once here, where events come
 * in, for every consumer above: `tool {detalle}` -> `{detail}`, `done {estado}` -> `{state}`,
 * `done {reposo: true}` -> `{idle: true}`. Other fields pass through (the payloads are loose).
 */
export function streamEventFromWire(wire: SseEvent): StreamEvent {
  if (wire.event === 'tool') {
    const { detalle, ...rest } = wire.data;
    return { event: 'tool', data: detalle === undefined ? rest : { ...rest, detail: detalle } };
  }
  if (wire.event === 'done') {
    if ('reposo' in wire.data && wire.data.reposo === true) {
      const { reposo: _idle, ...rest } = wire.data;
      return { event: 'done', data: { ...rest, idle: true } };
    }
    const { estado, ...rest } = wire.data as { turnId: string; estado?: unknown };
    return { event: 'done', data: typeof estado === 'string' ? { ...rest, state: estado } : rest };
  }
  return wire;
}
