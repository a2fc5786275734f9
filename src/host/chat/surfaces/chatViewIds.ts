/** The editor panels' webview type (package.json `activationEvents`: a restored panel activates the extension). */
export const CHAT_VIEW_TYPE = 'inference.chat';

/** The side-bar view's id (package.json `views`), also the prefix of the commands VS Code makes for it. */
export const CHAT_SIDE_VIEW_ID = 'inference.chatView';
