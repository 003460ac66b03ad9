import pino, { type Logger } from 'pino';
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { migrate } from './db/migrate.ts';
import { DataDirLockedError, openDatabase } from './db/open.ts';
import type { Database } from './db/types.ts';
import { closeDeps, createDeps } from './deps.ts';
import { MODULES } from './modules/index.ts';
import type { Deps } from './platform/context.ts';
import { inUseAs, PortInUseError, type PortSetting, probePorts } from './platform/http/ports.ts';
import { LOG_REDACT_PATHS, prettyTransport } from './platform/logging.ts';
import { resolveMasterKey } from './platform/master-key.ts';
import { startMetricsServer } from './platform/metrics-server.ts';
import { progressTo } from './platform/progress.ts';
import { TaskRunner } from './platform/tasks.ts';
import { BACKGROUND_TASKS } from './worker.ts';

/** The operators' commands the modules bring (`lastro kyc decide …`). */
const COMMANDS = MODULES.flatMap((module) => module.commands ?? []);

const USAGE = `usage: lastro <command>
  serve [--no-workers]   start the HTTP API (and the background workers unless --no-workers)
  worker                 run only the background workers
  migrate                apply database migrations and exit
${COMMANDS.map((command) => `  ${command.usage}`).join('\n')}`;

type Runtime = { config: Config; db: Database; deps: Deps; log: Logger };

async function main(argv: string[]): Promise<void> {
  const { command, operatorCommand, operatorArgs } = parseCommand(argv);
  const config = loadConfig();
  const log = loggerOf(config, operatorCommand !== undefined);
  if (command === 'serve' || command === 'worker') await probePorts(portsOf(config, command));
  const db = await openDatabase(config);
  await migrateLogged(db, log);
  if (command === 'migrate') {
    await db.close();
    return;
  }

  const deps = createDeps(config, db, { masterKey: masterKeyOf(config, log) });
  if (operatorCommand) {
    try {
      process.exitCode = await operatorCommand.run(deps, operatorArgs);
    } finally {
      await db.close();
    }
    return;
  }
  const runWorkers = command === 'worker' || !argv.includes('--no-workers');
  await run({ config, db, deps, log }, { serve: command === 'serve', runWorkers });
}

const apiPort = (config: Config): PortSetting => ({ setting: 'PORT', port: config.port, host: config.host });
const metricsPort = (config: Config): PortSetting => ({
  setting: 'METRICS_PORT',
  port: config.metricsPort,
  host: config.metricsHost,
});

/** The ports `serve` (the API's and the metrics') or `worker` (the metrics') will listen on. */
const portsOf = (config: Config, command: 'serve' | 'worker') =>
  command === 'serve' ? [apiPort(config), metricsPort(config)] : [metricsPort(config)];

/** The process's logger; an operator's command logs to stderr, so its stdout is its report alone. */
function loggerOf(config: Config, toStderr: boolean): Logger {
  const options = { level: config.logLevel, redact: LOG_REDACT_PATHS };
  const fd = toStderr ? 2 : 1;
  const pretty = prettyTransport(config.production, toStderr ? process.stderr : process.stdout);
  if (!pretty) return pino(options, pino.destination(fd));
  return pino({ ...options, transport: { ...pretty, options: { ...pretty.options, destination: fd } } });
}

/** The command and, for an operator's command, its arguments; a command line that is neither exits 2. */
function parseCommand(argv: string[]) {
  const command = argv[0] ?? 'serve';
  const operatorCommand = COMMANDS.find((candidate) => candidate.name === command);
  const operatorArgs = operatorCommand?.parse(argv.slice(1));
  if (!['serve', 'worker', 'migrate'].includes(command) && operatorArgs === undefined) {
    console.error(operatorCommand ? `usage: lastro ${operatorCommand.usage}` : USAGE);
    process.exit(2);
  }
  return { command, operatorCommand, operatorArgs };
}

async function migrateLogged(db: Database, log: Logger): Promise<void> {
  const applied = await migrate(db, progressTo(process.stderr));
  log.info(
    { applied, database: db.kind },
    applied.length ? 'migrations applied' : 'database schema is up to date',
  );
}

/** The master key; one generated into DATA_DIR is said out loud, since production must set its own. */
function masterKeyOf(config: Config, log: Logger) {
  const master = resolveMasterKey(config);
  if (master.generated)
    log.warn(
      { file: master.file },
      'MASTER_KEY is not set: generated one into DATA_DIR (set MASTER_KEY in production)',
    );
  return master.key;
}

/** Serves the API and/or runs the workers, with the metrics server, until SIGINT or SIGTERM. */
async function run(
  { config, db, deps, log }: Runtime,
  { serve, runWorkers }: { serve: boolean; runWorkers: boolean },
): Promise<void> {
  const runner = new TaskRunner(deps, runWorkers ? [...BACKGROUND_TASKS] : [], log);
  const observed = { ...deps, workers: runner };
  const app = serve ? await buildApp(observed) : undefined;
  const metrics = await startMetrics(config, db, runner);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await app?.close();
    await closeDeps(deps);
    await metrics.close();
    await runner.stop();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  if (app) await app.listen({ port: config.port, host: config.host }).catch(inUseAs(apiPort(config)));
  runner.start();
  log.info(
    { workers: runWorkers, port: app ? config.port : undefined, metrics_port: metrics.port },
    app ? whereToGo(config.publicBaseUrl) : 'lastro is running (workers only)',
  );
}

/** The start message of `serve`: where a person goes next (the dashboard is also what GET / opens). */
const whereToGo = (base: string) =>
  `lastro is running: API ${base}/v1 · reference ${base}/docs · dashboard ${base}/dashboard`;

/** The metrics server; a port already taken (since the probe) is a setting to change, named as one. */
function startMetrics(config: Config, db: Database, runner: TaskRunner) {
  return startMetricsServer({
    db,
    workers: runner,
    host: config.metricsHost,
    port: config.metricsPort,
  }).catch(inUseAs(metricsPort(config)));
}

main(process.argv.slice(2)).catch((error) => {
  if (error instanceof ConfigError) {
    console.error(`lastro: bad setting ${error.message}`);
  } else if (error instanceof DataDirLockedError || error instanceof PortInUseError) {
    console.error(`lastro: ${error.message}`);
  } else {
    console.error('lastro: failed to start:', error);
  }
  process.exit(1);
});
