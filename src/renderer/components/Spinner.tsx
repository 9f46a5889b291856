/** A small busy indicator; the label is for assistive technology and tooltips. */
export function Spinner({ label = 'Loading' }: { label?: string }) {
  return <span className="spinner" role="progressbar" aria-label={label} title={label} />
}
