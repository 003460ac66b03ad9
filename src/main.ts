import pino, { type Logger } from 'pino';
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { migrate } from './db/migrate.ts';
import { DataDirLockedError, openDatabase } from './db/open.ts';
import type { Database } from './db/types.ts';
import { closeDeps, createDeps } from './deps.ts';
import { MODULES } from './modules/index.ts';
import type { Deps } from './platform/context.ts';
import {
  type ApiProcesses,
  forkApiProcesses,
  isApiProcess,
  reportToPrimary,
} from './platform/http/api-processes.ts';
import { inUseAs, PortInUseError, type PortSetting, probePorts } from './platform/http/ports.ts';
import { LOG_REDACT_PATHS, prettyTransport } from './platform/logging.ts';
import { resolveMasterKey } from './platform/master-key.ts';
import { metricsRegistry } from './platform/metrics.ts';
import { startMetricsServer } from './platform/metrics-server.ts';
import { progressTo } from './platform/progress.ts';
import { TaskRunner } from './platform/tasks.ts';
import { BACKGROUND_TASKS } from './worker.ts';

/** The operators' commands the modules bring (`lastro kyc decide …`). */
const COMMANDS = MODULES.flatMap((module) => module.commands ?? []);

const USAGE = `usage: lastro <command>
  serve [--no-workers] [--processes N]
                         start the HTTP API (and the background workers unless --no-workers),
                         in N API processes on one port (default API_PROCESSES, 1)
  worker                 run only the background workers
  migrate                apply database migrations and exit
${COMMANDS.map((command) => `  ${command.usage}`).join('\n')}`;

type Runtime = { config: Config; db: Database; deps: Deps; log: Logger };

async function main(argv: string[]): Promise<void> {
  const { command, operatorCommand, operatorArgs } = parseCommand(argv);
  const config = loadConfig();
  const log = loggerOf(config, operatorCommand !== undefined);
  if (isApiProcess()) return runApiProcess(config, log);
  const processes = command === 'serve' ? processesOf(argv, config) : 1;
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
  await run({ config, db, deps, log }, { serve: command === 'serve', runWorkers, processes });
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

/**
 * Serves the API and/or runs the workers, with the metrics server, until SIGINT or SIGTERM. With
 * several API processes this process forks them and serves no request itself.
 */
async function run(
  { config, db, deps, log }: Runtime,
  { serve, runWorkers, processes }: { serve: boolean; runWorkers: boolean; processes: number },
): Promise<void> {
  const runner = new TaskRunner(deps, runWorkers ? [...BACKGROUND_TASKS] : [], log);
  const forked =
    serve && processes > 1
      ? forkApiProcesses(processes, log, () => process.kill(process.pid, 'SIGTERM'))
      : undefined;
  const app = serve && !forked ? await buildApp({ ...deps, workers: runner }) : undefined;
  const metrics = await startMetrics(config, db, runner, forked);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await Promise.all([app?.close(), forked?.stop()]);
    await closeDeps(deps);
    await metrics.close();
    await runner.stop();
    await db.close();
    process.exit(forked?.crashLooped ? 1 : 0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  if (app) await app.listen({ port: config.port, host: config.host }).catch(inUseAs(apiPort(config)));
  await forked?.ready;
  runner.start();
  // The message stays exactly this: operators' tooling (and the container test) wait for it.
  log.info(
    { workers: runWorkers, port: serve ? config.port : undefined, metrics_port: metrics.port, processes },
    'lastro is running',
  );
  if (serve) log.info({ base_url: config.publicBaseUrl }, whereToGo(config.publicBaseUrl));
}

/**
 * A forked API process: the primary migrated and runs the workers and the metrics listener; this one
 * serves requests on the shared port and answers the primary's requests for its metrics.
 */
async function runApiProcess(config: Config, log: Logger): Promise<void> {
  const db = await openDatabase(config);
  const deps = createDeps(config, db, { masterKey: masterKeyOf(config, log) });
  const app = await buildApp({ ...deps, workers: new TaskRunner(deps, [], log) });
  const shutdown = async () => {
    await app.close();
    await closeDeps(deps);
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
  // A primary that died without stopping its API processes must not leave them serving.
  process.once('disconnect', () => void shutdown());
  await app.listen({ port: config.port, host: config.host });
  reportToPrimary(metricsRegistry);
}

/** API processes from --processes N, else API_PROCESSES; more than one needs PostgreSQL. */
function processesOf(argv: string[], config: Config): number {
  const at = argv.indexOf('--processes');
  const given = at < 0 ? config.apiProcesses : Number(argv[at + 1]);
  if (!Number.isInteger(given) || given < 1 || given > 64) {
    console.error('lastro: --processes takes a whole number from 1 to 64');
    process.exit(2);
  }
  if (given > 1 && !config.databaseUrl)
    throw new ConfigError(
      'API_PROCESSES',
      'more than one API process needs PostgreSQL (DATABASE_URL): the embedded database serves one process',
    );
  return given;
}

/** After the start of `serve`: where a person goes next (the dashboard is also what GET / opens). */
const whereToGo = (base: string) =>
  `where to go: API ${base} · reference ${base}/docs · dashboard ${base}/dashboard`;

/** The metrics server; a port already taken (since the probe) is a setting to change, named as one. */
function startMetrics(config: Config, db: Database, runner: TaskRunner, forked?: ApiProcesses) {
  return startMetricsServer({
    db,
    workers: runner,
    host: config.metricsHost,
    port: config.metricsPort,
    apiProcessMetrics: forked?.metrics,
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
