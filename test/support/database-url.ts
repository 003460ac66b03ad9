/** Tests run on PGlite unless a PostgreSQL server is named. */
export const testServerUrl = (): string | undefined =>
  process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
