/**
 * Formats bench results: the console table, the markdown table, and the JSON document
 * written to `bench/results/`.
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import type { Measurement } from './measure.js';

/** One scenario measured on both sides. */
export interface ScenarioResult {
  readonly name: string;
  readonly method: string;
  readonly porticoPath: string;
  readonly baselinePath: string;
  readonly baseline: Measurement;
  readonly portico: Measurement;
  /** portico rps / baseline rps. */
  readonly ratio: number;
}

/**
 * The CPU's model name, with its family and model numbers where Linux tells them (two AMD EPYC
 * machines of different families have the same name and measured differently).
 */
export function cpuModelOf(): string {
  const name = cpus()[0]?.model.trim() ?? 'unknown';
  let info = '';
  try {
    info = readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return name;
  }
  const family = /^cpu family\s*:\s*(\d+)/m.exec(info)?.[1];
  const model = /^model\s*:\s*(\d+)/m.exec(info)?.[1];
  return family && model ? `${name}, family ${family} model ${model}` : name;
}

/** Where and how the run happened. */
export interface RunInfo {
  readonly date: string;
  readonly node: string;
  readonly cpus: number;
  readonly cpuModel: string;
  readonly platform: string;
  readonly connections: number;
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
}

const HEADERS = ['Scenario', 'Baseline req/s', 'Baseline p99 ms', 'Portico req/s', 'Portico p99 ms', 'Portico/baseline'];

function cells(r: ScenarioResult): string[] {
  return [
    r.name,
    r.baseline.requestsPerSecond.toFixed(0),
    r.baseline.latencyP99Ms.toFixed(0),
    r.portico.requestsPerSecond.toFixed(0),
    r.portico.latencyP99Ms.toFixed(0),
    r.ratio.toFixed(2),
  ];
}

function header(info: RunInfo): string {
  return `Node ${info.node}, ${info.cpus} CPUs (${info.cpuModel}), ${info.platform}, ${info.date}
${info.connections} connections, ${info.warmupSeconds} s warm-up + ${info.durationSeconds} s per measurement, SQLite, 127.0.0.1`;
}

/** A plain-text table for the console. */
export function consoleTable(info: RunInfo, results: readonly ScenarioResult[]): string {
  const rows = [HEADERS, ...results.map(cells)];
  const widths = HEADERS.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  const line = (row: readonly string[]): string => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [header(info), '', line(HEADERS), rule, ...results.map((r) => line(cells(r)))].join('\n');
}

/** The same table as markdown. */
export function markdownTable(info: RunInfo, results: readonly ScenarioResult[]): string {
  const row = (values: readonly string[]): string => `| ${values.join(' | ')} |`;
  return [
    '# Portico vs Koa + MikroORM baseline',
    '',
    header(info).replace('\n', '  \n'),
    '',
    row(HEADERS),
    row(HEADERS.map((_, i) => (i === 0 ? '---' : '---:'))),
    ...results.map((r) => row(cells(r))),
    '',
  ].join('\n');
}

/** The JSON document of a run. */
export function jsonReport(info: RunInfo, results: readonly ScenarioResult[]): string {
  return `${JSON.stringify({ ...info, scenarios: results }, null, 2)}\n`;
}
