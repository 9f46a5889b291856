// Connections: the start screen, saved servers and object stores, their dialogs and the connection pane.
export { AddMenu } from './AddMenu'
export { ConnectionPane } from './ConnectionPane'
export { isBucket } from './objectStoreForm'
export { SavedConnections } from './SavedConnections'
export { StartScreen } from './StartScreen'
export { useRemoteConnections } from './useRemoteConnections'
