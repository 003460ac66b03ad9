import { type Static, Type } from 'typebox';
import { Uuid } from '../../platform/schema.ts';

const Day = (description: string) =>
  Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description, examples: ['2026-11-01'] });
const Minor = (description: string) =>
  Type.String({
    pattern: '^-?[0-9]+$',
    description: `${description}, in minor units as a string ("1050" is R$ 10.50)`,
  });

/** The longest range one report covers: a year of days, so a chart stays one answer. */
export const MAX_REPORT_DAYS = 366;

export const DailyReportQuery = Type.Object(
  {
    from: Day('first day of the report (YYYY-MM-DD, a calendar day in America/Sao_Paulo)'),
    to: Day(
      `last day included (YYYY-MM-DD, in America/Sao_Paulo); at most ${MAX_REPORT_DAYS} days after from`,
    ),
    party_id: Type.Optional(
      Type.String({
        ...Uuid,
        description: 'only this party’s payments and balance; a party-scoped key sees only its own',
      }),
    ),
  },
  { examples: [{ from: '2026-11-01', to: '2026-11-07' }] },
);
export type DailyReportInput = Static<typeof DailyReportQuery>;

export const ReportDay = Type.Object({
  day: Day('the calendar day, in America/Sao_Paulo'),
  in_minor: Minor('money received that day: completed PIX cash-ins and paid Pix Automático cycles'),
  out_minor: Minor('money paid out that day: completed PIX payouts, refunds and MED returns'),
  fees_minor: Minor('fees charged on the payments completed that day'),
  balance_minor: Minor('the available balance at the end of the day (may be negative while a debt is owed)'),
});

export const DailyReport = Type.Object({
  currency: Type.Literal('BRL', { description: 'the currency of every amount: BRL' }),
  time_zone: Type.Literal('America/Sao_Paulo', { description: 'the zone the days are counted in' }),
  days: Type.Array(ReportDay, {
    description: 'one entry per day of the range, oldest first, days without payments included',
  }),
});
export type DailyReportView = Static<typeof DailyReport>;

export const DAILY_REPORT_EXAMPLE: DailyReportView = {
  currency: 'BRL',
  time_zone: 'America/Sao_Paulo',
  days: [
    { day: '2026-11-01', in_minor: '150000', out_minor: '0', fees_minor: '1500', balance_minor: '148500' },
    { day: '2026-11-02', in_minor: '0', out_minor: '50000', fees_minor: '0', balance_minor: '98500' },
  ],
};
