/** Where a dashboard form shows the API's refusal: by `details[].field`, else above it. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../web/dashboard/src/api.ts';
import { fieldErrors } from '../../web/dashboard/src/form-errors.ts';

const fieldNames = ['amount_minor', 'pix_key', 'slug', 'splits', 'otp_code'];

describe('dashboard form errors', () => {
  it('names the field of each detail by its label, the issue in the page language', () => {
    const error = new ApiError(400, 'invalid_request', 'Invalid body.', [
      { field: 'body.slug', issue: 'must NOT have fewer than 3 characters' },
      { field: 'body.splits.0.share_bps', issue: 'must be 1..10000' },
      { field: 'body.title', issue: 'must not be blank' },
    ]);
    const labels = { slug: 'Endereço (slug)', splits: 'Splits' };
    expect(fieldErrors(error, { fieldNames, labels, locale: 'pt-BR' })).toEqual({
      slug: 'Endereço (slug) deve ter pelo menos 3 caracteres.',
      // An issue with no Portuguese reads as its code's message, never half in English.
      splits: 'Verifique Splits: o valor não é válido.',
    });
    expect(fieldErrors(error, { fieldNames, labels: { slug: 'Address (slug)' }, locale: 'en' })).toEqual({
      slug: 'Address (slug) must NOT have fewer than 3 characters.',
      splits: 'Splits must be 1..10000.',
    });
  });

  it("places a query parameter's refusal (querystring.to) by its field, in Portuguese", () => {
    const backwards = new ApiError(400, 'invalid_request', 'to must be later than from.', [
      { field: 'querystring.to', issue: 'not after from' },
    ]);
    const form = { fieldNames: ['from', 'to'], labels: { to: 'Até (inclusive)' }, locale: 'pt-BR' };
    expect(fieldErrors(backwards, form)).toEqual({ to: 'Até (inclusive) não é posterior ao início.' });
    const far = new ApiError(400, 'invalid_request', 'Out of range.', [
      { field: 'querystring.from', issue: 'out of range' },
    ]);
    expect(fieldErrors(far, { ...form, labels: { from: 'De' } })).toEqual({
      from: 'De está fora do intervalo aceito.',
    });
  });

  it('places a nested field (body.debtor.document) on its own input when the form has one', () => {
    const error = new ApiError(400, 'invalid_request', 'The due-date charge is not valid.', [
      { field: 'body.debtor.document', issue: 'not a valid CPF or CNPJ' },
      { field: 'body.fine.percent', issue: 'must match pattern "^[0-9]{1,3}\\.[0-9]{2}$"' },
    ]);
    const form = {
      fieldNames: ['debtor_name', 'debtor_document', 'fine'],
      labels: { debtor_document: 'CPF ou CNPJ do devedor', fine: 'Multa (%)' },
      locale: 'pt-BR',
    };
    expect(fieldErrors(error, form)).toEqual({
      debtor_document: 'CPF ou CNPJ do devedor não é um CPF ou CNPJ válido.',
      fine: 'Multa (%) está em um formato inválido.',
    });
  });

  it('places a business error the server sends with details by them', () => {
    const taken = new ApiError(409, 'slug_taken', 'The slug "x" is taken; choose another.', [
      { field: 'body.slug', issue: 'taken' },
    ]);
    expect(fieldErrors(taken, { fieldNames, labels: { slug: 'Address (slug)' }, locale: 'en' })).toEqual({
      slug: 'Address (slug) taken.',
    });
  });

  it('places the business refusals by the field they name, in the page language', () => {
    const labels = { pix_key: 'Chave PIX', amount_minor: 'Valor' };
    const wrongKey = new ApiError(
      400,
      'invalid_pix_key',
      'pix_key is not a valid CPF, CNPJ, e-mail or EVP key.',
      [{ field: 'body.pix_key', issue: 'is not a valid CPF, CNPJ, e-mail, +55 phone or EVP key' }],
    );
    expect(fieldErrors(wrongKey, { fieldNames, labels, locale: 'pt-BR' })).toEqual({
      pix_key: 'Chave PIX não é uma chave CPF, CNPJ, e-mail, telefone +55 ou EVP válida.',
    });
    const short = new ApiError(
      422,
      'insufficient_balance',
      'The available BRL balance cannot cover this amount.',
      [{ field: 'body.amount_minor', issue: 'is more than the available balance can cover, fee included' }],
    );
    expect(fieldErrors(short, { fieldNames, labels: { amount_minor: 'Amount' }, locale: 'en' })).toEqual({
      amount_minor: 'Amount is more than the available balance can cover, fee included.',
    });
  });

  it('places a header the API names on the field its value is typed in', () => {
    const wrongCode = new ApiError(401, 'otp_invalid', 'The one-time code is wrong or has expired.', [
      { field: 'headers.x-otp-code', issue: 'is wrong or has expired' },
    ]);
    const labels = { otp_code: 'Authenticator code' };
    expect(fieldErrors(wrongCode, { fieldNames, labels, locale: 'en' })).toEqual({
      otp_code: 'Authenticator code is wrong or has expired.',
    });
  });

  it('places nothing when the refusal names none of the fields: its message goes above the form', () => {
    const form = { fieldNames: ['pix_key'], labels: {}, locale: 'en' };
    expect(fieldErrors(new ApiError(422, 'insufficient_balance', 'No money.'), form)).toEqual({});
    expect(fieldErrors(new ApiError(0, 'network', 'offline'), form)).toEqual({});
    const elsewhere = new ApiError(400, 'invalid_amount', 'A PIX charge is at most 99 minor units', [
      { field: 'body.amount', issue: 'must be at most 99' },
    ]);
    expect(fieldErrors(elsewhere, { fieldNames, labels: {}, locale: 'en' })).toEqual({});
  });
});
