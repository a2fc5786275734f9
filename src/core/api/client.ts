import * as l10n from '@vscode/l10n';
import { checkApiKeyFormat } from './apiKey';
import { normaliseBaseUrl } from './baseUrl';
import { chatResultFromJson } from './chatCompletion';
import { parseChatEventStream } from './chatStream';
import { offeredToolNames } from './toolCalls';
import { ApiError, type Endpoint } from './errors';
import { decodeImageItem } from './imageData';
import { readModelEntries } from './modelEntries';
import { capStream, resolveLimits, tooLarge, type ResponseLimits } from './limits';
import { keySecrets, redactErrorText, redactSecrets, usableSecrets } from './redact';
import { redactRelayedBody } from './relayRedaction';
import { ERROR_BODY_LIMIT, readBodyStart, readImageResult, readJsonBody, type BodyReading } from './responseBodies';
import { describeErrorBody, errorFromResponse } from './responseErrors';
import { parseResponseMeta, parseRetryAfter } from './responseMeta';
import { resolveTimeouts, responseHeader, type Timeouts, type Transport, type TransportRequest, type TransportResponse } from './transport';
import { errorFromTransport, withEveryHostFailed } from './transportErrors';
import { createUndiciTransport } from './undiciTransport';
import type {
  ChatRequest, ChatResult, ChatStreamEvent, ForwardedResponse, ForwardRequest, ImageRequest, ImageResult, ModelList, ModelType, RequestOptions, ResponseMeta,
} from './types';

export interface ClientOptions {
  /** Ends in `/api/v1`; paths of the spec are appended to it. */
  baseUrl: string;
  apiKey: string | undefined;
  /** The service's fixed key prefix, when configured: keys without it are refused before sending. */
  keyPrefix?: string;
  /** How requests travel; by default a transport of this client's own (undici, loaded on the first request). */
  transport?: Transport;
  /** The response and idle timeouts apply per request; the connect timeout only to this client's own transport. */
  timeouts?: Partial<Timeouts>;
  /** Size caps on responses; the defaults are documented in the README. */
  limits?: Partial<ResponseLimits>;
  userAgent?: string;
  /** Called with the metadata of every response, success or error (balance, request id, ...). */
  onResponse?: (meta: ResponseMeta, endpoint: Endpoint) => void;
  /** Called with a sentence for the log when a response was usable only in part (a model entry skipped). */
  onWarning?: (text: string) => void;
}

/** Response headers a forwarded response keeps: the body's type and the service's own metadata. */
const RELAYED_HEADER = /^(content-type|retry-after|x-request-id|x-service-[a-z0-9-]+|x-ratelimit-[a-z0-9-]+)$/;

/**
 * The inference API over HTTP. Knows nothing of VS Code: settings, secrets and UI are the host's.
 * The key is held in a private field so that it never shows up when the client is logged or inspected.
 */
export class InferenceClient {
  readonly baseUrl: string;
  /** The base URL's origin: the host that answered, unless the transport says another one did. */
  readonly #origin: string;
  readonly #apiKey: string | undefined;
  readonly #keyPrefix: string;
  readonly #transport: Transport;
  readonly #ownsTransport: boolean;
  /** Per request; the connect timeout is the transport's. */
  readonly #timeouts: TransportRequest['timeouts'];
  readonly #limits: ResponseLimits;
  /** What must never appear in a text built from a response: the key, with and without its prefix. */
  readonly #secrets: readonly string[];
  readonly #userAgent: string;
  readonly #onResponse: ClientOptions['onResponse'];
  readonly #onWarning: ClientOptions['onWarning'];

  constructor(options: ClientOptions) {
    this.baseUrl = normaliseBaseUrl(options.baseUrl);
    this.#origin = new URL(this.baseUrl).origin;
    this.#apiKey = options.apiKey?.trim();
    this.#keyPrefix = options.keyPrefix ?? '';
    const timeouts = resolveTimeouts(options.timeouts);
    this.#timeouts = { responseMs: timeouts.responseMs, idleMs: timeouts.idleMs };
    this.#limits = resolveLimits(options.limits);
    this.#secrets = keySecrets(this.#apiKey, this.#keyPrefix);
    this.#ownsTransport = !options.transport;
    this.#transport = options.transport ?? createUndiciTransport({ timeouts });
    this.#userAgent = options.userAgent ?? 'inference-client';
    this.#onResponse = options.onResponse;
    this.#onWarning = options.onWarning;
  }

