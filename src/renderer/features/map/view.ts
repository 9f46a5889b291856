/** What the map shows: the data point at the canvas's centre and the zoom. */
export interface View {
  /** The data point at the canvas's centre. */
  cx: number
  cy: number
  /** Canvas pixels per data unit. */
  scale: number
}
