import * as l10n from '@vscode/l10n';
import type { WebviewApi } from 'vscode-webview';
import { USAGE_PROTOCOL_VERSION, type LimitRow, type UsageHostMessage, type UsageWebviewMessage } from '../../core/usage/protocol';
import { ALL_COMPARISONS, type ComparisonTotal, type RequestRow, type StackedDays, type TokenTotal, type UsageReport } from '../../core/usage/report';
import { codicon, el } from '../shared/dom';
import { formatSpend, SERIES_CLASSES, stackedBarChart } from './chart';
import { kindLabel, suggestionsSection } from './suggestionsSection';
import { configureLocalization } from '../shared/localize';

type StackBy = 'model' | 'kind';

/** A column header; numeric columns are right-aligned like their cells, so figures sit under their title. */
function headerCell(text: string, className?: 'number'): HTMLTableCellElement {
  return el('th', { text, className, attrs: { scope: 'col' } });
}
interface UsageState { v: 1; stackBy: StackBy }

/** The usage view: draws the report the host sends; the only state it keeps is how bars are stacked. */
class UsageView {
  #report: UsageReport | undefined;
  #limits: LimitRow[] = [];
  #stackBy: StackBy;

  readonly #root: HTMLElement;
  readonly #api: WebviewApi<UsageState>;

