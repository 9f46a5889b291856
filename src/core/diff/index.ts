// What changed between two versions of a table: the diff job and its streaming comparison.
export { DIFF_HISTORY, DiffModule } from './module'
export { diffVersions } from './run'
