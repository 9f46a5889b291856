/** The engine-free part of table views that hosts use: the schema a view answers, and its vector columns. */
export { viewSchema } from './viewSchema'
export { vectorColumns } from './validate'
