/**
 * Starts a bench server script as a child process (own event loop, away from autocannon),
 * waits for its `READY <port>` line, and stops it with SIGTERM (SIGKILL if it lingers).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

/** A running bench server. */
export interface ChildServer {
  readonly url: string;
  /** CPU time (user + system) the server process has used so far, in µs; undefined where /proc is not there. */
  cpuMicros(): number | undefined;
  /** The peak resident set of the server process so far (VmHWM), in bytes; undefined where /proc is not there. */
  peakRssBytes(): number | undefined;
  stop(): Promise<void>;
}

/** Linux's clock tick (`getconf CLK_TCK`), the unit of /proc/<pid>/stat's CPU times. */
const CLOCK_TICK_MICROS = 10_000;

/** utime + stime of a process from /proc/<pid>/stat (fields 14 and 15, after the command name). */
function processCpuMicros(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MICROS;
  } catch {
    return undefined;
  }
}

/**
 * Runs `node <script> --port 0 --db <dbFile>` with LOG_LEVEL=warn (plus `env`) and resolves
 * once it listens.
 */
export async function startChildServer(script: string, dbFile: string, env: Readonly<Record<string, string>> = {}): Promise<ChildServer> {
  // BENCH_PROFILE_DIR=<dir>: each Portico server writes a CPU profile there when it stops.
  const profile = process.env.BENCH_PROFILE_DIR && /portico/.test(script) ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, script, '--port', '0', '--db', dbFile], {
    env: { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not print READY within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = /^READY (\d+)$/.exec(line.trim());
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      } else {
        process.stderr.write(`[${script}] ${line}\n`);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited before READY (code ${code}, signal ${signal})`));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  return { url: `http://127.0.0.1:${port}`, cpuMicros: () => processCpuMicros(child.pid), peakRssBytes: () => peakRss(child.pid), stop: () => stopChild(child) };
}

/** VmHWM of a process from /proc/<pid>/status, in bytes. */
function peakRss(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
