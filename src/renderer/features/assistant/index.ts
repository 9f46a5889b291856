// Connect an assistant…: the MCP configuration snippets of the open catalog (Help menu, the connection pane).
export { AssistantProvider, ConnectAssistantButton, useAssistant } from './AssistantProvider'
export { assistantSnippets, headerVariable, serverArgs, serverName, type Snippet, type SnippetSet } from './snippets'
