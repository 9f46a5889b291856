export * from './model'
export * from '../redact'
export * from './store'
