export { RowSetModule, ROW_SETS_KEPT, ROW_SET_OFFSETS_KEPT } from './module'
