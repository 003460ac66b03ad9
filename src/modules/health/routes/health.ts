import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { readiness } from '../../../platform/readiness.ts';
import type { App } from '../../../platform/schema.ts';
import { ErrorBody } from '../../../platform/schema.ts';

const Alive = Type.Object(
  { data: Type.Object({ status: Type.Literal('ok', { description: 'Always ok: the process answers.' }) }) },
  { examples: [{ data: { status: 'ok' } }] },
);

const Ready = Type.Object(
  {
    data: Type.Object({
      status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')], {
        description: 'ready when every check is ok; not_ready (with 503) otherwise.',
      }),
      checks: Type.Object(
        {
          database: Type.Literal('ok', { description: 'The database answered.' }),
          migrations: Type.Union([Type.Literal('ok'), Type.Literal('pending')], {
            description: 'ok when every migration has run.',
          }),
          workers: Type.Union([Type.Literal('ok'), Type.Literal('stalled'), Type.Literal('not_running')], {
            description: 'The background loops of this process: ok when each beat in time.',
          }),
        },
        { description: 'Each check and its outcome.' },
      ),
      pending_migrations: Type.Array(Type.String(), { description: 'The names of migrations not run yet.' }),
      stalled_tasks: Type.Array(Type.String(), {
        description: 'The background loops that missed their beat.',
      }),
    }),
  },
  {
    examples: [
      {
        data: {
          status: 'ready',
          checks: { database: 'ok', migrations: 'ok', workers: 'ok' },
          pending_migrations: [],
          stalled_tasks: [],
        },
      },
    ],
  },
);

export default function route(app: App, deps: Deps) {
  app.get(
    '/health',
    {
      config: { auth: 'none', rateLimit: false, errors: [] },
      schema: {
        tags: ['health'],
        summary: 'Liveness: the process is up and answering',
        description:
          'Answers 200 while the process runs, without touching the database: for a liveness probe. Needs no credentials and is not rate limited.',
        security: [],
        response: { 200: Alive },
      },
    },
    async () => ({ data: { status: 'ok' as const } }),
  );
  app.get(
    '/ready',
    {
      config: { auth: 'none', rateLimit: false, errors: [] },
      schema: {
        tags: ['health'],
        summary: 'Readiness: the database answers, migrations are current, this process’s workers beat',
        description:
          '503 with status not_ready when migrations are pending or a background loop of this process stalled; 503 database_unavailable when the database does not answer.',
        security: [],
        response: { 200: Ready, 503: Type.Union([Ready, ErrorBody]) },
      },
    },
    async (_request, reply) => {
      const state = await readiness(deps.db, deps.workers);
      return reply.code(state.status === 'ready' ? 200 : 503).send({ data: state });
    },
  );
}
