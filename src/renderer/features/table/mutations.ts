import { writeOptions } from '../../queries/write'

// The map's lasso keeps rows as a row set the view then names; nothing cached names it yet (its rule says so).
export const createRowSet = writeOptions('rowsets/create')
