import { Type } from 'typebox';
import { AmountMinor, Uuid } from '../../platform/schema.ts';

export const SimulateCashInBody = Type.Object({
  amount_minor: AmountMinor,
  party_id: Type.Optional(Uuid),
  payer: Type.Optional(
    Type.Object({
      name: Type.Optional(Type.String({ maxLength: 200 })),
      document: Type.Optional(Type.String({ maxLength: 32, description: 'CPF or CNPJ' })),
    }),
  ),
});
