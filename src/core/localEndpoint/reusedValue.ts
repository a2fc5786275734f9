/**
 * A value made on first use and reused until forgotten, for the endpoint's client: building one reads the
 * key from SecretStorage, too slow to repeat per request. A failed build is not kept, so a key set
 * afterwards is picked up by the next request.
 */
export class ReusedValue<T> {
  #pending: Promise<T> | undefined;

  readonly #make: () => Promise<T>;

  constructor(make: () => Promise<T>) {
    this.#make = make;
  }

  get(): Promise<T> {
    if (this.#pending) return this.#pending;
    const pending = this.#make();
    this.#pending = pending;
    pending.catch(() => {
      if (this.#pending === pending) this.#pending = undefined;
    });
    return pending;
  }

  forget(): void {
    this.#pending = undefined;
  }
}
