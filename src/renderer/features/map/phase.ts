import type { MapPhase } from '../../../contract'
import { formatCount } from '../../lib/format'

/**
 * A UMAP map's step in words for the progress line ("Fitting UMAP: epoch 120 of 200", "Placing rows: 40,000 of
 * 100,000"); null when the job says no step (a PCA map), and the line then counts rows placed as before.
 */
export function mapPhaseText(phase: MapPhase | undefined): string | null {
  if (!phase) return null
  const of = (unit = '') => `${formatCount(phase.done)}${phase.total !== null ? ` of ${formatCount(phase.total)}` : ''}${unit}`
  switch (phase.name) {
    case 'sample':
      return `Reading the sample: ${of(' rows')}`
    case 'basis':
      return `Fitting the PCA: step ${of()}`
    case 'neighbours':
      return `Finding neighbours: ${of(' sample rows')}`
    case 'graph':
      return 'Building the UMAP graph'
    case 'epochs':
      return `Fitting UMAP: epoch ${of()}`
    case 'place':
      return `Placing rows: ${of()}`
  }
}
