import * as fs from 'node:fs';
import * as path from 'node:path';
import { RESULTS_DIR } from '../../harness/paths';

/**
 * The fault matrix as printed: each window runs its surfaces' columns and writes them here; the
 * integration launcher prints all columns together once every window has run. No `vscode` import:
 * the launcher reads it in plain Node.
 */
export interface MatrixPart {
  window: string;
  surfaces: string[];
  /** Fault name → one cell per surface, in the order of `surfaces`. */
  rows: [string, string[]][];
  cells: number;
  asExpected: number;
  notApplicable: number;
}

const DIR = path.join(RESULTS_DIR, 'integration');
const FILE_PATTERN = /^fault-matrix\.(.+)\.json$/;

export function writeMatrixPart(part: MatrixPart): void {
  fs.mkdirSync(DIR, { recursive: true });
  fs.writeFileSync(path.join(DIR, `fault-matrix.${part.window}.json`), JSON.stringify(part, null, 1));
}

/** Removes the parts of an earlier run, so that a narrowed run prints only its own columns. */
export function removeMatrixParts(): void {
  if (!fs.existsSync(DIR)) return;
  for (const file of fs.readdirSync(DIR)) if (FILE_PATTERN.test(file)) fs.rmSync(path.join(DIR, file), { force: true });
}

export function readMatrixParts(): MatrixPart[] {
  if (!fs.existsSync(DIR)) return [];
  // The workspace window's columns (the panel's first) before the other windows'.
  return fs.readdirSync(DIR).filter((file) => FILE_PATTERN.test(file))
    .map((file) => JSON.parse(fs.readFileSync(path.join(DIR, file), 'utf8')) as MatrixPart)
    .sort((a, b) => Number(a.window !== 'workspace') - Number(b.window !== 'workspace') || a.window.localeCompare(b.window));
}

/** The table (fault × surface → outcome) of the parts side by side, and one summary line per part. */
export function formatMatrix(parts: MatrixPart[], indent = '      '): string {
  const faults = [...new Set(parts.flatMap((part) => part.rows.map(([fault]) => fault)))];
  const surfaces = parts.flatMap((part) => part.surfaces);
  const cellsOf = (fault: string) => parts.flatMap((part) => part.rows.find(([name]) => name === fault)?.[1] ?? part.surfaces.map(() => '?'));
  const width = Math.max(...faults.map((fault) => fault.length), 5) + 2;
  const column = Math.max(...faults.flatMap(cellsOf).map((cell) => cell.length), ...surfaces.map((surface) => surface.length)) + 2;
  const lines = [`${indent}${'fault'.padEnd(width)}${surfaces.map((surface) => surface.padEnd(column)).join('')}`];
  for (const fault of faults) lines.push(`${indent}${fault.padEnd(width)}${cellsOf(fault).map((cell) => cell.padEnd(column)).join('')}`);
  for (const part of parts) {
    lines.push(`${indent}${part.surfaces.join(', ')} (${part.window} window): ${part.cells} cells run, ${part.asExpected} as expected; ${part.notApplicable} n/a`);
  }
  return lines.join('\n');
}
