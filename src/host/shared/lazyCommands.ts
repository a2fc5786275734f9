/**
 * The commands of the features that load on first use (LazyFeature): activation registers them as
 * stand-ins, and the first run of one loads its feature. Every other command in package.json is
 * registered at activation by code that activation loads anyway (a unit test holds both to the manifest).
 */
export const LAZY_COMMANDS = {
  chat: [
    'inference.openChat', 'inference.newChat', 'inference.chatHistory', 'inference.searchChatHistory', 'inference.exportComparison',
    'inference.openChatInEditor', 'inference.moveChatToSideBar',
    'inference.askAboutSelection', 'inference.addSelectionToChat', 'inference.addFileToChat',
    'inference.explainSelection', 'inference.fixSelection', 'inference.acceptProposal', 'inference.rejectProposal',
    'inference.sendImageToChat',
  ],
  images: ['inference.generateImage', 'inference.generateImageWithLastSettings', 'inference.generateImageHere'],
  localEndpoint: [
    'inference.startLocalEndpoint', 'inference.stopLocalEndpoint', 'inference.localEndpointMenu',
    'inference.createEndpointToken', 'inference.manageEndpointTokens', 'inference.revokeEndpointToken',
  ],
  usage: ['inference.showUsage'],
  suggestions: ['inference.toggleSuggestions', 'inference.snoozeSuggestions', 'inference.pickSuggestionModel', 'inference.suggestionsMenu'],
} as const;
