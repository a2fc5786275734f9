import * as l10n from '@vscode/l10n';
import { normaliseUsage } from './chatStream';
import { ApiError } from './errors';
import { ToolCallAssembler } from './toolCalls';
import type { ChatResult, ResponseMeta } from './types';

/**
 * A non-streamed chat completion body as a ChatResult. The streamed form is parsed in chatStream.ts;
 * this one also serves a service that answers a stream request with one JSON completion.
 * `offeredTools`: the tool names the request offered; a call to any other is refused.
 */
export function chatResultFromJson(body: unknown, meta: ResponseMeta, offeredTools: readonly string[]): ChatResult {
  const record = body as { choices?: Array<{ message?: { content?: unknown; tool_calls?: unknown }; finish_reason?: unknown }>; usage?: Record<string, unknown> };
  const choice = Array.isArray(record.choices) ? record.choices[0] : undefined;
  const content = choice?.message?.content;
  // A null content is a legitimate empty answer (for example a length stop before any text).
  if (typeof content !== 'string' && content !== null) {
    throw new ApiError('malformedResponse', l10n.t('The chat completion has no choices[0].message.content.'), { meta, status: meta.status });
  }
  const result: ChatResult = { text: content ?? '', meta };
  if (Array.isArray(choice?.message?.tool_calls) && choice.message.tool_calls.length > 0) {
    const assembler = new ToolCallAssembler(offeredTools);
    assembler.add(choice.message.tool_calls.map((call: unknown, index) => ({ index, ...(call as object) })));
    result.toolCalls = assembler.finish(meta);
  }
  if (typeof choice?.finish_reason === 'string') result.finishReason = choice.finish_reason;
  const usage = normaliseUsage(record.usage);
  if (usage) result.usage = usage;
  return result;
}
