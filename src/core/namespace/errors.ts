import { AppError, type ErrorCode } from '../../contract'
import { formatTableId, type TableId } from './path'

/**
 * An AppError that names its exact REST wire code (the namespace contract tells "version not found" (11)
 * from "table not found" (4), tags (8/9) and indexes (6/7)); our server answers with `wireCode`.
 */
export class WireCodedError extends AppError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly wireCode: number,
    options: { hint?: string; detail?: string } = {},
  ) {
    super(code, message, options)
  }
}

export const versionNotFound = (id: TableId, version: number) =>
  new WireCodedError('not_found', `Version ${version} of table ${formatTableId(id)} does not exist`, 11, { hint: 'Pick a version from the Versions panel' })
export const tagNotFound = (tag: string) => new WireCodedError('not_found', `Tag "${tag}" does not exist`, 8)
export const tagExists = (tag: string) => new WireCodedError('already_exists', `Tag "${tag}" already exists`, 9, { hint: 'Choose another name, or delete the tag first' })
export const indexNotFound = (name: string) => new WireCodedError('not_found', `Index "${name}" does not exist`, 6)
export const indexExists = (name: string) => new WireCodedError('already_exists', `An index named "${name}" already exists`, 7, { hint: 'Choose another name, or drop it first' })
export const columnNotFound = (column: string, columns: string[]) =>
  new WireCodedError('not_found', `Column "${column}" does not exist`, 12, { hint: `Columns: ${columns.join(', ')}` })
