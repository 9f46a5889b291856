import type { VerificationReport } from '../../../contract'
import { formatCount } from '../../lib/format'

const count = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`

/** "The server has 42 tables: 2 at the root and 40 in 12 namespaces (3 at the top level)." */
function inventorySummary(report: VerificationReport): string {
  const inventory = report.inventory
  if (!inventory) return `The server lists ${count(report.tables.length, 'table', 'tables')} at the root.`
  const { rootTables, tablesInNamespaces, namespacesWalked } = inventory
  if (namespacesWalked === 0) {
    if (inventory.stoppedBy) return `The server lists ${count(rootTables, 'table', 'tables')} at the root; its namespaces could not be listed.`
    return `The server has ${count(rootTables, 'table', 'tables')}, all at the root (no namespaces).`
  }
  const total = rootTables + tablesInNamespaces
  const where = `${formatCount(rootTables)} at the root and ${formatCount(tablesInNamespaces)} in ${count(namespacesWalked, 'namespace', 'namespaces')}`
  if (inventory.complete) return `The server has ${count(total, 'table', 'tables')}: ${where} (${formatCount(inventory.rootNamespaces)} at the top level).`
  if (inventory.stoppedBy) return `The server has at least ${count(total, 'table', 'tables')}: ${where}, before an error stopped the count.`
  return `The server has at least ${count(total, 'table', 'tables')}: ${where} (the count stops at ${inventory.limit} namespaces; more remain).`
}

/** A REST server's verification: what the server holds, then each step in words. */
export function TestReport({ report }: { report: VerificationReport }) {
  const summary = report.ok ? `${inventorySummary(report)}${report.wrote ? ' The write round trip worked.' : ''}` : 'The test failed.'
  return (
    <section className={report.ok ? 'test-report ok' : 'test-report failed'} aria-label="Test result">
      <div className="test-summary">{summary}</div>
      <ol className="test-steps">
        {report.steps.map((step) => (
          <li key={step.step} className={step.ok ? 'step ok' : 'step failed'}>
            <span aria-hidden="true" className="step-mark">
              {step.ok ? '✓' : '✕'}
            </span>
            <span>{step.message}</span>
            <span className="muted small step-ms">{Math.round(step.ms)} ms</span>
          </li>
        ))}
      </ol>
      {report.error && <div className="field-error">{report.error.message}{report.error.hint ? ` ${report.error.hint}` : ''}</div>}
    </section>
  )
}
