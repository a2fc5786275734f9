import * as l10n from '@vscode/l10n';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ApiError } from './errors';
import { ToolCallAssembler } from './toolCalls';
import type { ChatStreamEvent, ResponseMeta, Usage } from './types';

interface ChunkChoice {
  delta?: { content?: unknown; reasoning_content?: unknown; reasoning?: unknown; tool_calls?: unknown };
  message?: { content?: unknown; tool_calls?: unknown };
  finish_reason?: unknown;
}

interface ChunkBody {
  choices?: ChunkChoice[];
  usage?: Record<string, unknown>;
}

export function normaliseUsage(raw: Record<string, unknown> | undefined): Usage | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const pick = (name: string) => (typeof raw[name] === 'number' ? (raw[name] as number) : undefined);
  const usage: Usage = {};
  const prompt = pick('prompt_tokens');
  const completion = pick('completion_tokens');
  const total = pick('total_tokens');
  if (prompt !== undefined) usage.promptTokens = prompt;
  if (completion !== undefined) usage.completionTokens = completion;
  if (total !== undefined) usage.totalTokens = total;
  return usage;
}

function streamErrorMessage(error: unknown): { message: string; code?: string } {
  if (typeof error === 'string') return { message: error };
  if (error && typeof error === 'object') {
    const record = error as Record<string, unknown>;
    const message = typeof record.message === 'string' ? record.message : JSON.stringify(error).slice(0, 300);
    const code = typeof record.code === 'string' ? record.code : typeof record.type === 'string' ? record.type : undefined;
    return code === undefined ? { message } : { message, code };
  }
  return { message: l10n.t('unknown error') };
}

/** One event of the service's chat event stream, as both its readers (this client, the local endpoint's Anthropic translation) take it. */
export type ChunkEvent =
  | { kind: 'chunk'; chunk: unknown }
  | { kind: 'done' }
  /** An `error` event, or a chunk that carries an `error` member: `error` is what it said. */
  | { kind: 'error'; error: unknown }
  /** An event whose data is not JSON. */
  | { kind: 'malformed' };

export interface ChunkEventReader {
  /** One network read: split UTF-8 sequences and events wait for the next. */
  feed(bytes: Uint8Array): void;
  /** The stream ended: a last event that lacked its blank line is read. */
  end(): void;
}

/**
 * The framing of the service's chat event stream, read once for everyone: server-sent events
 * (comments, keep-alives, CRLF and events split across reads tolerated, by eventsource-parser), each
 * event's data as `[DONE]`, an error, JSON, or not JSON. What a chunk means is the caller's.
 */
export function chunkEventReader(onEvent: (event: ChunkEvent) => void): ChunkEventReader {
  const decoder = new TextDecoder('utf-8');
  const parser = createParser({
    onEvent: (event: EventSourceMessage) => {
      if (event.event === 'error') {
        // Its data may be the error itself or, as a chunk would carry it, an object with an `error` member.
        const data = safeJson(event.data) ?? event.data;
        const wrapped = data !== null && typeof data === 'object' ? (data as { error?: unknown }).error : undefined;
        return onEvent({ kind: 'error', error: wrapped ?? data });
      }
      if (event.data.trim() === '[DONE]') return onEvent({ kind: 'done' });
      let chunk: unknown;
      try {
        chunk = JSON.parse(event.data);
      } catch {
        return onEvent({ kind: 'malformed' });
      }
      if (chunk !== null && typeof chunk === 'object' && (chunk as { error?: unknown }).error !== undefined) return onEvent({ kind: 'error', error: (chunk as { error: unknown }).error });
      onEvent({ kind: 'chunk', chunk });
    },
  });
  return {
    feed: (bytes) => parser.feed(decoder.decode(bytes, { stream: true })),
    end: () => parser.feed(`${decoder.decode()}\n\n`),
  };
}

