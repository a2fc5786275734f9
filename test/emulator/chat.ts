/** POST /chat/completions: reserve, generate (paced), stream or answer, then settle what was sent. */
import { randomBytes } from 'node:crypto';
import { badRequest } from './errors';
import { sendJson, sleep, type RequestContext } from './http';
import { echoedAuthorization } from './faults';
import type { KeyRecord } from './keys';
import { resolveModel } from './models';
import { parseChatRequest } from './chatRequest';
import type { EnvRuntime } from './runtime';
import { splitEvery } from './scripted';
import { SseWriter } from './sse';
import { suggestionReply } from './suggestions';
import { countTokens, generateReply, largeContentPieces, tokenize } from './textgen';
import { chooseToolCall, type ToolCall } from './tools';
import type { FaultName, FaultSpec } from './types';
import { roundCredits } from './wallet';

/** Content chunks sent before a mid-stream fault fires. */
const CHUNKS_BEFORE_FAULT = 3;

export async function handleChat(ctx: RequestContext, env: EnvRuntime, key: KeyRecord, body: unknown, streamFaults: FaultSpec[]): Promise<void> {
  const { options } = env;
  const request = parseChatRequest(body, options.maxOutputTokens);
  ctx.record.serviceParameters = request.serviceParameters;
  ctx.record.chat = {
    // Logged in the wire's field names, like the request's other fields.
    messages: request.messages.map(({ toolCalls, toolCallId, ...m }) => ({
      ...m,
      ...(toolCalls && { tool_calls: toolCalls }),
      ...(toolCallId !== undefined && { tool_call_id: toolCallId }),
    })),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
    ...(request.topP !== undefined && { top_p: request.topP }),
    ...(request.maxTokens !== undefined && { max_tokens: request.maxTokens }),
    ...(request.tools.length > 0 && { tools: request.tools.map((t) => t.name), tool_choice: request.toolChoice }),
  };
  const model = resolveModel(env.catalog, request.model, 'chat');
  ctx.record.model = model;
  ctx.res.setHeader('x-service-model-id', model);
  if (request.tools.length > 0 && options.modelsWithoutTools.includes(model)) {
    throw badRequest('tools_not_supported', `Model "${model}" does not support tools; send the request without "tools".`);
  }
  if (request.messages.some((m) => m.images?.length) && options.modelsWithoutImages.includes(model)) {
    throw badRequest('images_not_supported', `Model "${model}" does not accept image input; send the request without image parts.`);
  }

  const promptTokens = countTokens(request.messages, request.tools.length > 0 ? JSON.stringify(request.tools) : '');
  const prices = { ...options.prices, ...options.modelPrices[model] };
  const costOf = (completionTokens: number): number =>
    roundCredits(prices.chatPerRequest + ((promptTokens + completionTokens) * prices.chatPer1kTokens) / 1000);
  const wallet = env.walletOf(key);
  const reserved = costOf(request.maxTokens ?? options.maxOutputTokens);
  wallet.reserve(reserved);

  const faults = new Set<FaultName>(streamFaults.map((f) => f.fault));
  const scripted = env.scripted.take();
  if (scripted) ctx.record.scripted = true;
  const callId = () => `call_${randomBytes(8).toString('hex')}`;
  const generatedCall = scripted ? undefined : chooseToolCall(request.messages, request.tools, request.toolChoice, callId());
  const toolCalls: ToolCall[] = scripted?.toolCalls?.map((c) => ({ id: c.id ?? callId(), name: c.name, arguments: c.arguments })) ?? (generatedCall ? [generatedCall] : []);
  const reply = scripted?.text ?? (generatedCall ? '' : suggestionReply(request.messages, env.suggestionStyle) ?? generateReply(request.messages, model));
  const reasoning = scripted?.reasoning ?? '';
  const reasoningField = scripted?.reasoningField ?? 'reasoning_content';
  let pieces = tokenize(reply);
  let finishReason: 'stop' | 'length' | 'tool_calls' = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  if (request.maxTokens !== undefined && pieces.length > request.maxTokens) {
    pieces = pieces.slice(0, request.maxTokens);
    finishReason = 'length';
  }
  const large = request.stream && faults.has('large-stream');
  if (large) pieces = largeContentPieces(reply);
  const chunked = request.stream && !large && scripted?.chunkChars !== undefined;
  if (chunked) pieces = splitEvery(pieces.join(''), scripted?.chunkChars ?? 1);
  const extraPieces = (text: string): string[] => (scripted?.chunkChars ? splitEvery(text, scripted.chunkChars) : tokenize(text));
  const chunks: StreamPiece[] = [
    ...extraPieces(reasoning).map((piece) => ({ delta: { [reasoningField]: piece }, extra: piece })),
    ...pieces.map((piece) => ({ delta: { content: piece }, content: piece })),
    ...toolCallPieces(toolCalls, scripted?.chunkChars ?? options.toolArgumentChunkChars),
  ];

  let sentText = '';
  let sentExtra = '';
  let contentTokens = 0;
  let sentTokens = 0;
  // Content pieces are tokens, except large-stream's (~1 KB of whole tokens) and chunked ones (split
  // anywhere); reasoning and tool-call text count by words, as the prompt does.
  const account = (piece: StreamPiece): void => {
    if (piece.content === undefined) {
      sentExtra += piece.extra ?? '';
    } else {
      sentText += piece.content;
      contentTokens = chunked ? tokenize(sentText).length : contentTokens + (large ? tokenize(piece.content).length : 1);
    }
    sentTokens = contentTokens + tokenize(sentExtra).length;
  };

  let settled = false;
  const settle = (): void => {
    if (settled) return;
    settled = true;
    ctx.record.creditsCharged = wallet.settle(reserved, costOf(sentTokens));
  };
  try {
    const id = `chatcmpl-${randomBytes(12).toString('hex')}`;
    const created = Math.floor(Date.now() / 1000);
    const usage = (): Record<string, number> => ({ prompt_tokens: promptTokens, completion_tokens: sentTokens, total_tokens: promptTokens + sentTokens });
    // Read once: a test that changes the pacing mid-answer affects the next answers only.
    const { firstTokenDelayMs, tokensPerSecond } = { ...env.pacing, ...options.modelPacing[model] };
    const delayMs = tokensPerSecond > 0 && !large ? 1000 / tokensPerSecond : 0;
    const firstDelayMs = large ? 0 : firstTokenDelayMs;

    if (!request.stream) {
      if (!(await sleep(firstDelayMs + delayMs * chunks.length, ctx.signal))) return;
      chunks.forEach(account);
      ctx.record.firstContentAt = Date.now();
      settle();
      const message = {
        role: 'assistant',
        content: toolCalls.length > 0 && pieces.length === 0 ? null : pieces.join(''),
        ...(reasoning && { [reasoningField]: reasoning }),
        ...(toolCalls.length > 0 && { tool_calls: toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) }),
      };
      sendJson(ctx, 200, {
        id, object: 'chat.completion', created, model,
        choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
        usage: usage(),
      }, { 'x-service-balance-credits': String(wallet.balance) });
      return;
    }

    const sse = new SseWriter(ctx, { crlf: faults.has('crlf'), tinyWrites: faults.has('tiny-writes') });
    sse.open({ 'x-service-balance-credits': String(wallet.balance) });
    // Time to first token: the headers are out, nothing else until then. A client that leaves meanwhile is charged no output.
    if (!(await sleep(firstDelayMs, ctx.signal))) return;
    const chunk = (delta: Record<string, unknown>, finish: string | null): Record<string, unknown> =>
      ({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] });

    await sse.data(chunk({ role: 'assistant', content: '' }, null));
    // Mid-stream faults fire after a few chunks, or after all of them for very short replies.
    const faultAt = Math.min(CHUNKS_BEFORE_FAULT, chunks.length);
    for (let i = 0; i <= chunks.length; i++) {
      if (i === faultAt) {
        if (faults.has('reset-mid-stream')) return await sse.destroy();
        // Silence with the connection open, until the client gives up (or the emulator closes).
        if (faults.has('stall-mid-stream')) return void (await sleep(2 ** 31 - 1, ctx.signal));
        if (faults.has('error-mid-stream')) {
          await sse.data({ error: { message: 'Emulated fault error-mid-stream: generation failed.', type: 'server_error', code: 'stream_error' } });
          return sse.end();
        }
        if (faults.has('echo-authorization-mid-stream')) {
          await sse.data({ error: { message: echoedAuthorization(ctx), type: 'server_error', code: 'echoed_authorization' } });
          return sse.end();
        }
        if (faults.has('malformed-chunk')) await sse.data('{"choices":[{"delta":{"content":"unterminated');
      }
      if (i === chunks.length) break;
      if (i === scripted?.holdAfterPieces && !(await env.scripted.hold(ctx.signal))) return;
      if (sse.closed || !(await sleep(delayMs, ctx.signal))) return;
      if (faults.has('keepalive-comments') && i % 2 === 0) await sse.comment('ping');
      await sse.data(chunk(chunks[i].delta, null));
      if (sse.closed) return;
      if (chunks[i].content && ctx.record.firstContentAt === undefined) ctx.record.firstContentAt = Date.now();
      account(chunks[i]);
    }
    await sse.data(chunk({}, large ? 'stop' : finishReason));
    await sse.data({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: usage() });
    if (!faults.has('no-done')) await sse.data('[DONE]');
    sse.end();
  } finally {
    // Runs on success, on client abort and on faults: whatever was not sent goes back to the wallet.
    settle();
  }
}

interface StreamPiece {
  delta: Record<string, unknown>;
  /** Answer text (billed as the content tokens). */
  content?: string;
  /** Reasoning or tool-call text (billed by words). */
  extra?: string;
}

/** Each call: a first piece with its index, id and name, then its arguments in pieces of `size` characters. */
function toolCallPieces(calls: readonly ToolCall[], size: number): StreamPiece[] {
  return calls.flatMap((call, index) => [
    { delta: { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }, extra: `${call.name} ` },
    ...splitEvery(call.arguments, size).map((piece) => ({ delta: { tool_calls: [{ index, function: { arguments: piece } }] }, extra: piece })),
  ]);
}
