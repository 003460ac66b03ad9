import { readFileSync } from 'node:fs';

/**
 * What the server's process did while a load ran (the server runs in the bench's own process, the
 * load generator in a child): its CPU time (user + system, all threads), and for its main thread —
 * the event loop — the time on a core and the time runnable but waiting for one (Linux
 * /proc/…/schedstat), which tells a busy event loop from one the other processes kept off the CPU.
 */
export interface ServerClock {
  stop(): { cpuMs: number; systemMs: number; loop: { onCpuMs: number; waitingMs: number } | undefined };
}

/** ns on a core, ns runnable but waiting, timeslices; undefined where /proc has no such file. */
function mainThreadSchedstat(): [number, number, number] | undefined {
  try {
    const [run, wait, slices] = readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    return run === undefined || wait === undefined || slices === undefined ? undefined : [run, wait, slices];
  } catch {
    return undefined; // not Linux
  }
}

export function startServerClock(): ServerClock {
  const cpu = process.cpuUsage();
  const sched = mainThreadSchedstat();
  return {
    stop() {
      const used = process.cpuUsage(cpu);
      const now = mainThreadSchedstat();
      // A kernel without sched_info prints zeros rather than failing: no timeslices counted, no figure.
      const loop =
        sched && now && now[2] > sched[2]
          ? [(now[0] - sched[0]) / 1e6, (now[1] - sched[1]) / 1e6]
          : undefined;
      return {
        cpuMs: (used.user + used.system) / 1000,
        systemMs: used.system / 1000,
        loop: loop && { onCpuMs: loop[0]!, waitingMs: loop[1]! },
      };
    },
  };
}

/**
 * One line for a bench row's note: CPU per request, and the event loop's on-core and waiting time as
 * shares of the load's own duration (the clock also spans the load generator's start, when the
 * server is idle).
 */
export function describeServerClock(
  clock: ReturnType<ServerClock['stop']>,
  requests: number,
  loadSeconds: number,
): string {
  const share = (ms: number) => `${((100 * ms) / (loadSeconds * 1000)).toFixed(0)} %`;
  const loop =
    clock.loop === undefined || loadSeconds <= 0
      ? ''
      : `, event loop on a core ${share(clock.loop.onCpuMs)} and waiting for one ${share(clock.loop.waitingMs)}`;
  const perRequest = (ms: number) => (ms / Math.max(requests, 1)).toFixed(2);
  return `server CPU ${perRequest(clock.cpuMs)} ms a request (${perRequest(clock.systemMs)} of it in the kernel)${loop}`;
}
