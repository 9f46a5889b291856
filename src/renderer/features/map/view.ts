/** What the map shows: the data point at the canvas's centre and the zoom. */
export interface View {
  /** The data point at the canvas's centre. */
  cx: number
  cy: number
  /** CSS pixels per data unit (each drawer scales it by the device pixel ratio). */
  scale: number
}
