import * as assert from 'node:assert/strict';
import { fuzzyMatch, matchPath } from '../../../../src/core/chat/mentions/fuzzy';
import { mentionItems, MAX_MENTION_ITEMS } from '../../../../src/core/chat/mentions/mentionItems';
import type { MentionItemView } from '../../../../src/core/chat/protocol/chatProtocol';

const OTHERS: MentionItemView[] = [
  { kind: 'selection', label: 'Selection' },
  { kind: 'problemsFile', label: 'Problems in the active file' },
  { kind: 'problemsWorkspace', label: 'Problems in the workspace' },
  { kind: 'terminal', label: 'Terminal' },
  { kind: 'changes', label: 'Changes' },
];
const FILES = ['README.md', 'src/core/chat/chatEngine.ts', 'src/host/chat/chatSettings.ts', 'src/webview/composer.ts', 'test/unit/chat/chatEngine.test.ts', 'src/core/chat/conversation.ts'];

const labels = (items: MentionItemView[]) => items.map((item) => item.label);

describe('mentions: fuzzy matching and ranking', () => {
  it('matches the query in order, case-insensitively, and refuses a missing or out-of-order character', () => {
    assert.deepEqual(fuzzyMatch('cmp', 'composer.ts')?.positions, [0, 2, 3]);
    assert.ok(fuzzyMatch('COMP', 'composer.ts'));
    assert.equal(fuzzyMatch('cpx', 'composer.ts'), undefined);
    assert.equal(fuzzyMatch('pc', 'composer.ts')?.positions, undefined, 'p comes after c, and no c follows p');
    assert.deepEqual(fuzzyMatch('', 'anything'), { score: 0, positions: [] });
  });

  it('prefers word starts (after a separator or at a case step) to nearer mid-word characters', () => {
    assert.deepEqual(fuzzyMatch('cs', 'chatSettings.ts')?.positions, [0, 4]);
    assert.deepEqual(fuzzyMatch('ce', 'src/core/chat/chatEngine.ts')?.positions, [4, 18], 'c of core, then E of Engine');
    // A word start that would leave the rest unmatched falls back to the plain leftmost match.
    assert.deepEqual(fuzzyMatch('ab', 'xa-a')?.positions, undefined);
    assert.deepEqual(fuzzyMatch('aa', 'xa-a')?.positions, [1, 3]);
  });

  it('scores consecutive and word-start matches above scattered ones', () => {
    const tight = fuzzyMatch('chat', 'chatEngine.ts');
    const loose = fuzzyMatch('chat', 'cohabitat.ts');
    assert.ok(tight && loose && tight.score > loose.score, `${tight?.score} > ${loose?.score}`);
  });

  it('matches a path by its file name first, and a query with a slash against the whole path', () => {
    const byName = matchPath('eng', 'src/core/chat/chatEngine.ts');
    const byFolder = matchPath('eng', 'src/engines/readme.md');
    assert.ok(byName && byFolder && byName.score > byFolder.score, 'a match in the file name beats one in the folders');
    assert.deepEqual(byName.positions, [18, 19, 20], 'positions are in the whole path');
    assert.deepEqual(matchPath('host/cs', 'src/host/chat/chatSettings.ts')?.positions, [4, 5, 6, 7, 8, 9, 18]);
    assert.equal(matchPath('host/cs', 'src/core/chat/chatSettings.ts'), undefined);
  });

  it('lists the other sources, then open editors, then files for an empty query', () => {
    const items = mentionItems('', { others: OTHERS, openFiles: ['src/webview/composer.ts'], files: FILES });
    assert.deepEqual(labels(items), [...labels(OTHERS), 'src/webview/composer.ts', ...FILES.filter((f) => f !== 'src/webview/composer.ts')]);
    assert.equal(items[5]?.open, true);
    assert.equal(items[6]?.open, undefined);
  });

  it('ranks the best match first, with the positions to highlight, an open editor above an equal file', () => {
    const items = mentionItems('chatengine', { others: OTHERS, openFiles: ['test/unit/chat/chatEngine.test.ts'], files: FILES });
    assert.deepEqual(labels(items), ['src/core/chat/chatEngine.ts', 'test/unit/chat/chatEngine.test.ts'].reverse(),
      'both match in the file name; the open one wins (the shorter name would otherwise)');
    assert.deepEqual(labels(mentionItems('chatengine', { others: OTHERS, openFiles: [], files: FILES })), ['src/core/chat/chatEngine.ts', 'test/unit/chat/chatEngine.test.ts']);
    const problems = mentionItems('prob', { others: OTHERS, openFiles: [], files: FILES });
    assert.deepEqual(labels(problems), ['Problems in the workspace', 'Problems in the active file'], 'equal matches: the shorter label first');
    assert.deepEqual(problems[1]?.matches, [0, 1, 2, 3]);
    assert.equal(labels(mentionItems('chg', { others: OTHERS, openFiles: [], files: FILES }))[0], 'Changes', 'a source ranks with the files, by its label');
  });

  it('returns at most the limit, so that a large workspace posts a short list per keystroke', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `src/file${i}.ts`);
    assert.equal(mentionItems('file', { others: [], openFiles: [], files: many }).length, MAX_MENTION_ITEMS);
    const started = performance.now();
    mentionItems('fl9', { others: [], openFiles: [], files: Array.from({ length: 20_000 }, (_, i) => `packages/p${i % 97}/src/module${i}/file${i}.ts`) });
    const elapsed = performance.now() - started;
    // ~90 ms on an idle 2-core machine; the bound leaves room for a loaded one and still catches a quadratic ranking.
    assert.ok(elapsed < 1000, `20,000 paths ranked in ${elapsed.toFixed(1)} ms`);
  });
});
