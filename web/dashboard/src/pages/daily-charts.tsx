/** The overview's charts: the last 14 days of money in and out, fees and the balance at each day's end. */
import { BarChart, LineChart } from '../chart.tsx';
import { useLoad } from '../components.tsx';
import { t } from '../i18n.ts';

interface ReportDay {
  day: string;
  in_minor: string;
  out_minor: string;
  fees_minor: string;
  balance_minor: string;
}

const DAYS_SHOWN = 14;

/** Today in São Paulo as YYYY-MM-DD, and the day `back` days before it. */
export function reportRange(now: Date, back = DAYS_SHOWN - 1): { from: string; to: string } {
  const day = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(at);
  return { from: day(new Date(now.getTime() - back * 86_400_000)), to: day(now) };
}

export function DailyCharts() {
  const { from, to } = reportRange(new Date());
  const report = useLoad<{ days: ReportDay[] }>(`/reports/daily?from=${from}&to=${to}`);
  if (report.error) return <p className="error">{report.error.message}</p>;
  if (!report.data) return <p role="status">{t('Loading…')}</p>;
  const days = report.data.days.map((d) => d.day);
  const of = (field: keyof ReportDay) => report.data!.days.map((d) => d[field]);
  return (
    <section className="charts" aria-labelledby="charts-title">
      <h2 id="charts-title">{t('Last 14 days')}</h2>
      <BarChart
        title={t('Money in and out per day')}
        days={days}
        currency="BRL"
        series={[
          { label: t('In'), values: of('in_minor'), pattern: 'solid' },
          { label: t('Out'), values: of('out_minor'), pattern: 'hatch' },
        ]}
      />
      <BarChart
        title={t('Fees per day')}
        days={days}
        currency="BRL"
        series={[{ label: t('Fees'), values: of('fees_minor'), pattern: 'dots' }]}
      />
      <LineChart
        title={t('Available balance at the end of each day')}
        days={days}
        currency="BRL"
        series={{ label: t('Balance'), values: of('balance_minor'), pattern: 'solid' }}
      />
    </section>
  );
}
