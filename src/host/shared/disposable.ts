/** Anything that can be let go: a VS Code Disposable, an event emitter, or an owner whose disposal saves. */
export interface Releasable {
  dispose(): unknown;
}

/**
 * What every `register*` function returns: one disposal for everything it registered (awaitable
 * when it saves), with what activate() hands on to the test API as properties of the same object.
 */
export type Registered<Parts extends object = object> = Releasable & Readonly<Parts>;

/**
 * The host's one lifecycle idiom (after vscode-pull-request-github's `_register`): a class
 * registers what it owns as it creates it, and dispose() releases all of it once, newest first.
 * dispose() resolves when every owned disposal that returned a promise (a final save) has
 * finished, so an owner that must not lose data can be awaited, by deactivate() in the end.
 */
export abstract class Disposable {
  #owned: Releasable[] = [];
  #disposal: Promise<void> | undefined;

  protected register<T extends Releasable>(owned: T): T {
    if (this.#disposal) void owned.dispose();
    else this.#owned.push(owned);
    return owned;
  }

  get isDisposed(): boolean {
    return this.#disposal !== undefined;
  }

  dispose(): Promise<void> {
    if (!this.#disposal) {
      const owned = this.#owned.splice(0).reverse();
      this.#disposal = Promise.all(owned.map((item) => item.dispose())).then(() => undefined);
    }
    return this.#disposal;
  }
}
