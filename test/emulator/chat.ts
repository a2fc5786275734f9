/** POST /chat/completions: reserve, generate (paced), stream or answer, then settle what was sent. */
import { randomBytes } from 'node:crypto';
import { sendJson, sleep, type RequestContext } from './http';
import { echoedAuthorization } from './faults';
import type { KeyRecord } from './keys';
import { resolveModel } from './models';
import { parseChatRequest } from './chatRequest';
import type { EnvRuntime } from './runtime';
import { splitEvery } from './scripted';
import { identifyToolCalls, messageToolCalls, toolCallDeltas, toolCallTokens } from './toolCalls';
import { SseWriter } from './sse';
import { countTokens, generateReply, largeContentPieces, tokenize } from './textgen';
import type { FaultName, FaultSpec } from './types';
import { roundCredits } from './wallet';

/** Content chunks sent before a mid-stream fault fires. */
const CHUNKS_BEFORE_FAULT = 3;

export async function handleChat(ctx: RequestContext, env: EnvRuntime, key: KeyRecord, body: unknown, streamFaults: FaultSpec[]): Promise<void> {
  const { options } = env;
  const request = parseChatRequest(body, options.maxOutputTokens);
  ctx.record.serviceParameters = request.serviceParameters;
  ctx.record.chat = {
    messages: request.messages.map((m) => ({ ...m })),
    ...(request.tools && { tools: request.tools }),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
    ...(request.topP !== undefined && { top_p: request.topP }),
    ...(request.maxTokens !== undefined && { max_tokens: request.maxTokens }),
  };
  const model = resolveModel(env.catalog, request.model, 'chat');
  ctx.record.model = model;
  ctx.res.setHeader('x-service-model-id', model);

  const promptTokens = countTokens(request.messages);
  const costOf = (completionTokens: number): number =>
    roundCredits(options.prices.chatPerRequest + ((promptTokens + completionTokens) * options.prices.chatPer1kTokens) / 1000);
  const wallet = env.walletOf(key);
  const reserved = costOf(request.maxTokens ?? options.maxOutputTokens);
  wallet.reserve(reserved);

  const faults = new Set<FaultName>(streamFaults.map((f) => f.fault));
  const scripted = env.scripted.take();
  if (scripted) ctx.record.scripted = true;
  const reply = scripted?.text ?? generateReply(request.messages, model);
  let pieces = tokenize(reply);
  let finishReason: 'stop' | 'length' | 'tool_calls' = 'stop';
  if (request.maxTokens !== undefined && pieces.length > request.maxTokens) {
    pieces = pieces.slice(0, request.maxTokens);
    finishReason = 'length';
  }
  // Scripted tool calls follow the text, unless max_tokens cut the answer first.
  const toolCalls = finishReason === 'stop' && scripted?.toolCalls?.length ? identifyToolCalls(scripted.toolCalls) : [];
  if (toolCalls.length > 0) finishReason = 'tool_calls';
  const large = request.stream && faults.has('large-stream');
  if (large) pieces = largeContentPieces(reply);
  const chunked = request.stream && !large && scripted?.chunkChars !== undefined;
  if (chunked) pieces = splitEvery(pieces.join(''), scripted?.chunkChars ?? 1);
  let sentText = '';
  // Pieces are tokens, except large-stream's (~1 KB of whole tokens) and chunked ones (split anywhere).
  const tokensAfter = (piece: string): number =>
    (chunked ? tokenize(sentText).length : sentTokens + (large ? tokenize(piece).length : 1));

  let sentTokens = 0;
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
    const delayMs = options.tokensPerSecond > 0 && !large ? 1000 / options.tokensPerSecond : 0;

    if (!request.stream) {
      if (!(await sleep(delayMs * pieces.length, ctx.signal))) return;
      sentTokens = pieces.length + toolCallTokens(toolCalls);
      settle();
      const text = pieces.join('');
      const message = toolCalls.length > 0
        ? { role: 'assistant', content: text === '' ? null : text, tool_calls: messageToolCalls(toolCalls) }
        : { role: 'assistant', content: text };
      sendJson(ctx, 200, {
        id, object: 'chat.completion', created, model,
        choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
        usage: usage(),
      }, { 'x-service-balance-credits': String(wallet.balance) });
      return;
    }

    const sse = new SseWriter(ctx, { crlf: faults.has('crlf'), tinyWrites: faults.has('tiny-writes') });
    sse.open({ 'x-service-balance-credits': String(wallet.balance) });
    const chunk = (delta: Record<string, unknown>, finish: string | null): Record<string, unknown> =>
      ({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] });

    await sse.data(chunk({ role: 'assistant', content: '' }, null));
    // Mid-stream faults fire after a few content chunks, or after all of them for very short replies.
    const faultAt = Math.min(CHUNKS_BEFORE_FAULT, pieces.length);
    for (let i = 0; i <= pieces.length; i++) {
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
      if (i === pieces.length) break;
      if (sse.closed || !(await sleep(delayMs, ctx.signal))) return;
      if (faults.has('keepalive-comments') && i % 2 === 0) await sse.comment('ping');
      await sse.data(chunk({ content: pieces[i] }, null));
      if (sse.closed) return;
      sentText += pieces[i];
      sentTokens = tokensAfter(pieces[i]);
    }
    for (const delta of toolCallDeltas(toolCalls, scripted?.chunkChars)) {
      if (sse.closed || !(await sleep(delayMs, ctx.signal))) return;
      await sse.data(chunk(delta, null));
    }
    sentTokens += toolCallTokens(toolCalls);
    await sse.data(chunk({}, large ? 'stop' : finishReason));
    await sse.data({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: usage() });
    if (!faults.has('no-done')) await sse.data('[DONE]');
    sse.end();
  } finally {
    // Runs on success, on client abort and on faults: whatever was not sent goes back to the wallet.
    settle();
  }
}
