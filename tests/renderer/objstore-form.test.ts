/** The "Object storage" form model: drafts keep saved secrets without sending them, and problems read as words. */
import { describe, expect, it } from 'vitest'
import type { ObjectStoreConnectionView } from '../../src/contract'
import {
  emptyObjectStoreForm,
  objectStoreFormFromView,
  objectStoreFormToDraft,
  storeOf,
  validateObjectStoreForm,
} from '../../src/renderer/features/connections/objectStoreForm'

const saved: ObjectStoreConnectionView = {
  kind: 'object-store',
  id: 'abc',
  name: 'Blob',
  uri: 'az://data/cat',
  options: { azure_storage_account_name: 'acct', allow_http: 'true', client_timeout: '30s' },
  secrets: ['azure_storage_account_key', 'client_secret'],
  createdAt: 1,
  updatedAt: 2,
}

describe('object-store form', () => {
  it('turns a saved view into labelled fields and other-option rows, keeping saved secrets by name', () => {
    const form = objectStoreFormFromView(saved)
    expect(storeOf(form)).toBe('az')
    expect(form.values).toEqual({ azure_storage_account_name: 'acct', allow_http: 'true' })
    expect(form.extra.map((r) => [r.name, r.value, r.saved])).toEqual([
      ['client_timeout', '30s', false],
      ['client_secret', '', true],
    ])
    expect(objectStoreFormToDraft(form)).toEqual({
      id: 'abc',
      name: 'Blob',
      uri: 'az://data/cat',
      options: { azure_storage_account_name: 'acct', allow_http: 'true', client_timeout: '30s' },
      keep: ['azure_storage_account_key', 'client_secret'],
    })
  })

  it('sends a replaced secret and no longer keeps the saved one', () => {
    const form = objectStoreFormFromView(saved)
    const replaced = { ...form, replacing: ['azure_storage_account_key'], values: { ...form.values, azure_storage_account_key: 'new-key' } }
    const draft = objectStoreFormToDraft(replaced)
    expect(draft.options).toMatchObject({ azure_storage_account_key: 'new-key' })
    expect(draft.keep).toEqual(['client_secret'])
  })

  it('sends only the options of the store the URI names', () => {
    const form = { ...emptyObjectStoreForm(), name: 'x', uri: 's3://b/p', values: { aws_region: 'eu-west-1', azure_storage_account_name: 'left-over' } }
    expect(objectStoreFormToDraft(form).options).toEqual({ aws_region: 'eu-west-1' })
  })

  it('says what is wrong in words', () => {
    expect(validateObjectStoreForm(emptyObjectStoreForm())).toMatchObject({ name: 'Give the connection a name', uri: 'Enter the catalog’s URI, e.g. s3://bucket/prefix' })
    const bad = { ...emptyObjectStoreForm(), name: 'x', uri: 'gs://b', values: { google_service_account_key: 'not json' } }
    expect(validateObjectStoreForm(bad)['field.google_service_account_key']).toBe('This is not a service-account key file (JSON object)')
    const dupe = objectStoreFormFromView(saved)
    dupe.extra.push({ ...dupe.extra[0]!, key: 'x1' })
    expect(validateObjectStoreForm(dupe)['extra.2.name']).toBe('“client_timeout” appears twice')
    const own = { ...emptyObjectStoreForm(), name: 'x', uri: 's3://b', extra: [{ key: 'k', name: 'aws_region', value: 'x', saved: false, replacing: false }] }
    expect(validateObjectStoreForm(own)['extra.0.name']).toBe('“aws_region” has its own field above')
  })
})
