/**
 * The SDK is versioned with the API it describes: its constant API_VERSION is the OpenAPI document's
 * `info.version`, and its changelog's newest entry is the package's version, naming that API version.
 * A new API version without a release entry of the SDK fails here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { API_VERSION } from '../../packages/sdk/src/index.ts';
import { ROOT } from './snippets.ts';

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

it('names the OpenAPI version it was generated from, in its constant and its changelog', () => {
  const document = JSON.parse(read('docs/openapi.json'));
  const manifest = JSON.parse(read('packages/sdk/package.json'));
  expect(API_VERSION).toBe(document.info.version);
  const newest = /^## (.+)$/m.exec(read('packages/sdk/CHANGELOG.md'))?.[1];
  expect(newest).toBe(`${manifest.version} (API ${document.info.version})`);
});
