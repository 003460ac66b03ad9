import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { databaseUnavailable } from '../../../platform/http-errors.ts';
import type { App } from '../../../platform/schema.ts';
import { ErrorBody } from '../../../platform/schema.ts';

const Status = Type.Object({ data: Type.Object({ status: Type.String() }) });

export default function route(app: App, deps: Deps) {
  app.get(
    '/health',
    {
      config: { auth: 'none', rateLimit: false },
      schema: {
        tags: ['health'],
        summary: 'Liveness: the server listens and migrations are applied',
        security: [],
        response: { 200: Status },
      },
    },
    async () => ({ data: { status: 'ok' } }),
  );
  app.get(
    '/ready',
    {
      config: { auth: 'none', rateLimit: false },
      schema: {
        tags: ['health'],
        summary: 'Readiness: the database answers',
        security: [],
        response: { 200: Status, 503: ErrorBody },
      },
    },
    async () => {
      try {
        await deps.db.query('SELECT 1');
      } catch {
        throw databaseUnavailable();
      }
      return { data: { status: 'ready' } };
    },
  );
}
