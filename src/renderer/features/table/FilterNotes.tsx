import { userColumnsOnly, type AppErrorData, type PredicateHint } from '../../../contract'

/** A refused filter under the box (role `alert`, the box's description): the message, where in the text, the hint. */
export function FilterError({ id, error, span }: { id: string; error: AppErrorData; span: { start: number } | null }) {
  return (
    <div id={id} role="alert" className="filter-error">
      {/* A foreign server may pass Lance's lists on as they are: only the user's columns here too. */}
      <strong>{userColumnsOnly(error.message)}</strong>
      {span && <span className="filter-error-where"> (character {span.start + 1})</span>}
      {error.hint && <span> — {error.hint}</span>}
    </div>
  )
}

/** What a filter may mean instead (src/contract/predicate.ts), each with its fix as a button. */
export function FilterWarnings({ id, hints, onFix }: { id: string; hints: readonly PredicateHint[]; onFix(fixed: string): void }) {
  return (
    <div id={id} role="status" aria-label="Filter warning" className="filter-warning">
      {hints.map((hint) => (
        <div key={`${hint.found}:${hint.column}`} className="filter-warning-item">
          <span>{hint.message}</span>
          <button type="button" className="button filter-fix" title={hint.fixed} onClick={() => onFix(hint.fixed)}>
            Use <code>{`\`${hint.column.replaceAll('`', '``')}\``}</code>
          </button>
        </div>
      ))}
    </div>
  )
}
