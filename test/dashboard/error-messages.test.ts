/**
 * Every error code of the server's catalogue has a message in pt-BR and in English in the dashboard,
 * and a refusal reads as that message (never the server's English, never a raw id).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../src/platform/errors.ts';
import { ApiError } from '../../web/dashboard/src/api.ts';
import { ERRORS_EN, ERRORS_PT, errorMessage } from '../../web/dashboard/src/error-messages.ts';

const serverCodes = Object.keys(ERROR_STATUS);

describe('dashboard error catalogue', () => {
  it('has a message in both languages for every code of the server', () => {
    expect(serverCodes.filter((code) => !(code in ERRORS_PT))).toEqual([]);
    expect(serverCodes.filter((code) => !(code in ERRORS_EN))).toEqual([]);
  });

  it('has a message for every code docs/errors.md lists', () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/errors.md'), 'utf8');
    const documented = [...doc.matchAll(/^\|\s*`([a-z_]+)`/gm)].map((match) => match[1]!);
    expect(documented.length).toBeGreaterThan(20);
    expect(documented.filter((code) => !(code in ERRORS_PT) || !(code in ERRORS_EN))).toEqual([]);
  });

  it('no Portuguese message is left in English or blank', () => {
    for (const [code, text] of Object.entries(ERRORS_PT)) {
      expect(text.trim(), code).not.toBe('');
      if (code !== 'invalid_credentials')
        expect(text, code).not.toBe(ERRORS_EN[code as keyof typeof ERRORS_EN]);
    }
  });

  it('an ApiError reads as the code’s message, not the server’s English with a raw id', () => {
    const error = new ApiError(
      422,
      'insufficient_balance',
      'The available BRL balance of party 01a2b3c4-0000-7000-8000-000000000000 cannot cover this amount.',
      [{ field: 'body.amount_minor', issue: 'is more than the available balance can cover, fee included' }],
    );
    expect(error.message).toBe('O saldo disponível não cobre este valor, com a tarifa.');
    expect(error.message).not.toMatch(/[0-9a-f]{8}-/);
    expect(error.serverMessage).toMatch(/cannot cover/);
    expect(new ApiError(401, 'invalid_credentials', 'E-mail or password is wrong.').message).toBe(
      'E-mail ou senha incorretos.',
    );
  });

  it('names the field of the details in its parameter', () => {
    expect(errorMessage('invalid_request', [{ field: 'body.pix_key' }], 'en')).toBe(
      'Check pix key: it is not valid.',
    );
    expect(errorMessage('invalid_request', [], 'pt-BR')).toBe(
      'Verifique o formulário: o valor não é válido.',
    );
    expect(errorMessage('no_such_code', [], 'pt-BR')).toBe(ERRORS_PT.unknown_error);
  });
});
