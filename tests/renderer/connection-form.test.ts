import { describe, expect, it } from 'vitest'
import type { SavedConnectionView } from '../../src/contract'
import { emptyForm, formFromView, formToDraft, newHeaderRow, validateForm, type ConnectionForm } from '../../src/renderer/features/connections/connectionForm'

const view: SavedConnectionView = {
  kind: 'rest',
  id: 'abc',
  name: 'Team',
  endpoint: 'https://catalog.example.com',
  auth: { kind: 'api-key', saved: true },
  database: { kind: 'name', value: 'prod' },
  headers: [
    { name: 'X-Tenant', secret: false, value: 'acme', saved: true },
    { name: 'X-Signature', secret: true, saved: true },
  ],
  createdAt: 1,
  updatedAt: 2,
}

const filled = (patch: Partial<ConnectionForm> = {}): ConnectionForm => ({ ...emptyForm(), name: 'Team', endpoint: 'http://127.0.0.1:1234', secret: 'k', ...patch })

describe('connection form', () => {
  it('a form edited from a saved view leaves saved secrets out of the draft (keep them)', () => {
    const draft = formToDraft(formFromView(view))
    expect(draft.auth).toEqual({ kind: 'api-key' })
    expect(draft.database).toEqual({ kind: 'name', value: 'prod' })
    expect(draft.headers).toEqual([
      { name: 'X-Tenant', secret: false, value: 'acme' },
      { name: 'X-Signature', secret: true },
    ])
    expect(validateForm(formFromView(view))).toEqual({})
  })

  it('Replace sends the new secret, and asks for one while it is empty', () => {
    const replacing = { ...formFromView(view), replacingSecret: true, secret: '' }
    expect(validateForm(replacing).secret).toBe('Enter the API key')
    expect(formToDraft({ ...replacing, secret: 'new-key' }).auth).toEqual({ kind: 'api-key', secret: 'new-key' })
  })

  it('says what is wrong, in words, per field', () => {
    const errors = validateForm({ ...emptyForm(), endpoint: 'ftp://x', authKind: 'bearer', databaseKind: 'prefix' })
    expect(errors.name).toBe('Give the connection a name')
    expect(errors.endpoint).toMatch(/http:\/\/ or https:\/\//)
    expect(errors.secret).toBe('Enter the bearer token')
    expect(errors.database).toMatch(/prefix/)
    expect(validateForm(filled({ endpoint: 'https://user:pw@host' })).endpoint).toMatch(/without credentials/)
  })

  it('checks extra headers: names, reserved names, duplicates, line breaks; ignores blank rows', () => {
    expect(validateForm(filled({ headers: [newHeaderRow()] }))).toEqual({})
    expect(formToDraft(filled({ headers: [newHeaderRow()] })).headers).toEqual([])
    const errors = validateForm(
      filled({
        headers: [
          newHeaderRow({ name: 'x-api-key', value: 'a' }),
          newHeaderRow({ name: 'X-A', value: 'a' }),
          newHeaderRow({ name: 'x-a', value: 'b' }),
          newHeaderRow({ name: 'bad name', value: 'c' }),
          newHeaderRow({ name: '', value: 'orphan' }),
          newHeaderRow({ name: 'X-B', value: 'line\nbreak' }),
        ],
      }),
    )
    expect(errors['header.0.name']).toMatch(/set by the authentication/)
    expect(errors['header.1.name']).toBeUndefined()
    expect(errors['header.2.name']).toMatch(/appears twice/)
    expect(errors['header.3.name']).toMatch(/not a valid HTTP header name/)
    expect(errors['header.4.name']).toMatch(/Name the header/)
    expect(errors['header.5.value']).toMatch(/line breaks/)
  })

  it('no authentication sends no secret', () => {
    expect(formToDraft(filled({ authKind: 'none', secret: 'left over' })).auth).toEqual({ kind: 'none' })
    expect(validateForm(filled({ authKind: 'none', secret: '' }))).toEqual({})
  })
})
