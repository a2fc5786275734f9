/**
 * Keystrokes typed into a filter in the page, each timed there: its input event's handlers, then the
 * next frame from its first animation-frame callback to the first task after it is painted. Shared by
 * the model picker (VS Code's quick pick) and the chat panel's model menu benchmarks.
 */

declare const document: { querySelector(selector: string): PageInput | null };
interface PageInput { value: string; dispatchEvent(event: unknown): boolean; style: { height: string } }
declare const InputEvent: new (type: string, init: { bubbles: boolean; inputType: string; data?: string }) => unknown;
declare const MessageChannel: new () => { port1: { onmessage: (() => void) | null }; port2: { postMessage(message: unknown): void } };
declare function requestAnimationFrame(callback: () => void): number;

export interface Keystroke { handlerMs: number; frameMs: number }

/**
 * In the page: types `query` into the input `selector` finds and erases it, one keystroke a frame. Each
 * keystroke: its input event's handlers (the filter, and the list's update in them), then
 * the next frame from its first animation-frame callback to the first task after it is painted (the
 * list's rows rendered, style, layout, paint), without the wait for that frame to start.
 */
export async function keystrokesInPage({ query, selector }: { query: string; selector: string }): Promise<Keystroke[]> {
  const input = document.querySelector(selector)!;
  const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(() => {
    const started = performance.now();
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve(performance.now() - started);
    channel.port2.postMessage(0);
  }));
  const strokes: Keystroke[] = [];
  const key = async (value: string, inputType: string, data?: string) => {
    await nextFrame();
    // Asked for before the handlers run, so that its callback is the frame's first: animation-frame
    // work they schedule (the list's) runs after it and is timed with the frame.
    const frame = nextFrame();
    const started = performance.now();
    input.value = value;
    input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType, ...(data !== undefined && { data }) }));
    const handlerMs = performance.now() - started;
    strokes.push({ handlerMs, frameMs: await frame });
  };
  for (let length = 1; length <= query.length; length++) await key(query.slice(0, length), 'insertText', query[length - 1]);
  for (let length = query.length - 1; length >= 0; length--) await key(query.slice(0, length), 'deleteContentBackward');
  return strokes;
}

