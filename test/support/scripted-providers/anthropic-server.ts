import { pieces, sleep } from './script';
import {
  startScriptedServer,
  type ScriptedProvider,
  type ScriptedProviderOptions,
  type WireProtocol,
} from './scripted-server';

/**
 * A scripted server speaking the Anthropic messages protocol: `GET /v1/models`, `POST /v1/messages`
 * (one JSON message, or the SSE events message_start, content_block_start/delta/stop for thinking,
 * text and tool_use with input_json_delta, message_delta with usage, message_stop). The key goes in
 * `x-api-key`; errors carry Anthropic's `{type: 'error', error: {type, message}}` body.
 */
export function startAnthropicServer(options: ScriptedProviderOptions): Promise<ScriptedProvider> {
  return startScriptedServer(anthropicWire, options);
}

let sequence = 0;

const errorBody = (type: string, message: string) => ({ type: 'error', error: { type, message } });

const anthropicWire: WireProtocol = {
  modelPath: '/v1/messages',
  keyOf: (req) => (typeof req.headers['x-api-key'] === 'string' ? req.headers['x-api-key'] : undefined),
  listModels: (models) => ({
    data: models.map((id) => ({ type: 'model', id, display_name: id, created_at: '2026-01-01T00:00:00Z' })),
    has_more: false,
    first_id: models[0] ?? null,
    last_id: models.at(-1) ?? null,
  }),
  failure(failure, model) {
    switch (failure.fail) {
      case 'refused-key':
        return { status: 401, body: errorBody('authentication_error', 'invalid x-api-key') };
      case 'rate-limited':
        return {
          status: 429,
          headers: { 'retry-after': String(failure.retryAfter) },
          body: errorBody(
            'rate_limit_error',
            'Number of request tokens has exceeded your per-minute rate limit.',
          ),
        };
      case 'unknown-model':
        return { status: 404, body: errorBody('not_found_error', `model: ${model}`) };
      case 'server-error':
        return { status: 500, body: errorBody('api_error', failure.message ?? 'Internal server error') };
    }
  },
  whole(turn, body) {
    const content = [
      ...(turn.thinking
        ? [{ type: 'thinking', thinking: turn.thinking, signature: 'scripted-signature' }]
        : []),
      ...(turn.text ? [{ type: 'text', text: turn.text }] : []),
      ...(turn.toolCalls ?? []).map((call, i) => ({
        type: 'tool_use',
        id: call.id ?? `toolu_${i + 1}`,
        name: call.name,
        input: call.input,
      })),
    ];
    const usage = turn.usage ?? { input: 10, output: 5 };
    return {
      id: `msg_${++sequence}`,
      type: 'message',
      role: 'assistant',
      model: body['model'],
      content,
      stop_reason: turn.toolCalls?.length ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    };
  },
  async stream(turn, body, send) {
    const usage = turn.usage ?? { input: 10, output: 5 };
    const event = (type: string, data: Record<string, unknown>) => send(type, { type, ...data });
    const pace = async () => {
      if (turn.paceMs) await sleep(turn.paceMs);
    };
    const message = {
      id: `msg_${++sequence}`,
      type: 'message',
      role: 'assistant',
      model: body['model'],
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: 1 },
    };
    if (!(await event('message_start', { message }))) return;
    let index = 0;
    if (turn.thinking) {
      if (
        !(await event('content_block_start', {
          index,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        }))
      )
        return;
      for (const piece of pieces(turn.thinking, turn.pieceChars)) {
        await pace();
        if (
          !(await event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } }))
        )
          return;
      }
      if (
        !(await event('content_block_delta', {
          index,
          delta: { type: 'signature_delta', signature: 'scripted-signature' },
        }))
      )
        return;
      if (!(await event('content_block_stop', { index: index++ }))) return;
    }
    if (turn.text) {
      if (!(await event('content_block_start', { index, content_block: { type: 'text', text: '' } }))) return;
      let sent = 0;
      for (const piece of pieces(turn.text, turn.pieceChars)) {
        if (turn.stallAfterPieces !== undefined && sent >= turn.stallAfterPieces) return;
        await pace();
        if (!(await event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } })))
          return;
        sent++;
      }
      if (!(await event('content_block_stop', { index: index++ }))) return;
    }
    for (const [i, call] of (turn.toolCalls ?? []).entries()) {
      const block = { type: 'tool_use', id: call.id ?? `toolu_${i + 1}`, name: call.name, input: {} };
      if (!(await event('content_block_start', { index, content_block: block }))) return;
      const args = JSON.stringify(call.input);
      const half = Math.ceil(args.length / 2);
      for (const part of [args.slice(0, half), args.slice(half)]) {
        if (
          !(await event('content_block_delta', {
            index,
            delta: { type: 'input_json_delta', partial_json: part },
          }))
        )
          return;
      }
      if (!(await event('content_block_stop', { index: index++ }))) return;
    }
    const stopReason = turn.toolCalls?.length ? 'tool_use' : 'end_turn';
    if (
      !(await event('message_delta', {
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: usage.output },
      }))
    )
      return;
    await event('message_stop', {});
  },
};
