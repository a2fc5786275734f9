/** Per-environment model catalog and GET /models. */
import { badRequest, notFound } from './errors';
import { sendJson, type RequestContext } from './http';
import type { KeyRecord } from './keys';
import type { EnvRuntime } from './runtime';
import type { EnvironmentName } from './types';

export interface CatalogModel { id: string; kind: 'chat' | 'image'; displayName: string; tier: 'free' | 'paid'; created: number; contextWindow?: number }

export interface ModelCatalog { chat: CatalogModel[]; image: CatalogModel[] }

const CATALOGS: Record<EnvironmentName, ModelCatalog> = {
  production: {
    chat: [
      { id: 'emu-chat-large', kind: 'chat', displayName: 'Emu Chat Large', tier: 'paid', created: 1735689600, contextWindow: 128000 },
      { id: 'emu-chat-small', kind: 'chat', displayName: 'Emu Chat Small', tier: 'free', created: 1735689600, contextWindow: 32000 },
    ],
    image: [{ id: 'emu-image-v1', kind: 'image', displayName: 'Emu Image v1', tier: 'paid', created: 1735689600 }],
  },
  preview: {
    chat: [
      { id: 'emu-chat-large-preview', kind: 'chat', displayName: 'Emu Chat Large (preview)', tier: 'paid', created: 1751328000, contextWindow: 128000 },
      { id: 'emu-chat-next', kind: 'chat', displayName: 'Emu Chat Next', tier: 'free', created: 1751328000, contextWindow: 64000 },
    ],
    image: [{ id: 'emu-image-v2-preview', kind: 'image', displayName: 'Emu Image v2 (preview)', tier: 'paid', created: 1751328000 }],
  },
};

export function catalogFor(env: EnvironmentName): ModelCatalog {
  return CATALOGS[env];
}

/** `count` more chat models, `emu-chat-extra-0000` on, of a few families and sizes as a router's list has them. */
export function extraChatModels(env: EnvironmentName, count: number): CatalogModel[] {
  const families = ['llama', 'qwen', 'mistral', 'gemma', 'phi', 'deepseek', 'command', 'granite'];
  return Array.from({ length: count }, (_, index) => {
    const family = families[index % families.length];
    const size = [1, 3, 8, 14, 32, 70, 405][index % 7];
    const id = `emu-chat-extra-${String(index).padStart(4, '0')}-${family}-${size}b`;
    return { id, kind: 'chat', displayName: `${family} ${size}B #${index} (${env})`, tier: index % 3 ? 'paid' : 'free', created: 1735689600 + index, contextWindow: 8192 << (index % 5) };
  });
}

/** Resolves a requested model id for an endpoint of `kind`: unknown → 404, wrong kind → 400. */
export function resolveModel(catalog: ModelCatalog, requested: string, kind: 'chat' | 'image'): string {
  if (kind === 'image' && requested === 'auto') return catalog.image[0].id;
  const own = catalog[kind].find((m) => m.id === requested);
  if (own) return own.id;
  const other = catalog[kind === 'chat' ? 'image' : 'chat'].find((m) => m.id === requested);
  if (other) throw badRequest('wrong_model_kind', `Model "${requested}" is a ${other.kind} model and cannot serve this endpoint.`);
  throw notFound('model_not_found', `Model "${requested}" does not exist in this environment.`);
}

export function handleModels(ctx: RequestContext, env: EnvRuntime, key: KeyRecord | undefined, query: URLSearchParams): void {
  const type = query.get('type');
  if (type !== null && !['chat', 'text', 'image'].includes(type)) {
    throw badRequest('invalid_type', 'Query parameter "type" must be one of chat, text, image.');
  }
  const format = query.get('format');
  if (format !== null && format !== 'openai') throw badRequest('invalid_format', 'Query parameter "format" only accepts "openai".');
  const models = [
    ...(type === 'image' ? [] : env.catalog.chat),
    ...(type === 'chat' || type === 'text' ? [] : env.catalog.image),
  ];
  const headers: Record<string, string> = {};
  if (key) headers['x-service-balance-credits'] = String(env.walletOf(key).balance);
  if (key || format === 'openai') {
    sendJson(ctx, 200, { object: 'list', data: models.map((m) => ({ id: m.id, object: 'model', created: m.created, owned_by: 'service' })) }, headers);
    return;
  }
  // The "web catalog" shape is the emulator's invention; the spec only says a richer shape may come back.
  sendJson(ctx, 200, {
    catalog: {
      environment: env.name,
      groups: (['chat', 'image'] as const)
        .map((kind) => ({
          kind,
          entries: models.filter((m) => m.kind === kind).map((m) => ({
            slug: m.id, displayName: m.displayName, plan: m.tier, releasedAt: new Date(m.created * 1000).toISOString(),
            ...(m.contextWindow ? { contextWindow: m.contextWindow } : {}),
          })),
        }))
        .filter((g) => g.entries.length > 0),
    },
  });
}
