import { Readable } from 'node:stream';
import type { Static } from 'typebox';
import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, ErrorBody } from '../../../platform/schema.ts';
import { findingsCsv } from '../reconciliation/findings-csv.ts';
import { FINDINGS_CSV_COLUMNS, FindingsCsvQuery } from '../reconciliation/schemas.ts';

export type ReconciliationFindingsCsvRequest = Static<typeof FindingsCsvQuery>;
/** The reply is the file itself: a CSV text, streamed. */
export type ReconciliationFindingsCsvResponse = string;

const CSV = 'text/csv; charset=utf-8';
const EXAMPLE = `${FINDINGS_CSV_COLUMNS.join(',')}\r\n0195…,2026-03-01T00:00:00.000-03:00,2026-03-02T00:00:00.000-03:00,missing_pix,E99999004202603011230abcdefghijk,,,1000,,received,the PSP received …\r\n`;

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/reconciliation/findings.csv',
    {
      config: { auth: 'workspace', errors: [] },
      schema: {
        tags: ['reconciliation'],
        summary: 'The reconciliation findings of a date range as a CSV file, in a time zone',
        description:
          "Every finding about the workspace's payments of the reconciliation runs whose window starts in the range, oldest run first, as RFC 4180 CSV with a header row and CRLF line ends, streamed a page at a time. A date bound is a whole day in `timezone` (default America/Sao_Paulo); window times are written in that zone with their offset. Amounts are integer minor units: `expected_minor` is Lastro's, `found_minor` the PSP's.",
        params: EnvParams,
        querystring: FindingsCsvQuery,
        response: {
          200: {
            description: 'the findings as CSV; Content-Disposition names the file',
            headers: {
              'Content-Disposition': Type.String({
                description: 'attachment; filename="lastro-reconciliation-{env}-{from}-to-{to}.csv"',
              }),
              'X-Time-Zone': Type.String({ description: 'the IANA time zone of the times in the file' }),
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
      const file = await findingsCsv(deps.db, contextOf(deps, request), request.query);
      // HEAD answers the headers only; GET reads one page ahead of the client.
      const body =
        request.method === 'HEAD'
          ? Readable.from([])
          : Readable.from(await file.open(), { highWaterMark: 1 });
      return reply
        .type(CSV)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('x-time-zone', file.timeZone)
        .send(body as unknown as ReconciliationFindingsCsvResponse);
    },
  );
}
