/** One unusable model entry (created: 1e300, an id that is not a name) is skipped and logged; the list still answers. */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { InferenceClient } from '../../../src/core/api/client';
import { createEndpointToken } from '../../../src/core/localEndpoint/auth';
import { describeRequest, LocalEndpointServer, type RequestSummary } from '../../../src/core/localEndpoint/server';
import { readModelEntries } from '../../../src/core/api/modelEntries';
import { waitFor } from '../../harness/wait';
import { bearer, rawRequest } from '../emulator/helpers';

const ENTRIES: unknown[] = [
  { id: 'good-a', object: 'model', created: 1700000000, owned_by: 'service' },
  { id: 'huge-created', object: 'model', created: 1e300, owned_by: 'service' },
  { id: 'text-created', object: 'model', created: 'yesterday' },
  { id: 'line\nbreak', object: 'model', created: 1 },
  { id: 42, object: 'model' },
  'not an entry',
  { id: 'good-b', object: 'model', created: null, owned_by: 'service' },
];

describe('model entries with unusable fields', () => {
  it('are skipped, each with a sentence saying why; usable ones are kept as they came', () => {
    const { models, skipped } = readModelEntries(ENTRIES);
    assert.deepEqual(models.map((m) => m.id), ['good-a', 'good-b']);
    assert.deepEqual(skipped, [
      'skipped model entry 1 ("huge-created") of the model list: "created" is not a timestamp a date can hold',
      'skipped model entry 2 ("text-created") of the model list: "created" is not a timestamp a date can hold',
      'skipped model entry 3 ("line\\nbreak") of the model list: "id" is too long or holds control characters',
      'skipped model entry 4 of the model list: "id" is not a name',
      'skipped model entry 5 of the model list: it is not an object',
    ]);
  });

  describe('from a service that lists them', () => {
    let service: http.Server;
    let baseUrl = '';
    before(async () => {
      service = http.createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_models' });
        res.end(JSON.stringify({ object: 'list', data: ENTRIES }));
      });
      await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
      baseUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}/api/v1`;
    });
    after(() => new Promise((resolve) => service.close(resolve)));

    it('the client returns the usable models and tells its log about the rest', async () => {
      const warnings: string[] = [];
      const client = new InferenceClient({ baseUrl, apiKey: 'svc-k0123456789', onWarning: (text) => warnings.push(text) });
      try {
        const { models } = await client.listModels({ type: 'chat' });
        assert.deepEqual(models.map((m) => m.id), ['good-a', 'good-b']);
        assert.equal(warnings.length, 5);
        assert.match(warnings[0], /"huge-created"/);
      } finally {
        await client.close();
      }
    });

    it('the local endpoint answers the Anthropic model list and model lookups, never 500, and logs the skipped entries', async () => {
      const client = new InferenceClient({ baseUrl, apiKey: 'svc-k0123456789' });
      const token = createEndpointToken();
      const summaries: RequestSummary[] = [];
      const server = new LocalEndpointServer({ port: 0, token, forward: (request, signal) => client.forward(request, { signal }), onRequest: (s) => summaries.push(s) });
      await server.listen();
      try {
        const headers = { 'x-api-key': token, 'anthropic-version': '2023-06-01' };
        const list = await rawRequest(`${server.baseUrl}/v1/models`, { headers });
        assert.equal(list.status, 200, list.text);
        const body = JSON.parse(list.text) as { data: Array<{ id: string; created_at: string }> };
        assert.deepEqual(body.data.map((m) => [m.id, m.created_at]), [['good-a', '2023-11-14T22:13:20.000Z'], ['good-b', '1970-01-01T00:00:00.000Z']]);
        assert.equal((await rawRequest(`${server.baseUrl}/v1/models/good-b`, { headers })).status, 200);
        assert.equal((await rawRequest(`${server.baseUrl}/v1/models/huge-created`, { headers })).status, 404);
        assert.equal((await rawRequest(`${server.baseUrl}/v1/models/good-a`, { headers: bearer(token) })).status, 200);
        await waitFor('four summaries', () => summaries.length === 4 || undefined, { timeoutMs: 2000, intervalMs: 5 });
        const line = describeRequest(summaries[0]);
        assert.match(line, /HTTP 200.*skipped model entry 1 \("huge-created"\) of the model list: "created" is not a timestamp a date can hold/);
        assert.doesNotMatch(line, /\n/);
      } finally {
        await server.close();
        await client.close();
      }
    });
  });
});
