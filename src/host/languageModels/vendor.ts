/** The vendor id of the models this extension offers to VS Code (package.json `languageModelChatProviders`). */
export const VENDOR = 'inference';
