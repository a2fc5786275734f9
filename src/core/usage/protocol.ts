/**
 * The usage view's protocol, imported by its host side and its webview bundle. The host computes the
 * whole report (src/core/usage/report.ts); the webview only draws it and asks for two actions.
 */
import { isRecord } from '../json';
import type { UsageReport } from './report';
import type { LimitPeriod, LimitState } from './spendingLimits';

/** One environment's (or endpoint token's) spend against one of its limits, as the view shows it. */
export interface LimitRow {
  environment: string;
  /** The endpoint token's name when the limit is that token's own (`environment` is then empty). */
  token?: string;
  /** The limit is inline suggestions' own daily budget (`environment` is then empty). */
  suggestions?: true;
  period: LimitPeriod;
  /** The period's name as the view shows it ("Today"): the host has it from the periods' table. */
  periodLabel: string;
  limit: number;
  /** What counts against the limit: measured, plus the allowance for each unmeasured request. */
  counted: number;
  unmeasured: number;
  state: LimitState;
  resetsAt: number;
}

/**
 * 2: the report has suggestions' summary (report.ts), a limit row may be the suggestions' budget, and the ledger has a `suggestion` kind.
 * The comparison filter (`filterComparison`, the report's `comparisons`) came later without a new version: it only adds, host
 * and webview ship in one bundle, and neither misreads the other's messages without it.
 */
export const USAGE_PROTOCOL_VERSION = 2;

export type UsageHostMessage = { v: typeof USAGE_PROTOCOL_VERSION; type: 'report'; report: UsageReport; limits: LimitRow[] };

export type UsageWebviewMessage =
  | { v: typeof USAGE_PROTOCOL_VERSION; type: 'ready' }
  | { v: typeof USAGE_PROTOCOL_VERSION; type: 'copyRequestId'; requestId: string }
  | { v: typeof USAGE_PROTOCOL_VERSION; type: 'exportCsv' }
  /** Narrow the report to one endpoint token's requests (its id), or every request (null). */
  | { v: typeof USAGE_PROTOCOL_VERSION; type: 'filterToken'; token: string | null }
  /** Narrow the report to one comparison's requests (its id), every comparison's (ALL_COMPARISONS), or every request (null). */
  | { v: typeof USAGE_PROTOCOL_VERSION; type: 'filterComparison'; comparison: string | null }
  | { v: typeof USAGE_PROTOCOL_VERSION; type: 'refresh' };

/** The host's gate for what the webview posts: anything else is dropped. */
export function parseUsageWebviewMessage(raw: unknown): UsageWebviewMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const value = raw as Record<string, unknown>;
  if (value.v !== USAGE_PROTOCOL_VERSION) return undefined;
  switch (value.type) {
    case 'ready':
    case 'exportCsv':
    case 'refresh':
      return { v: USAGE_PROTOCOL_VERSION, type: value.type };
    case 'copyRequestId':
      return typeof value.requestId === 'string' && value.requestId ? { v: USAGE_PROTOCOL_VERSION, type: 'copyRequestId', requestId: value.requestId } : undefined;
    case 'filterToken':
      return value.token === null || (typeof value.token === 'string' && value.token) ? { v: USAGE_PROTOCOL_VERSION, type: 'filterToken', token: value.token } : undefined;
    case 'filterComparison':
      return value.comparison === null || (typeof value.comparison === 'string' && value.comparison) ? { v: USAGE_PROTOCOL_VERSION, type: 'filterComparison', comparison: value.comparison } : undefined;
    default:
      return undefined;
  }
}

/** What Show Usage may be run with (by the chat, a link or a test): the comparison to narrow the view to. */
export interface ShowUsageArgs {
  /** A comparison's id, or ALL_COMPARISONS. */
  comparison?: string;
}

/** A command's arguments come from anywhere: anything but a non-empty comparison id is ignored. */
export function parseShowUsageArgs(raw: unknown): ShowUsageArgs {
  const comparison = isRecord(raw) ? raw.comparison : undefined;
  return typeof comparison === 'string' && comparison ? { comparison } : {};
}
