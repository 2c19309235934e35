/** Every Redis key the product writes, in one place, under one prefix. */
export class RedisKeys {
  constructor(readonly prefix: string) {}
  session(id: string): string {
    return `${this.prefix}:session:${id}`;
  }
  events(id: string): string {
    return `${this.prefix}:session:${id}:events`;
  }
  trace(id: string): string {
    return `${this.prefix}:session:${id}:trace`;
  }
  catalog(target: string, hash: string): string {
    return `${this.prefix}:catalog:${target}:${hash}`;
  }
  catalogCurrent(target: string, engine: string): string {
    return `${this.prefix}:catalog-current:${target}:${engine}`;
  }
}
