import type { AppErrorData } from '../../contract'
import { WarningIcon } from './Icons'

export interface ErrorAction {
  label: string
  run: () => void
}

/**
 * An error shown where the content would be: what happened, what may fix it, and the action
 * that may fix it. Technical detail stays collapsed.
 */
export function ErrorPanel({
  error,
  title,
  actions = [],
  compact = false,
}: {
  error: AppErrorData
  title?: string
  actions?: ErrorAction[]
  compact?: boolean
}) {
  return (
    <div className={compact ? 'error-panel compact' : 'error-panel'} role="alert" data-error-code={error.code}>
      <WarningIcon className="error-icon" />
      <div className="error-body">
        {title && <div className="error-title">{title}</div>}
        <div className="error-message">{error.message}</div>
        {error.hint && <div className="error-hint">{error.hint}</div>}
        {actions.length > 0 && (
          <div className="error-actions">
            {actions.map((action) => (
              <button key={action.label} type="button" className="button" onClick={action.run}>
                {action.label}
              </button>
            ))}
          </div>
        )}
        {error.detail && error.detail !== error.message && (
          <details className="error-detail">
            <summary>Details</summary>
            <pre>{error.detail}</pre>
          </details>
        )}
      </div>
    </div>
  )
}

/** AppErrorData from anything thrown. */
export function errorData(error: unknown): AppErrorData {
  if (error && typeof error === 'object' && 'code' in error && 'message' in error) {
    const e = error as AppErrorData
    return { code: e.code, message: e.message, detail: e.detail, hint: e.hint, ...(e.span ? { span: e.span } : {}) }
  }
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) }
}