  constructor(root: HTMLElement, api: WebviewApi<UsageState>) {
    this.#root = root;
    this.#api = api;
    const state = api.getState() as Partial<UsageState> | undefined;
    this.#stackBy = state?.v === 1 && state.stackBy === 'kind' ? 'kind' : 'model';
    root.addEventListener('click', (event) => this.#onClick(event));
    root.addEventListener('change', (event) => {
      if (event.target instanceof HTMLSelectElement && event.target.name === 'token-filter') {
        const token = event.target.value;
        this.post({ v: USAGE_PROTOCOL_VERSION, type: 'filterToken', token: token || null });
        return;
      }
      if (event.target instanceof HTMLSelectElement && event.target.name === 'comparison-filter') {
        const comparison = event.target.value;
        this.post({ v: USAGE_PROTOCOL_VERSION, type: 'filterComparison', comparison: comparison || null });
        return;
      }
      const input = event.target instanceof HTMLInputElement ? event.target : null;
      if (input?.name !== 'stack-by') return;
      this.#stackBy = input.value === 'kind' ? 'kind' : 'model';
      this.#api.setState({ v: 1, stackBy: this.#stackBy });
      this.#render();
    });
    this.#root.append(el('p', { className: 'loading', text: l10n.t('Reading the usage ledger…') }));
  }

  post(message: UsageWebviewMessage): void {
    this.#api.postMessage(message);
  }

  handle(message: UsageHostMessage): void {
    if (message.v !== USAGE_PROTOCOL_VERSION || message.type !== 'report') return;
    this.#report = message.report;
    this.#limits = Array.isArray(message.limits) ? message.limits : [];
    this.#render();
  }

  #render(): void {
    const report = this.#report;
    if (!report) return;
    const stacked: StackedDays = this.#stackBy === 'kind' ? report.byKind : report.byModel;
    const seriesIndex = new Map(stacked.series.map((s, i) => [s, i]));
    const seriesLabel = this.#stackBy === 'kind' ? kindLabel : (series: string) => series;
    const toolbar = el('div', { className: 'toolbar' }, [
      el('fieldset', { className: 'stack-by' }, [
        el('legend', { text: l10n.t('Stack by') }),
        this.#radio('model', l10n.t('Model')),
        this.#radio('kind', l10n.t('Kind')),
      ]),
      ...(report.tokens.length || report.tokenFilter !== undefined ? [this.#tokenFilter(report)] : []),
      ...(report.comparisons.length || report.comparisonFilter !== undefined ? [this.#comparisonFilter(report)] : []),
      el('span', { className: 'spacer' }),
      this.#button('refresh', 'refresh', l10n.t('Refresh')),
      this.#button('exportCsv', 'export', l10n.t('Export CSV')),
    ]);
    const summary = el('p', { className: 'summary' }, [
      el('strong', { text: l10n.t('{0} credits', formatSpend(report.total)) }),
      ` ${report.requests === 1
        ? l10n.t('in 1 request over the last {0} days · today {1} credits', report.days, formatSpend(report.today))
        : l10n.t('in {0} requests over the last {1} days · today {2} credits', report.requests, report.days, formatSpend(report.today))}`,
      ...(report.unmeasured === 0 ? [] : [el('span', {
        className: 'unmeasured',
        text: report.unmeasured === 1 ? l10n.t(' · 1 more request not measured') : l10n.t(' · {0} more requests not measured', report.unmeasured),
        attrs: { title: l10n.t('Billed while another request to the same environment ran, so the balance difference held both: not in these totals.') },
      })]),
    ]);
    const legend = el('ul', { className: 'legend', attrs: { 'aria-label': l10n.t('Series') } }, stacked.series.map((series) =>
      el('li', {}, [el('span', { className: `swatch series-${Math.min(seriesIndex.get(series) ?? 0, SERIES_CLASSES - 1)}`, attrs: { 'aria-hidden': 'true' } }), seriesLabel(series)]),
    ));
    const note = el('p', { className: 'note', text: l10n.t('Recorded on this machine from the balance the service reported before and after each request; requests whose spend could not be measured are not included.') });
    this.#root.replaceChildren(
      el('h1', { text: l10n.t('Usage') }),
      toolbar,
      summary,
      ...(this.#limits.length ? [this.#limitTable(this.#limits)] : []),
      el('section', { className: 'chart-section', attrs: { 'aria-label': l10n.t('Spend per day') } }, [stackedBarChart(stacked, seriesIndex, seriesLabel), legend]),
      el('div', { className: 'tables' }, [
        this.#topTable(report.topRequests), this.#environmentTable(report),
        ...(report.tokens.length ? [this.#tokenTable(report.tokens)] : []),
        ...(report.comparisonFilter !== undefined ? [this.#comparisonTable(report)] : []),
        ...(report.suggestions ? [suggestionsSection(report.suggestions, report.days)] : []),
      ]),
      note,
    );
  }

  #radio(value: StackBy, label: string): HTMLLabelElement {
    const input = el('input', { attrs: { type: 'radio', name: 'stack-by', value } });
    input.checked = this.#stackBy === value;
    return el('label', {}, [input, label]);
  }

  /** Narrows the report to one endpoint token's requests; the host rebuilds it. */
  #tokenFilter(report: UsageReport): HTMLLabelElement {
    const select = el('select', { attrs: { name: 'token-filter' } }, [
      el('option', { text: l10n.t('All requests'), attrs: { value: '' } }),
      ...report.tokens.map((token) => el('option', { text: token.name, attrs: { value: token.id } })),
    ]);
    if (report.tokenFilter !== undefined && !report.tokens.some((token) => token.id === report.tokenFilter)) {
      select.append(el('option', { text: l10n.t('(no spend in these days)'), attrs: { value: report.tokenFilter } }));
    }
    select.value = report.tokenFilter ?? '';
    return el('label', { className: 'token-filter' }, [el('span', { text: l10n.t('Endpoint token') }), select]);
  }

  /** Narrows the report to one comparison's requests, or to every comparison's; the host rebuilds it. */
  #comparisonFilter(report: UsageReport): HTMLLabelElement {
    const select = el('select', { attrs: { name: 'comparison-filter' } }, [
      el('option', { text: l10n.t('All requests'), attrs: { value: '' } }),
      el('option', { text: l10n.t('Comparisons only'), attrs: { value: ALL_COMPARISONS } }),
      ...report.comparisons.map((comparison) => el('option', { text: comparisonLabel(comparison), attrs: { value: comparison.id } })),
    ]);
    const filter = report.comparisonFilter;
    if (filter !== undefined && filter !== ALL_COMPARISONS && !report.comparisons.some((comparison) => comparison.id === filter)) {
      select.append(el('option', { text: l10n.t('(no spend in these days)'), attrs: { value: filter } }));
    }
    select.value = filter ?? '';
    return el('label', { className: 'comparison-filter' }, [el('span', { text: l10n.t('Comparison') }), select]);
  }

  #button(action: string, icon: string, label: string): HTMLButtonElement {
    return el('button', { className: 'action labelled', attrs: { type: 'button', 'data-action': action } }, [codicon(icon), el('span', { text: label })]);
  }

  #topTable(rows: readonly RequestRow[]): HTMLElement {
    const body = rows.map((row) => {
      const copy = el('button', { className: 'action', attrs: { type: 'button', 'data-action': 'copyRequestId', 'data-request-id': row.requestId, title: l10n.t('Copy request ID {0}', row.requestId), 'aria-label': l10n.t('Copy request ID {0}', row.requestId) } }, [codicon('copy')]);
      copy.disabled = !row.requestId;
      return el('tr', {}, [
        el('td', { text: new Date(row.at).toLocaleString() }),
        el('td', { text: row.environment }),
        el('td', { text: kindLabel(row.kind) }),
        el('td', { text: row.model }),
        el('td', { className: 'token', text: row.token?.name ?? '—' }),
        el('td', { className: 'number', text: formatSpend(row.credits) }),
        el('td', { className: 'request-id' }, [el('span', { className: 'request-id-cell' }, [el('code', { text: row.requestId || '—' }), copy])]),
      ]);
    });
    return el('section', { className: 'top-requests' }, [
      el('h2', { text: l10n.t('Most expensive requests') }),
      rows.length === 0 ? el('p', { text: l10n.t('None yet.') }) : el('table', {}, [
        el('thead', {}, [el('tr', {}, [headerCell(l10n.t('Time')), headerCell(l10n.t('Environment')), headerCell(l10n.t('Kind')), headerCell(l10n.t('Model')), headerCell(l10n.t('Token')), headerCell(l10n.t('Credits'), 'number'), headerCell(l10n.t('Request ID'))])]),
        el('tbody', {}, body),
      ]),
    ]);
  }

  /** Today's and this month's spend against each limit (every window's, with the allowance for unmeasured requests). */
  #limitTable(rows: readonly LimitRow[]): HTMLElement {
    const stateText = (row: LimitRow) => row.state === 'reached' ? l10n.t('reached: requests are refused') : row.state === 'warning' ? l10n.t('near the limit') : l10n.t('within the limit');
    return el('section', { className: 'limits' }, [
      el('h2', { text: l10n.t('Spending limits') }),
      el('table', {}, [
        el('thead', {}, [el('tr', {}, [headerCell(l10n.t('Limit of')), headerCell(l10n.t('Period')), headerCell(l10n.t('Spent'), 'number'), headerCell(l10n.t('Limit'), 'number'), headerCell(l10n.t('State')), headerCell(l10n.t('Resets'))])]),
        el('tbody', {}, rows.map((row) => el('tr', { className: `limit-${row.state}` }, [
          el('td', { text: row.suggestions ? l10n.t('Inline suggestions (their own budget)') : row.token === undefined ? row.environment : l10n.t('Endpoint token "{0}"', row.token) }),
          el('td', { text: row.periodLabel }),
          el('td', { className: 'number', text: formatSpend(row.counted), attrs: row.unmeasured ? { title: l10n.t('Includes {0} requests whose spend could not be measured, each counted at the allowance set in inference.unmeasuredRequestCredits.', row.unmeasured) } : {} }),
          el('td', { className: 'number', text: formatSpend(row.limit) }),
          el('td', { text: stateText(row) }),
          el('td', { text: new Date(row.resetsAt).toLocaleString() }),
        ]))),
      ]),
    ]);
  }

  #environmentTable(report: UsageReport): HTMLElement {
    return el('section', { className: 'environments' }, [
      el('h2', { text: l10n.t('Per environment') }),
      report.environments.length === 0 ? el('p', { text: l10n.t('None yet.') }) : el('table', {}, [
        el('thead', {}, [el('tr', {}, [headerCell(l10n.t('Environment')), headerCell(l10n.t('Requests'), 'number'), headerCell(l10n.t('Credits'), 'number')])]),
        el('tbody', {}, report.environments.map((env) => el('tr', {}, [
          el('td', { text: env.environment }),
          el('td', { className: 'number', text: String(env.requests) }),
          el('td', { className: 'number', text: formatSpend(env.credits) }),
        ]))),
      ]),
    ]);
  }

  /** Spend per endpoint token (requests other tools made through the local endpoint), over the days shown and today. */
  #tokenTable(tokens: readonly TokenTotal[]): HTMLElement {
    return el('section', { className: 'tokens' }, [
      el('h2', { text: l10n.t('Per endpoint token') }),
      el('table', {}, [
        el('thead', {}, [el('tr', {}, [headerCell(l10n.t('Token')), headerCell(l10n.t('Requests'), 'number'), headerCell(l10n.t('Credits'), 'number'), headerCell(l10n.t('Today'), 'number')])]),
        el('tbody', {}, tokens.map((token) => el('tr', { attrs: { 'data-token-id': token.id } }, [
          el('td', { text: token.name }),
          el('td', { className: 'number', text: String(token.requests) }),
          el('td', { className: 'number', text: formatSpend(token.credits) }),
          el('td', { className: 'number', text: formatSpend(token.today) }),
        ]))),
      ]),
    ]);
  }

