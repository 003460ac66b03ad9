/** Where a dashboard form shows the API's refusal: by `details[].field`, else by code, else above it. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../web/dashboard/src/api.ts';
import { fieldErrors } from '../../web/dashboard/src/form-errors.ts';

const fieldNames = ['amount_minor', 'pix_key', 'slug', 'splits'];

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
      splits: 'Splits must be 1..10000.',
    });
    expect(fieldErrors(error, { fieldNames, labels: { slug: 'Address (slug)' }, locale: 'en' })).toEqual({
      slug: 'Address (slug) must NOT have fewer than 3 characters.',
      splits: 'Splits must be 1..10000.',
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

  it('places a refusal that names no form field by its code, with its message', () => {
    const form = { fieldNames, labels: {}, locale: 'pt-BR' };
    const wrongKey = new ApiError(
      400,
      'invalid_pix_key',
      'pix_key is not a valid CPF, CNPJ, e-mail or EVP key.',
    );
    expect(fieldErrors(wrongKey, form)).toEqual({
      pix_key: 'Pix_key is not a valid CPF, CNPJ, e-mail or EVP key.',
    });
    const elsewhere = new ApiError(400, 'invalid_amount', 'A PIX charge is at most 99 minor units', [
      { field: 'body.amount', issue: 'must be at most 99' },
    ]);
    expect(fieldErrors(elsewhere, form)).toEqual({ amount_minor: 'A PIX charge is at most 99 minor units.' });
  });

  it('places nothing when the refusal concerns none of the fields', () => {
    const form = { fieldNames: ['pix_key'], labels: {}, locale: 'en' };
    expect(fieldErrors(new ApiError(422, 'insufficient_balance', 'No money.'), form)).toEqual({});
    expect(fieldErrors(new ApiError(0, 'network', 'offline'), form)).toEqual({});
  });
});
