import * as assert from 'node:assert/strict';
import { NUMBER_PARAMS, readNumberParams } from '../../../src/core/numberParams';
import { sanitizeParams } from '../../../src/core/chat/params';
import { parseConversation } from '../../../src/core/chat/history/serialization';
import { parseWebviewMessage } from '../../../src/core/chat/protocol/chatMessageValidation';
import { CHAT_PROTOCOL_VERSION } from '../../../src/core/chat/protocol/chatProtocol';
import { checkNumberSetting } from '../../../src/core/settings/settingsCheck';

const field = (values: object | undefined, wire: string): unknown => (values as Record<string, unknown> | undefined)?.[wire];

/** What each reader of a chat number parameter makes of one value: kept (as which number) or not. */
function readers(wire: string, setting: string, value: number) {
  const stored = JSON.stringify({ v: 2, id: 'c', title: 't', params: { [wire]: value }, createdAt: 1, updatedAt: 1, messages: [] });
  return {
    setting: checkNumberSetting(setting, value) === undefined,
    override: field(sanitizeParams({ [wire]: value }), wire),
    stored: field(parseConversation(stored)?.params, wire),
    modelOption: field(readNumberParams({ [wire]: value }), wire),
  };
}

describe('chat number parameters: one table, one range', () => {
  it('has one range for each parameter in the settings check, a conversation override, a stored conversation and a model option', () => {
    for (const { wire, setting, min, max, integer } of NUMBER_PARAMS) {
      for (const value of [min, max]) assert.deepEqual(readers(wire, setting, value), { setting: true, override: value, stored: value, modelOption: value }, `${wire} ${value}`);
      const above = max + (integer ? 1 : 0.01);
      const below = min - (integer ? 1 : 0.01);
      for (const value of [above, below]) {
        assert.deepEqual(readers(wire, setting, value), { setting: false, override: undefined, stored: undefined, modelOption: undefined }, `${wire} ${value}`);
      }
    }
  });

  it('keeps max tokens within the settings\' million as an override too (it was up to 2^53 - 1), and rounds a fraction down', () => {
    assert.deepEqual(sanitizeParams({ max_tokens: 2_000_000 }), {});
    assert.deepEqual(sanitizeParams({ max_tokens: 512.9 }), { max_tokens: 512 });
    assert.match(checkNumberSetting('inference.chat.maxTokens', 512.9)?.message ?? '', /a whole number of tokens from 1 to 1,000,000/);
  });

  it('lets the webview set each parameter as a number and nothing else', () => {
    const setParams = (params: Record<string, unknown>) => parseWebviewMessage({ v: CHAT_PROTOCOL_VERSION, type: 'request', id: 1, method: 'setParams', params: { params } });
    for (const { wire } of NUMBER_PARAMS) {
      assert.ok(setParams({ [wire]: 1 }), wire);
      assert.equal(setParams({ [wire]: '1' }), undefined, `${wire} as text`);
    }
  });
});
