import { Writable } from 'node:stream';
import pino from 'pino';
import { prettyFactory } from 'pino-pretty';
import { expect, it } from 'vitest';
import { LOG_REDACT_PATHS, prettyTransport } from '../../src/platform/logging.ts';

it('logs are readable only on a terminal outside production; JSON everywhere else', () => {
  expect(prettyTransport(false, { isTTY: true })?.target).toBe('pino-pretty');
  expect(prettyTransport(true, { isTTY: true })).toBeUndefined();
  expect(prettyTransport(false, { isTTY: false })).toBeUndefined();
  expect(prettyTransport(false, {})).toBeUndefined();
});

it('the readable lines hide what the JSON lines hide', () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const log = pino({ redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' } }, stream);
  log.info(
    {
      req: { headers: { authorization: 'Bearer lastro_test_sk_secret' } },
      body: { document: '52998224725' },
    },
    'hi',
  );
  const pretty = prettyFactory({ colorize: false, ...prettyTransport(false, { isTTY: true })!.options });
  const text = lines.map((line) => pretty(JSON.parse(line))).join('');
  expect(text).toContain('hi');
  expect(text).toContain('[redacted]');
  expect(text).not.toContain('lastro_test_sk_secret');
  expect(text).not.toContain('52998224725');
});
