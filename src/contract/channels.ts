/**
 * The IPC channel names between main and the preload: one home, so the two ends (and the tests that stand in for
 * Electron) cannot drift apart. Dependency-free on purpose: the sandboxed preload bundles it in.
 */

/** The one invoke channel: every control call goes over it as `(method, input)` (src/main/ipc.ts). */
export const INVOKE_CHANNEL = 'catalog:invoke'
/** The one event channel: main sends `(name, payload)` for every contract event. */
export const EVENT_CHANNEL = 'catalog:event'
/** The preload asks for, and receives, its port to the catalog host on this channel (see src/host/protocol.ts). */
export const PORT_CHANNEL = 'catalog:port'
/**
 * Links to a view (`lance-catalog://…`, src/contract/viewLink.ts): the preload sends on it once, when its page can
 * take links; main answers with the links that came before (from the command line at start) and sends each later
 * one (a second launch, macOS open-url) on it. The preload hands them to the page as the `app/openLink` event.
 */
export const LINK_CHANNEL = 'catalog:link'
