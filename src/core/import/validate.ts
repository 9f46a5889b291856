// Moved to core/arrow (the server's body reader uses it too).
export { batchProblem } from '../arrow/validate'