/**
 * Turns the bytes of a chat-completions event stream into typed events. Tolerates comments and
 * keep-alives, CRLF, events and UTF-8 characters split across reads, chunks without content, a
 * usage-only chunk, and a stream that just ends; an `error` object or a non-JSON event becomes an ApiError
 * thrown after every delta that preceded it was yielded.
 */
export async function* parseChatEventStream(
  body: AsyncIterable<Uint8Array>,
  meta: ResponseMeta,
  options: {
    redact?: (text: string) => string;
    /** The tool names the request offered (`offeredToolNames`); a call to any other fails the answer. */
    offeredTools?: readonly string[];
  } = {},
): AsyncGenerator<ChatStreamEvent, void, undefined> {
  const redact = options.redact ?? ((text: string) => text);
  // An error the service reports mid-stream is response text like any other: no key may survive in it.
  const describeFailure = (error: unknown) => {
    const { message, code } = streamErrorMessage(error);
    return { message: redact(message), ...(code !== undefined && { code: redact(code) }) };
  };
  const pending: ChatStreamEvent[] = [];
  let sawDone = false;
  let sawFinish = false;
  let failure: ApiError | undefined;
  const toolCalls = new ToolCallAssembler(options.offeredTools ?? []);
  // Tool calls are complete at the finish reason (or the end of the stream), not before.
  const flushToolCalls = () => {
    if (!toolCalls.pending || failure) return;
    try {
      for (const call of toolCalls.finish(meta)) pending.push({ type: 'toolCall', call });
    } catch (error) {
      failure = error as ApiError;
    }
  };

  const onChunk = (chunk: ChunkBody) => {
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    const reasoning = choice?.delta?.reasoning_content ?? choice?.delta?.reasoning;
    if (typeof reasoning === 'string' && reasoning.length > 0) queueText(pending, 'reasoning', reasoning);
    const content = choice?.delta?.content ?? choice?.message?.content;
    if (typeof content === 'string' && content.length > 0) queueText(pending, 'delta', content);
    toolCalls.add(choice?.delta?.tool_calls ?? choice?.message?.tool_calls);
    if (typeof choice?.finish_reason === 'string') {
      flushToolCalls();
      sawFinish = true;
      pending.push({ type: 'finish', reason: choice.finish_reason });
    }
    const usage = normaliseUsage(chunk.usage);
    if (usage) pending.push({ type: 'usage', usage });
  };

  const reader = chunkEventReader((event) => {
    if (failure || sawDone) return;
    switch (event.kind) {
      case 'done':
        sawDone = true;
        return;
      case 'malformed':
        failure = new ApiError('malformedResponse', l10n.t('The service sent a stream event that is not valid JSON; the answer so far was kept.'), { meta, status: meta.status });
        return;
      case 'error': {
        const { message, code } = describeFailure(event.error);
        failure = new ApiError('streamError', l10n.t('The service reported an error during the answer: {0}', message), {
          meta, status: meta.status, serviceMessage: message, ...(code !== undefined && { serviceCode: code }),
        });
        return;
      }
      case 'chunk':
        if (event.chunk !== null && typeof event.chunk === 'object') onChunk(event.chunk as ChunkBody);
    }
  });

  for await (const bytes of body) {
    reader.feed(bytes);
    yield* drain(pending);
    if (failure) throw failure;
    if (sawDone) break;
  }
  // The stream ended without its terminator: a last event may lack its blank line.
  if (!sawDone) reader.end();
  flushToolCalls();
  yield* drain(pending);
  if (failure) throw failure;
  yield { type: 'end', complete: sawDone || sawFinish };
}

/** One text event per network read and kind: every event yielded costs a trip through each generator layer. */
function queueText(pending: ChatStreamEvent[], type: 'delta' | 'reasoning', text: string): void {
  const last = pending[pending.length - 1];
  if (last?.type === type) last.text += text;
  else pending.push({ type, text });
}

/** Takes every queued event out (the queue is reused across reads). */
function drain(pending: ChatStreamEvent[]): ChatStreamEvent[] {
  const events = pending.slice();
  pending.length = 0;
  return events;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
