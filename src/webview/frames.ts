/** One requestAnimationFrame for all pending renders, so N streaming messages cost one frame. */
export interface FrameTask {
  renderFrame(): void;
}

export class FrameScheduler {
  private readonly pending = new Set<FrameTask>();
  private scheduled = false;
  private readonly afterFrame: (() => void)[] = [];

  request(task: FrameTask): void {
    this.pending.add(task);
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => this.flush());
  }

  /** Runs after the renders of the current frame (e.g. keep the view scrolled to the bottom). */
  onAfterFrame(callback: () => void): void {
    this.afterFrame.push(callback);
  }

  flush(): void {
    this.scheduled = false;
    const tasks = [...this.pending];
    this.pending.clear();
    for (const task of tasks) task.renderFrame();
    for (const callback of this.afterFrame) callback();
  }
}
