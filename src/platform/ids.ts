import { randomFillSync } from 'node:crypto';
import { V7Generator } from 'uuidv7';

/**
 * The CSPRNG drawn 1,024 words at a time: the library's default draws 8, a call into the CSPRNG every
 * two to eight ids (an id takes three words in a new millisecond, one in the same), and a payout makes
 * several.
 */
class PooledRandom {
  private readonly pool = new Uint32Array(1024);
  private cursor = this.pool.length;

  nextUint32(): number {
    if (this.cursor >= this.pool.length) {
      randomFillSync(this.pool);
      this.cursor = 0;
    }
    return this.pool[this.cursor++]!;
  }
}

const ids = new V7Generator(new PooledRandom());

/** Time-ordered UUIDv7: ids sort by creation, so "newest first" is "id descending". */
export const newId = (): string => ids.generate().toString();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
