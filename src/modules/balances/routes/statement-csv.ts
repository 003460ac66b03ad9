import { Readable } from 'node:stream';
import type { Static } from 'typebox';
import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, ErrorBody } from '../../../platform/schema.ts';
import { STATEMENT_CSV_COLUMNS, StatementCsvQuery } from '../schemas.ts';
import { statementCsv } from '../statement-csv.ts';

export type StatementCsvRequest = Static<typeof StatementCsvQuery>;
/** The reply is the file itself: a CSV text, streamed. */
export type StatementCsvResponse = string;

const CSV = 'text/csv; charset=utf-8';
const EXAMPLE = `${STATEMENT_CSV_COLUMNS.join(',')}\r\n2026-03-01T09:30:00.000-03:00,2026-03-01,0195…,0195…,0195…,BRL,available,credit,74.00,7400,payment,0195…\r\n`;

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/statement.csv',
    {
      config: { auth: 'any', subaccount: true, errors: ['unsupported_currency'] },
      schema: {
        tags: ['ledger'],
        summary: 'The statement of a date range as a CSV file, oldest line first, in a time zone',
        description:
          'Every ledger line of the workspace parties (a party-scoped key: its party only) posted in the range, as RFC 4180 CSV with a header row and CRLF line ends, streamed. A date bound is a whole day in `timezone` (default America/Sao_Paulo): `from=2026-03-01&to=2026-03-31` is all of March there. Times are written in that zone with their offset, `date` is the local day. Amounts are unsigned decimals with the currency scale (`amount`) and integer minor units (`amount_minor`); `direction` says credit or debit. A cell beginning with =, +, -, @, a tab or a carriage return is prefixed with an apostrophe so no spreadsheet runs it as a formula. Errors found before the first byte (a bad range, 503 database_unavailable) are JSON with their status; one met while the file is sent breaks the connection, so only a transfer that completed is a whole file.',
        params: EnvParams,
        querystring: StatementCsvQuery,
        response: {
          200: {
            description: 'the statement as CSV; Content-Disposition names the file',
            headers: {
              'Content-Disposition': Type.String({
                description: 'attachment; filename="lastro-statement-{env}-{first day}-to-{last day}.csv"',
              }),
              'X-Time-Zone': Type.String({
                description: 'the IANA time zone of the dates and times in the file, as the caller named it',
              }),
            },
            content: {
              'text/csv': { schema: Type.String({ contentMediaType: 'text/csv' }), example: EXAMPLE },
            },
          },
          '4xx': ErrorBody,
          '5xx': ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const file = await statementCsv(deps.db, contextOf(deps, request), request.query);
      // HEAD answers the headers only: Fastify would otherwise read the whole file after answering. An
      // empty stream, not no body, so HEAD claims no Content-Length of 0 that GET would not keep.
      // One chunk (a page) is read ahead of the client, not Readable's default sixteen.
      const body =
        request.method === 'HEAD'
          ? Readable.from([])
          : Readable.from(await file.open(), { highWaterMark: 1 });
      return reply
        .type(CSV)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('x-time-zone', file.timeZone)
        .send(body as unknown as StatementCsvResponse);
    },
  );
}
