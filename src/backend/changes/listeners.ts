// A set of listeners that a throwing listener cannot break for the others.
export class Listeners<T> {
  readonly #items = new Set<(value: T) => void>();

  get size(): number {
    return this.#items.size;
  }

  add(listener: (value: T) => void): () => void {
    this.#items.add(listener);
    return () => {
      this.#items.delete(listener);
    };
  }

  emit(value: T): void {
    for (const listener of [...this.#items]) {
      try {
        listener(value);
      } catch {
        // One front end's bug must not stop the feed for the others.
      }
    }
  }
}
