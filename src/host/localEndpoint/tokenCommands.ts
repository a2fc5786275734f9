import vscode = require('vscode');
import { formatCredits, SPEND_DIGITS } from '../../core/credits';
import { MAX_TOKEN_NAME_LENGTH, parseDailyLimit, tokenNameProblem, type NamedToken } from '../../core/localEndpoint/namedTokens';
import type { EndpointTokens } from '../shared/endpointTokens';
import type { SpendingGuard } from '../../core/usage/spendingGuard';

function nameProblemText(problem: string): string {
  switch (problem) {
    case 'empty': return vscode.l10n.t('Enter a name.');
    case 'tooLong': return vscode.l10n.t('At most {0} characters.', MAX_TOKEN_NAME_LENGTH);
    case 'controlCharacters': return vscode.l10n.t('A name cannot hold control characters.');
    default: return vscode.l10n.t('A token of that name exists.');
  }
}

/** Inference: Create Endpoint Token: a name, an optional daily limit; the token is shown once (modal, not kept in the notification list). */
export async function createEndpointToken(tokens: EndpointTokens): Promise<NamedToken | undefined> {
  const name = await vscode.window.showInputBox({
    title: vscode.l10n.t('Create Endpoint Token (1/2)'),
    prompt: vscode.l10n.t('A name for the tool that will use this token (shown in the usage view)'),
    validateInput: (value) => {
      const problem = tokenNameProblem(value, tokens.list());
      return problem ? nameProblemText(problem) : undefined;
    },
    ignoreFocusOut: true,
  });
  if (name === undefined) return undefined;
  const limitText = await vscode.window.showInputBox({
    title: vscode.l10n.t('Create Endpoint Token (2/2)'),
    prompt: vscode.l10n.t('Daily limit in credits for this token (empty: no limit of its own; the environment\'s limits still hold)'),
    validateInput: (value) => (parseDailyLimit(value) === null ? vscode.l10n.t('Enter a number of credits, 0 or more, or nothing.') : undefined),
    ignoreFocusOut: true,
  });
  if (limitText === undefined) return undefined;
  const { secret, token } = await tokens.create(name, parseDailyLimit(limitText) ?? undefined);
  const copy = vscode.l10n.t('Copy Token');
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t('Endpoint token "{0}" created', token.name),
    { modal: true, detail: vscode.l10n.t('Use it as the API key of the local endpoint. It is shown only now; it works until you revoke it, across restarts of the endpoint.\n\n{0}', secret) },
    copy,
  );
  if (choice === copy) await vscode.env.clipboard.writeText(secret);
  return token;
}

interface TokenItem extends vscode.QuickPickItem {
  token: NamedToken;
}

/** The list shows each token's spend today against its daily limit. */
export type EndpointTokenListServices = { billing: Pick<SpendingGuard, 'tokenSpend'> };

/** The tokens in a quick pick, each with its limit, today's spend and a Revoke button; picking one asks to revoke it. */
export async function manageEndpointTokens(services: EndpointTokenListServices, tokens: EndpointTokens): Promise<void> {
  const revokeButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: vscode.l10n.t('Revoke') };
  const items = async (): Promise<TokenItem[]> => Promise.all(tokens.list().map(async (token) => {
    const limit = token.dailyLimit === undefined
      ? vscode.l10n.t('no daily limit of its own')
      : vscode.l10n.t('{0} of {1} credits today', formatCredits((await services.billing.tokenSpend(token.id, token.dailyLimit)).counted, SPEND_DIGITS), formatCredits(token.dailyLimit, SPEND_DIGITS));
    return { label: token.name, description: limit, detail: vscode.l10n.t('Created {0}', new Date(token.createdAt).toLocaleString()), buttons: [revokeButton], token };
  }));
  if (tokens.list().length === 0) {
    const create = vscode.l10n.t('Create Endpoint Token');
    if (await vscode.window.showInformationMessage(vscode.l10n.t('No endpoint tokens yet. The local endpoint always accepts its per-run token.'), create) === create) {
      await vscode.commands.executeCommand('inference.createEndpointToken');
    }
    return;
  }
  const pick = vscode.window.createQuickPick<TokenItem>();
  pick.title = vscode.l10n.t('Endpoint Tokens');
  pick.placeholder = vscode.l10n.t('Pick a token to revoke it');
  pick.items = await items();
  const chosen = await new Promise<NamedToken | undefined>((resolve) => {
    pick.onDidTriggerItemButton((event) => resolve(event.item.token));
    pick.onDidAccept(() => resolve(pick.selectedItems[0]?.token));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  if (!chosen) return;
  const revoke = vscode.l10n.t('Revoke');
  const confirmed = await vscode.window.showWarningMessage(
    vscode.l10n.t('Revoke endpoint token "{0}"?', chosen.name),
    { modal: true, detail: vscode.l10n.t('Tools using it are refused from now on. Its requests stay in the usage ledger under its name.') },
    revoke,
  );
  if (confirmed !== revoke) return;
  await tokens.revoke(chosen);
  vscode.window.setStatusBarMessage(`$(trash) ${vscode.l10n.t('Endpoint token "{0}" revoked', chosen.name)}`, 4000);
}
