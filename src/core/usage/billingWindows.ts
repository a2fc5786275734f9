import type { SharedBillingActivity } from './sharedBillingActivity';

/**
 * What a call cost is measured as a difference of two balances of its environment's wallet: one
 * known before the call, one reported after it was billed. The difference is that call's cost only
 * when no other call of the same wallet was billed in between; otherwise it holds both (a chat
 * answer streamed while an image was generated would count the image's credits twice: once as the
 * image's spend, once inside the answer's).
 *
 * Every billed call of this window (chat panel answers, answers given through VS Code's language
 * models, image generations, answers the local endpoint forwards for other tools) opens a billing
 * window from before its balance is read until its last reading is in. A call whose window shared
 * time with another of the same environment is not measured. A call that has ended and only waits
 * for its reading (a streamed answer is billed after its stream: a model list reads the settled
 * balance) holds back calls that start meanwhile, for that reading's time, so that a question sent
 * right after an answer leaves both measurable.
 *
 * The other VS Code windows of this user count too (sharedBillingActivity.ts): a call is not measured
 * when a call of the same environment in another window was open when it opened, or opened while it
 * was. Calls made elsewhere with the same key (a tool calling the service directly) are out of sight:
 * a top-up shows as a higher balance, which `answerSpend` refuses, and other spending is the limit the
 * README states.
 */
export interface BillingWindow {
  /** Another call of the same environment was in flight at some time while this window was open. */
  readonly overlapped: boolean;
  /** The call is over; only its last balance reading is left. Calls opened from now on wait for it. */
  settling(): void;
  /** The call's last reading is in (or it ended without one). Closing twice is harmless. */
  close(): void;
}

/**
 * Calls measured together as well as each on its own: a comparison's columns (core/chat/comparison/).
 * Its calls overlap one another, so each is unmeasured when they run side by side; the group is
 * measured as a whole (one balance before its first call, one settled reading after its last) when
 * no call outside it was in flight at any time while it was open, its calls' gaps included.
 */
export interface BillingGroup {
  /** A call that is not one of the group's was in flight at some time while the group was open. */
  readonly overlapped: boolean;
  /** The group's last reading is in. Closing twice is harmless. */
  close(): void;
}

interface WindowState {
  overlapped: boolean;
  settling: boolean;
  closed: Promise<void>;
  /** The group's own state, for a call of a group. */
  member?: WindowState;
}

/** How long a new call waits at most for readings in progress (one model-list request each). */
export const SETTLE_WAIT_MS = 5000;

export class BillingWindows {
  readonly #open = new Map<string, Set<WindowState>>();
  /** Calls this process opened per environment: of the opens the shared files count, these are its own. */
  readonly #opened = new Map<string, number>();

  readonly #settleWaitMs: number;
  readonly #shared: SharedBillingActivity | undefined;

  /** `shared`: the other windows' calls; without it, only this process's are seen. */
  constructor(settleWaitMs = SETTLE_WAIT_MS, shared?: SharedBillingActivity) {
    this.#settleWaitMs = settleWaitMs;
    this.#shared = shared;
  }

  /**
   * Before the call reads the balance its spend starts from. Waits (at most `settleWaitMs`: a reading
   * that hangs must not hold every later call) for the readings of calls that have already ended.
   */
  async open(env: string, group?: BillingGroup): Promise<BillingWindow> {
    return this.#openState(env, group && this.#groups.get(group));
  }

  /** Opens a group (see BillingGroup) before its first call; its calls name it when they open. */
  async openGroup(env: string): Promise<BillingGroup> {
    const window = await this.#openState(env, undefined);
    const group: BillingGroup = {
      get overlapped() {
        return window.overlapped;
      },
      close: () => window.close(),
    };
    this.#groups.set(group, window.state);
    return group;
  }

  readonly #groups = new WeakMap<BillingGroup, WindowState>();

  async #openState(env: string, member: WindowState | undefined): Promise<BillingWindow & { state: WindowState }> {
    let open = this.#open.get(env);
    if (!open) this.#open.set(env, (open = new Set()));
    const readings = [...open].filter((w) => w.settling).map((w) => w.closed);
    if (readings.length) await atMost(Promise.all(readings), this.#settleWaitMs);
    let markClosed = () => {};
    const state: WindowState = { overlapped: false, settling: false, closed: new Promise<void>((resolve) => { markClosed = resolve; }), ...(member && { member }) };
    for (const other of open) {
      // A group's own state is not a call: its calls overlap one another, never the group.
      if (other === member) continue;
      state.overlapped = true;
      other.overlapped = true;
      // A call outside the group, in flight beside one of its calls: the group's difference holds it.
      if (member && other.member !== member) member.overlapped = true;
      if (other.member && other.member !== member) other.member.overlapped = true;
    }
    open.add(state);
    const windows = open;
    const opened = (this.#opened.get(env) ?? 0) + 1;
    this.#opened.set(env, opened);
    const elsewhere = await this.#shared?.open(env);
    // Every call opened since, less this process's own (counted by the line above, whatever the order).
    const openedElsewhere = () => (elsewhere ? elsewhere.opensSince() - ((this.#opened.get(env) ?? 0) - opened) : 0);
    let closed = false;
    /** Until it closes: what happens in other windows after that is not this call's. */
    const lookElsewhere = () => {
      if (!closed && !state.overlapped && (elsewhere?.othersOpenAtStart || openedElsewhere() > 0)) state.overlapped = true;
    };
    return {
      state,
      get overlapped() {
        lookElsewhere();
        return state.overlapped;
      },
      settling: () => {
        state.settling = true;
      },
      close: () => {
        if (closed) return;
        lookElsewhere();
        closed = true;
        windows.delete(state);
        elsewhere?.close();
        markClosed();
      },
    };
  }
}

async function atMost(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([promise, new Promise<void>((resolve) => { timer = setTimeout(resolve, ms); })]);
  } finally {
    clearTimeout(timer);
  }
}
