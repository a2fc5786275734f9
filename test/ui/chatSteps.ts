import type { RequestRecord } from '../emulator';
import { waitFor } from '../harness/wait';
import type { UiFixture } from './fixture';

/** What a user does in the chat panel, for the chat UI tests. Every wait has a timeout. */
export function chatSteps(ui: UiFixture) {
  const chat = () => ui.chatFrame();
  const composer = () => chat().locator('.composer-input');
  const messages = (role: 'user' | 'assistant') => chat().locator(`.message.role-${role}`);
  const lastAnswer = () => messages('assistant').last();
  const chatRequests = (): RequestRecord[] => ui.emulator.requests.filter((r) => r.path.endsWith('/chat/completions'));
  /** What the last chat request sent as its last user message. */
  const lastUserContent = (): string | undefined => chatRequests().at(-1)?.chat?.messages.findLast((m) => m.role === 'user')?.content;

  return {
    chat,
    composer,
    messages,
    lastAnswer,
    chatRequests,
    lastUserContent,
    /** Picks the environment's chat model and opens the chat panel, ready to type. */
    async openChat(model = 'emu-chat-large'): Promise<void> {
      // The list comes from the service: after a reload under CI's load (UI and integration tiers
      // at once on 2 cores) it once took over 10 s in a fresh extension host. And once, after an
      // extension host restart, the picker was gone before its list showed (nothing on screen said
      // why): the command runs again then, and the log says so.
      await waitFor(`the model ${model} picked`, async () => {
        await ui.runCommand('Inference: Pick Chat Model');
        try {
          await ui.pickQuickPickItem(model, 20_000);
          return true;
        } catch (error) {
          // The whole message: its second line says what the quick input showed (workbench.describeQuickInput).
          console.log(`    [ui] ${model} did not show in Pick Chat Model (${error instanceof Error ? error.message : String(error)}); running it again`);
          return false;
        }
      }, { timeoutMs: 60_000, intervalMs: 500 });
      await ui.runCommand('Inference: Open Chat');
      await composer().waitFor({ state: 'visible', timeout: 30_000 });
    },
    /** Types `text` into the composer and presses Enter; resolves when the emulator saw the request. */
    async send(text: string): Promise<RequestRecord> {
      const before = chatRequests().length;
      await composer().click();
      await composer().fill(text);
      await composer().press('Enter');
      return waitFor('the chat request to reach the emulator', () => chatRequests()[before], { timeoutMs: 15_000, intervalMs: 50 });
    },
    async waitForAnswerEnd(): Promise<void> {
      await waitFor('the answer to finish', async () => {
        const last = chat().locator('.message').last();
        return /role-assistant/.test((await last.getAttribute('class')) ?? '') && (await last.locator('.message-status', { hasText: 'Answering' }).count()) === 0;
      }, { timeoutMs: 30_000, intervalMs: 100 });
    },
    /**
     * Gives the active editor the keyboard, as a user's click in it would, and waits until it has
     * it: a click on a busy machine can land before the editor is there and leave the focus elsewhere,
     * so that the next key (Ctrl+Z) reaches nothing.
     */
    async focusActiveEditor(): Promise<void> {
      await ui.runCommand('View: Focus Active Editor Group');
      await ui.page.locator('.editor-group-container.active .monaco-editor.focused').first().waitFor({ timeout: 10_000 });
    },
    /** Opens a workspace file and selects its lines 2 to 3 with the keyboard, as a user would. */
    async selectLines2To3(file: string): Promise<void> {
      await ui.openFile(file);
      await ui.page.locator('.editor-instance .monaco-editor .view-lines').first().click();
      await ui.page.keyboard.press('Control+Home');
      await ui.page.keyboard.press('ArrowDown');
      await ui.page.keyboard.press('Shift+ArrowDown');
      await ui.page.keyboard.press('Shift+End');
    },
    /** The text of the active text editor, line by line in visual order (Monaco renders lines out of order). */
    async editorText(): Promise<string> {
      const lines = await ui.page.locator('.editor-instance .monaco-editor .view-lines').first().locator('.view-line')
        .evaluateAll((nodes) => nodes.map((n) => ({ top: parseFloat((n as unknown as { style: { top: string } }).style.top), text: n.textContent ?? '' })));
      return lines.sort((a, b) => a.top - b.top).map((l) => l.text.replace(/\u00a0/g, ' ')).join('\n');
    },
  };
}
