// A table's and a namespace's life: versions, indexes, stats, schema changes, read-only mode and recovery.
export { CascadeDropDialog, PropertiesDialog } from './NamespaceDialogs'
export { READ_ONLY_REASON, ReadOnlySwitch } from './ReadOnlySwitch'
export { NewTableDialog } from './SchemaEditor'
export { LifecycleButtons, LifecyclePanelView, ReadOnlyBadge, useTableLifecycle, type LifecycleStart } from './TableLifecycle'
export { ReadOnlyProvider, RecoveryPrompts, useReadOnlyGuard } from './useReadOnly'
export { dropNamespace } from './mutations'
