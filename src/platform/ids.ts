import { uuidv7 } from 'uuidv7';

/** Time-ordered UUIDv7: ids sort by creation, so "newest first" is "id descending". */
export const newId = (): string => uuidv7();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
