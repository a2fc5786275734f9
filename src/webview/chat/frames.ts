/** One requestAnimationFrame for all pending renders, so N streaming messages cost one frame. */
export interface FrameTask {
  renderFrame(): void;
}

export class FrameScheduler {
  readonly #pending = new Set<FrameTask>();
  #scheduled = false;

  request(task: FrameTask): void {
    this.#pending.add(task);
    if (this.#scheduled) return;
    this.#scheduled = true;
    requestAnimationFrame(() => this.flush());
  }

  flush(): void {
    this.#scheduled = false;
    const tasks = [...this.#pending];
    this.#pending.clear();
    for (const task of tasks) task.renderFrame();
  }
}

/**
 * Work that can wait for the browser's idle time after a frame (a streaming model leaves ~20 ms of
 * it between appends), so that it never lengthens a frame; run anyway after `timeoutMs` when the
 * page is never idle.
 */
export function whenIdle(callback: () => void, timeoutMs = 200): void {
  requestIdleCallback(callback, { timeout: timeoutMs });
}
