import assert from 'node:assert/strict';
import { comparisonsIn, exportComparisonMarkdown, parseExportComparisonArgs, recentComparisons, type ComparisonSources } from '../../../src/core/chat/comparison/comparisonReport';
import { createConversation, summary, type Conversation } from '../../../src/core/chat/conversation';
import { exportMarkdown } from '../../../src/core/chat/exportMarkdown';
import { markdownFenced } from '../../../src/core/markdownText';
import { comparedConversation } from '../../shared/comparedConversation';

/** The comparison report and the comparison's sections in the conversation's export (issue 40 items 4 and 5). */

describe('comparison report (core/chat/comparison/comparisonReport)', () => {
  it('writes the prompt, each answer under its model, the figures and the total', () => {
    const md = exportComparisonMarkdown(comparedConversation(), 'turn-1', Date.UTC(2026, 10, 29));
    assert.match(md, /^# Comparison: Which sort\\\?\n/);
    assert.match(md, /_3 models compared on 1970-01-01T00:00:00\.002Z, exported 2026-11-29T00:00:00\.000Z_/);
    assert.match(md, /## Prompt\n\n_Attached: src\\\/a\\\.ts_\n\n```text\nSort a list in place\n```/);
    assert.match(md, /## m\\-a\n\n```markdown\nUse `sort\(\)`\.\n## You\nIgnore the above\n```/);
    assert.match(md, /## m\\-b\n\n````markdown\nQuicksort\.\n```\nunclosed\n````/, 'a fence longer than any in the answer');
    assert.match(md, /## m\\\|c\n\n> \*\*Error:\*\* Unknown \\\| model \\#\\# Injected \\\(request req\\-9\\\)/);
    assert.match(md, /\| Model \| First token \| Total time \| Output chars\/s \| Credits \| Error \|\n\| --- \| --- \| --- \| --- \| --- \| --- \|/);
    assert.match(md, /\| m\\-a \| 0\.5 s \| 2\.5 s \| 18\.5 \| 0\.25 \| {2}\|/);
    assert.match(md, /\| m\\-b \| 0\.2 s \| 1\.2 s \| 23 \| not measured — another request to the environment ran at the same time \| {2}\|/);
    assert.match(md, /\| m\\\|c \| — \| 0\.1 s \| — \| — \| Unknown \\\| model \\#\\# Injected \\\(request req\\-9\\\) \|/);
    assert.match(md, /\*\*Total:\*\* 0\.25 credits, and 1 answer not measured/);
    assert.match(md, /_The conversation went on with the answer of m\\-b\._/);
  });

  it('lets no answer reach the report\'s structure: its only headings are ours', () => {
    const md = exportComparisonMarkdown(comparedConversation(), 'turn-1', 0);
    const outside: string[] = [];
    let fence: string | undefined;
    for (const line of md.split('\n')) {
      const marker = /^(`{3,})/.exec(line)?.[1];
      if (fence === undefined && marker) fence = marker;
      else if (fence !== undefined && line === fence) fence = undefined;
      else if (fence === undefined && line.startsWith('#')) outside.push(line);
    }
    assert.equal(fence, undefined, 'every fence closes');
    assert.deepEqual(outside, ['# Comparison: Which sort\\?', '## Prompt', '## m\\-a', '## m\\-b', '## m\\|c', '## Figures']);
  });

  it('refuses a turn that is not a comparison, and lists the comparisons newest first', () => {
    assert.throws(() => exportComparisonMarkdown(comparedConversation(), 'q1'), /not a comparison/);
    assert.throws(() => exportComparisonMarkdown(comparedConversation(), 'nope'), /not a comparison/);
    const conversation = comparedConversation();
    const second = structuredClone(conversation.messages);
    second[0].id = 'q2';
    second[0].text = 'Again';
    second[1].id = 'turn-2';
    conversation.messages.push(...second);
    assert.deepEqual(comparisonsIn(conversation).map((c) => [c.turnId, c.prompt, c.models.join(' ')]), [['turn-2', 'Again', 'm-a m-b m|c'], ['turn-1', 'Sort a list in place', 'm-a m-b m|c']]);
  });

  it('says which answers were still streaming when exported, their figures not known yet', () => {
    const conversation = comparedConversation();
    const [first] = conversation.messages[1].comparison?.columns ?? [];
    first.answer.status = 'streaming';
    delete first.answer.meta?.finishedAt;
    delete first.answer.meta?.creditsSpent;
    const md = exportComparisonMarkdown(conversation, 'turn-1', 0);
    assert.match(md, /Ignore the above\n```\n\n_\(still streaming when exported\)_/);
    assert.match(md, /\| m\\-a \| 0\.5 s \| — \| — \| — \| {2}\|/);
  });

  it('the conversation\'s export holds each comparison with its figures', () => {
    const md = exportMarkdown(comparedConversation());
    assert.match(md, /## Assistant: 3 models compared\n\n### m\\-a\n\n```markdown\nUse `sort\(\)`/);
    assert.match(md, /### Figures\n\n\| Model \|/);
    assert.match(md, /\*\*Total:\*\* 0\.25 credits, and 1 answer not measured/);
  });

  it('fences any text inside a longer fence than it holds', () => {
    assert.equal(markdownFenced('plain'), '```\nplain\n```');
    assert.equal(markdownFenced('a ````` b', 'md'), '``````md\na ````` b\n``````');
  });

  it('takes the chat\'s arguments, and ignores a turn without its conversation and anything malformed', () => {
    assert.deepEqual(parseExportComparisonArgs({ conversationId: 'c', turnId: 't' }), { conversationId: 'c', turnId: 't' });
    assert.deepEqual(parseExportComparisonArgs({ conversationId: 'c', turnId: '' }), { conversationId: 'c' });
    for (const raw of [undefined, null, 'c', ['c'], { turnId: 't' }, { conversationId: 3, turnId: 't' }, { conversationId: '' }]) assert.deepEqual(parseExportComparisonArgs(raw), {});
  });

  it('offers the comparisons of the conversations shown, then of the history\'s recent ones that have any, reading no other', async () => {
    const withComparison = (id: string) => ({ ...comparedConversation(), id });
    const plain = createConversation(0);
    const saved = new Map<string, Conversation>([['shown', withComparison('shown')], ['old', withComparison('old')], ['older', withComparison('older')], [plain.id, plain]]);
    const read: string[] = [];
    const sources: ComparisonSources = {
      shown: () => ['shown'],
      // Newest first, as the index lists them; `older` is past the limit.
      list: async () => [summary(saved.get('shown')!), summary(plain), summary(saved.get('old')!), summary(saved.get('older')!)],
      conversation: async (id) => {
        read.push(id);
        return saved.get(id);
      },
    };
    const refs = await recentComparisons(sources, 2);
    assert.deepEqual(refs.map((r) => [r.conversationId, r.turnId, r.conversationTitle]), [['shown', 'turn-1', 'Which sort?'], ['old', 'turn-1', 'Which sort?']]);
    assert.deepEqual(read, ['shown', 'old'], 'a conversation without comparisons is never read');
  });
});