  /** The comparisons the filter shows (one, or every one of the days shown): each one's total, then a row per model. */
  #comparisonTable(report: UsageReport): HTMLElement {
    const shown = report.comparisons.filter((comparison) => report.comparisonFilter === ALL_COMPARISONS || comparison.id === report.comparisonFilter);
    const rows = shown.flatMap((comparison) => [
      el('tr', { className: 'comparison-total', attrs: { 'data-comparison-id': comparison.id } }, [
        el('th', { text: comparisonLabel(comparison), attrs: { scope: 'row', colspan: '2' } }),
        el('td', { className: 'number', text: comparison.unmeasured ? l10n.t('{0}, and {1} not measured', formatSpend(comparison.credits), comparison.unmeasured) : formatSpend(comparison.credits) }),
      ]),
      ...comparison.models.map((row) => el('tr', { className: 'comparison-model' }, [
        el('td', { text: row.model }),
        el('td', { className: 'request-id' }, [el('code', { text: row.requestId || '—' })]),
        el('td', { className: 'number', text: row.together ? l10n.t('in the total: measured together') : row.credits === null ? l10n.t('not measured') : formatSpend(row.credits) }),
      ])),
    ]);
    return el('section', { className: 'comparisons' }, [
      el('h2', { text: l10n.t('Per comparison') }),
      shown.length === 0 ? el('p', { text: l10n.t('None yet.') }) : el('table', {}, [
        el('thead', {}, [el('tr', {}, [headerCell(l10n.t('Model')), headerCell(l10n.t('Request ID')), headerCell(l10n.t('Credits'), 'number')])]),
        el('tbody', {}, rows),
      ]),
    ]);
  }

  #onClick(event: MouseEvent): void {
    const button = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-action]') : null;
    switch (button?.dataset.action) {
      case 'refresh': return this.post({ v: USAGE_PROTOCOL_VERSION, type: 'refresh' });
      case 'exportCsv': return this.post({ v: USAGE_PROTOCOL_VERSION, type: 'exportCsv' });
      case 'copyRequestId': {
        const requestId = button.dataset.requestId;
        if (requestId) this.post({ v: USAGE_PROTOCOL_VERSION, type: 'copyRequestId', requestId });
        return;
      }
    }
  }
}

/** A comparison as the filter and its table name it: when, and the models it asked (the ledger holds no prompt). */
function comparisonLabel(comparison: ComparisonTotal): string {
  return l10n.t('{0} · {1}', new Date(comparison.at).toLocaleString(), [...new Set(comparison.models.map((row) => row.model))].join(', '));
}

function start(): void {
  const root = document.getElementById('usage-root');
  if (!root) throw new Error('usage-root element missing from the webview HTML');
  configureLocalization(root);
  const api = acquireVsCodeApi<UsageState>();
  const view = new UsageView(root, api);
  window.addEventListener('message', (event: MessageEvent<UsageHostMessage>) => {
    if (event.data && typeof event.data === 'object') view.handle(event.data);
  });
  view.post({ v: USAGE_PROTOCOL_VERSION, type: 'ready' });
}

start();
