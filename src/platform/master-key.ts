import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';

/** MASTER_KEY when set; otherwise one generated once into DATA_DIR (development and the embedded default only). */
export function resolveMasterKey(config: Config): { key: string; generated: boolean; file?: string } {
  if (config.masterKey) return { key: config.masterKey, generated: false };
  const file = path.join(config.dataDir, 'master.key');
  if (existsSync(file)) return { key: readFileSync(file, 'utf8').trim(), generated: false, file };
  mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32).toString('hex');
  writeFileSync(file, key, { mode: 0o600 });
  return { key, generated: true, file };
}
