/**
 * One queue per merchant in this process: work for a merchant starts once the work queued before it
 * has settled, so a change, a catch-up and a load of the same merchant never interleave here (the
 * database's row lock orders them across processes). Merchants never wait for each other.
 */
export class Lanes {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    const result = (previous ?? Promise.resolve()).then(work, work);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, settled);
    void settled.then(() => {
      if (this.tails.get(key) === settled) this.tails.delete(key);
    });
    return result;
  }
}
