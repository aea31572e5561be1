import { pieces, sleep } from './script';
import {
  startScriptedServer,
  type ScriptedProvider,
  type ScriptedProviderOptions,
  type WireProtocol,
} from './scripted-server';

/**
 * A scripted server speaking the OpenAI chat-completions protocol, as OpenAI, OpenRouter, Ollama's
 * `/v1`, vLLM and LM Studio do: `GET /v1/models`, `POST /v1/chat/completions` (one JSON body, or
 * SSE `chat.completion.chunk`s with text, `reasoning_content` and `tool_calls` deltas, the usage
 * chunk when `stream_options.include_usage` asks for it, then `[DONE]`). The key goes in
 * `Authorization: Bearer`.
 */
export function startOpenAiServer(options: ScriptedProviderOptions): Promise<ScriptedProvider> {
  return startScriptedServer(openAiWire, options);
}

let sequence = 0;

const openAiWire: WireProtocol = {
  modelPath: '/v1/chat/completions',
  keyOf: (req) => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1],
  listModels: (models) => ({
    object: 'list',
    data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'scripted' })),
  }),
  failure(failure, model) {
    switch (failure.fail) {
      case 'refused-key':
        return {
          status: 401,
          body: {
            error: {
              message: 'Incorrect API key provided. You can find your API key in your account settings.',
              type: 'invalid_request_error',
              param: null,
              code: 'invalid_api_key',
            },
          },
        };
      case 'rate-limited':
        return {
          status: 429,
          headers: { 'retry-after': String(failure.retryAfter) },
          body: {
            error: {
              message: `Rate limit reached for requests. Please try again in ${failure.retryAfter}s.`,
              type: 'requests',
              param: null,
              code: 'rate_limit_exceeded',
            },
          },
        };
      case 'unknown-model':
        return {
          status: 404,
          body: {
            error: {
              message: `The model \`${model}\` does not exist or you do not have access to it.`,
              type: 'invalid_request_error',
              param: null,
              code: 'model_not_found',
            },
          },
        };
      case 'server-error':
        return {
          status: 500,
          body: {
            error: {
              message: failure.message ?? 'The server had an error while processing your request.',
              type: 'server_error',
              param: null,
              code: null,
            },
          },
        };
    }
  },
  whole(turn, body) {
    const toolCalls = (turn.toolCalls ?? []).map((call, i) => ({
      id: call.id ?? `call_${i + 1}`,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.input) },
    }));
    const usage = turn.usage ?? { input: 10, output: 5 };
    return {
      id: `chatcmpl-${++sequence}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body['model'],
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: turn.text ?? null,
            ...(turn.thinking ? { reasoning_content: turn.thinking } : {}),
            ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
          },
          finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
        },
      ],
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
      },
    };
  },
  async stream(turn, body, send) {
    const id = `chatcmpl-${++sequence}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      send(null, {
        id,
        object: 'chat.completion.chunk',
        created,
        model: body['model'],
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
    const pace = async () => {
      if (turn.paceMs) await sleep(turn.paceMs);
    };
    if (!(await chunk({ role: 'assistant', content: '' }))) return;
    for (const piece of pieces(turn.thinking ?? '', turn.pieceChars)) {
      await pace();
      if (!(await chunk({ reasoning_content: piece }))) return;
    }
    let sent = 0;
    for (const piece of pieces(turn.text ?? '', turn.pieceChars)) {
      if (turn.stallAfterPieces !== undefined && sent >= turn.stallAfterPieces) return;
      await pace();
      if (!(await chunk({ content: piece }))) return;
      sent++;
    }
    for (const [index, call] of (turn.toolCalls ?? []).entries()) {
      const args = JSON.stringify(call.input);
      const half = Math.ceil(args.length / 2);
      const opening = {
        index,
        id: call.id ?? `call_${index + 1}`,
        type: 'function',
        function: { name: call.name, arguments: args.slice(0, half) },
      };
      if (!(await chunk({ tool_calls: [opening] }))) return;
      if (!(await chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }))) return;
    }
    if (!(await chunk({}, turn.toolCalls?.length ? 'tool_calls' : 'stop'))) return;
    const streamOptions = body['stream_options'] as { include_usage?: boolean } | undefined;
    if (streamOptions?.include_usage) {
      const usage = turn.usage ?? { input: 10, output: 5 };
      const counts = {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
      };
      if (
        !(await send(null, {
          id,
          object: 'chat.completion.chunk',
          created,
          model: body['model'],
          choices: [],
          usage: counts,
        }))
      )
        return;
    }
    await send(null, '[DONE]');
  },
};
