import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import {
  DAILY_REPORT_EXAMPLE,
  DailyReport,
  type DailyReportInput,
  DailyReportQuery,
  type DailyReportView,
} from '../report-schemas.ts';
import { dailyReport } from '../reports.ts';

export type DailyReportRequest = DailyReportInput;
export type DailyReportResponse = { data: DailyReportView };

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/reports/daily',
    {
      config: { auth: 'any', errors: ['invalid_request', 'forbidden', 'not_found'] },
      schema: {
        tags: ['payments'],
        summary: 'Daily totals: BRL money in, money out, fees and the balance at each day’s end',
        description:
          'One entry per calendar day of the range in America/Sao_Paulo, oldest first, days without payments included: in_minor sums the PIX cash-ins and Pix Automático cycles completed that day, out_minor the PIX payouts, refunds and MED returns, fees_minor the fees of the payments completed that day, balance_minor the available BRL balance of the workspace’s parties (or of party_id; a party-scoped key: its party) at the day’s end. Amounts are strings of minor units. Errors: 400 invalid_request (a date that is not YYYY-MM-DD, to before from, more than 366 days), 403 forbidden (party_id outside a party-scoped key), 404 not_found (party_id).',
        params: EnvParams,
        querystring: DailyReportQuery,
        response: respond(DailyReport, { example: DAILY_REPORT_EXAMPLE }),
      },
    },
    async (request) => ({ data: await dailyReport(deps.db, contextOf(deps, request), request.query) }),
  );
}