  async listModels(options: { type?: ModelType } & RequestOptions = {}): Promise<ModelList> {
    const query = new URLSearchParams({ format: 'openai' });
    if (options.type) query.set('type', options.type);
    const { meta, body } = await this.#json('models', 'GET', `/models?${query}`, undefined, options.signal);
    const data = (body as { data?: unknown }).data;
    if (!Array.isArray(data)) {
      throw new ApiError('malformedResponse', l10n.t('The model list has no "data" array: the service answered with an unexpected catalog shape.'), { meta, status: meta.status });
    }
    const { models, skipped } = readModelEntries(data);
    for (const sentence of skipped) this.#onWarning?.(this.#redact(sentence));
    return { models, meta };
  }

  async chat(chatRequest: ChatRequest, options: RequestOptions = {}): Promise<ChatResult> {
    const { meta, body } = await this.#json('chat', 'POST', '/chat/completions', { ...chatRequest, stream: false }, options.signal);
    return chatResultFromJson(body, meta, offeredToolNames(chatRequest));
  }

  /** Yields the response metadata, then text deltas as they arrive; aborting the signal closes the connection. */
  async *streamChat(chatRequest: ChatRequest, options: RequestOptions = {}): AsyncGenerator<ChatStreamEvent, void, undefined> {
    const { signal } = options;
    const { meta, response } = await this.#send('chat', 'POST', '/chat/completions', { ...chatRequest, stream: true }, signal, 'text/event-stream');
    yield { type: 'response', meta };
    let finished = false;
    try {
      if (!responseHeader(response.headers, 'content-type').includes('text/event-stream')) {
        // Tolerate a service that answers a stream request with one JSON completion.
        const result = chatResultFromJson(await readJsonBody(response, this.#reading(meta, signal)), meta, offeredToolNames(chatRequest));
        if (result.text) yield { type: 'delta', text: result.text };
        for (const call of result.toolCalls ?? []) yield { type: 'toolCall', call };
        if (result.finishReason) yield { type: 'finish', reason: result.finishReason };
        if (result.usage) yield { type: 'usage', usage: result.usage };
        yield { type: 'end', complete: true };
        finished = true;
        return;
      }
      const limit = this.#limits.streamBytes;
      const body = capStream(response.body, limit, () => tooLarge('an answer', limit, meta, ` ${l10n.t('The answer so far was kept.')}`));
      // Only calls to tools this request offered come out: the language-model provider passes them on as they are.
      yield* parseChatEventStream(body, meta, { redact: (text) => this.#redact(text), offeredTools: offeredToolNames(chatRequest) });
      finished = true;
    } catch (error) {
      throw errorFromTransport(error, signal, meta);
    } finally {
      // A consumer that stops early (Stop button, break) must close the connection, not leave it streaming.
      if (finished) await response.body.drain(64 * 1024);
      else response.body.cancel();
    }
  }

  async generateImage(imageRequest: ImageRequest, options: RequestOptions = {}): Promise<ImageResult> {
    const payload = { ...imageRequest, response_format: imageRequest.response_format ?? 'b64_json' };
    const { meta, response } = await this.#send('images', 'POST', '/images/generations', payload, options.signal, 'application/json');
    const body = await readImageResult(response, this.#reading(meta, options.signal));
    const record = body as { data?: unknown; created?: unknown };
    if (!Array.isArray(record.data) || record.data.length === 0) {
      throw new ApiError('malformedResponse', l10n.t('The image result has no images in "data".'), { meta, status: meta.status });
    }
    const result: ImageResult = { images: record.data.map((item) => decodeImageItem(item, meta, this.#limits.imageBytes)), meta };
    if (typeof record.created === 'number') result.created = record.created;
    return result;
  }

  /** Releases the connections when this client created its transport. */
  async close(): Promise<void> {
    if (this.#ownsTransport) await this.#transport.close();
  }

  async #json(endpoint: Endpoint, method: 'GET' | 'POST', path: string, payload: unknown, signal: AbortSignal | undefined): Promise<{ meta: ResponseMeta; body: unknown }> {
    const { meta, response } = await this.#send(endpoint, method, path, payload, signal, 'application/json');
    return { meta, body: await readJsonBody(response, this.#reading(meta, signal)) };
  }

  /** Response-derived text with the key and anything like a credential removed. */
  #redact(text: string): string {
    return redactSecrets(text, this.#secrets);
  }

  /** What reading a body needs from this client: its limits, and its redaction for any text quoted in an error. */
  #reading(meta: ResponseMeta, signal: AbortSignal | undefined): BodyReading {
    return { meta, signal, limits: this.#limits, redact: (text) => this.#redact(text) };
  }

  async #send(endpoint: Endpoint, method: 'GET' | 'POST', path: string, payload: unknown, signal: AbortSignal | undefined, accept: string): Promise<{ meta: ResponseMeta; response: TransportResponse }> {
    const body = payload === undefined ? undefined : JSON.stringify(payload);
    const { meta, response } = await this.#request(endpoint, method, path, body, signal, accept);
    if (response.status >= 300) {
      const text = this.#redact(await readBodyStart(response.body, ERROR_BODY_LIMIT).catch(() => ''));
      const location = responseHeader(response.headers, 'location');
      const retryAfterSeconds = parseRetryAfter(response.headers);
      const error = errorFromResponse(endpoint, meta, describeErrorBody(text, responseHeader(response.headers, 'content-type'), (decoded) => this.#redact(decoded)), {
        ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
        ...(location && { location }),
        baseUrl: this.baseUrl,
      });
      throw withEveryHostFailed(error, response.route?.failures ?? []);
    }
    return { meta, response };
  }

  /**
   * Relays one request with the key added, for the local endpoint: answers with any status instead of
   * throwing, and keeps only the headers a client may see. The service may echo what it was sent, so
   * nothing of the response leaves with the key in it: header values are redacted, an error body is
   * read (capped) and redacted after decoding, and a success body loses every form of the key as it
   * passes (relayRedaction.ts).
   */
  async forward(forwarded: ForwardRequest, options: RequestOptions = {}): Promise<ForwardedResponse> {
    const { meta, response } = await this.#request(forwarded.endpoint, forwarded.method, forwarded.path, forwarded.body, options.signal, forwarded.accept);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      const text = Array.isArray(value) ? value[0] : value;
      if (text !== undefined && RELAYED_HEADER.test(name)) headers[name] = this.#redact(text);
    }
    const { status } = response;
    if (status < 300) {
      return { meta, status, headers, body: redactRelayedBody(response.body, usableSecrets(this.#secrets)), discard: () => response.body.cancel() };
    }
    let text: string;
    try {
      text = await readBodyStart(response.body, ERROR_BODY_LIMIT);
    } catch (error) {
      throw errorFromTransport(error, options.signal, meta);
    }
    const body = Buffer.from(redactErrorText(text, this.#secrets), 'utf8');
    return { meta, status, headers, body: [body], discard: () => undefined };
  }

  async #request(endpoint: Endpoint, method: 'GET' | 'POST', path: string, body: string | Uint8Array | undefined, signal: AbortSignal | undefined, accept: string): Promise<{ meta: ResponseMeta; response: TransportResponse }> {
    const keyProblem = checkApiKeyFormat(this.#apiKey, this.#keyPrefix);
    if (keyProblem) throw keyProblem;
    if (signal?.aborted) throw new ApiError('cancelled', l10n.t('The request was cancelled.'));
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#apiKey}`,
      accept,
      'user-agent': this.#userAgent,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: TransportResponse;
    const sentAt = Date.now();
    try {
      response = await this.#transport.send({
        url: `${this.baseUrl}${path}`,
        method,
        headers,
        ...(body !== undefined && { body }),
        ...(signal && { signal }),
        timeouts: this.#timeouts,
      });
    } catch (error) {
      throw errorFromTransport(error, signal);
    }
    const meta = parseResponseMeta(response.status, response.headers);
    meta.sentAt = sentAt;
    meta.host = response.route?.origin ?? this.#origin;
    // Header values are shown, logged and stored (Copy Request ID, error cards): they are response text too.
    if (meta.requestId !== undefined) meta.requestId = this.#redact(meta.requestId);
    if (meta.modelId !== undefined) meta.modelId = this.#redact(meta.modelId);
    this.#onResponse?.(meta, endpoint);
    return { meta, response };
  }
}
