import { connectionDraftSchema, type AuthKind, type Input, type SavedConnectionView } from '../../../contract'

/** A draft as the contract methods take it (headers always present). */
export type Draft = Extract<Input<'connections/saved/save'>, { kind: 'rest' }>['draft']

/**
 * The "Connect to server" form as plain data, apart from React: built from a saved view, turned
 * into the draft the core validates again, and checked live with readable messages.
 *
 * Secrets: a saved secret is never in the form (the view has no value). `secretSaved` says one
 * exists; until the user presses Replace the draft leaves the secret out (= keep the saved one).
 */
export interface HeaderRow {
  /** React key only. */
  key: string
  name: string
  value: string
  secret: boolean
  /** A value is saved for this header (and, when secret, not shown). */
  saved: boolean
  /** The user chose to type a new value over a saved secret. */
  replacing: boolean
}

export interface ConnectionForm {
  id?: string
  name: string
  endpoint: string
  authKind: AuthKind
  secret: string
  secretSaved: boolean
  replacingSecret: boolean
  databaseKind: 'none' | 'name' | 'prefix'
  databaseValue: string
  headers: HeaderRow[]
}

/** Field → message, for fields that are wrong now. Keys: name, endpoint, secret, database, `header.<i>.name`, `header.<i>.value`. */
export type FormErrors = Record<string, string>

let rowCounter = 0
export function newHeaderRow(partial: Partial<HeaderRow> = {}): HeaderRow {
  rowCounter += 1
  return { key: `h${rowCounter}`, name: '', value: '', secret: false, saved: false, replacing: false, ...partial }
}

export function emptyForm(): ConnectionForm {
  return {
    name: '',
    endpoint: '',
    authKind: 'api-key',
    secret: '',
    secretSaved: false,
    replacingSecret: false,
    databaseKind: 'none',
    databaseValue: '',
    headers: [],
  }
}

export function formFromView(view: SavedConnectionView): ConnectionForm {
  return {
    id: view.id,
    name: view.name,
    endpoint: view.endpoint,
    authKind: view.auth.kind,
    secret: '',
    secretSaved: view.auth.saved,
    replacingSecret: false,
    databaseKind: view.database?.kind ?? 'none',
    databaseValue: view.database?.value ?? '',
    headers: view.headers.map((h) => newHeaderRow({ name: h.name, value: h.value ?? '', secret: h.secret, saved: h.saved })),
  }
}

/** Whether the secret field is showing "••••• saved" (not being replaced). */
export function keepsSavedSecret(form: ConnectionForm): boolean {
  return form.authKind !== 'none' && form.secretSaved && !form.replacingSecret
}

function headerKeepsSaved(row: HeaderRow): boolean {
  return row.secret && row.saved && !row.replacing
}

/** The draft for 'connections/saved/save' and 'connections/saved/test' (kind `rest`). Secrets left out keep the saved ones. */
export function formToDraft(form: ConnectionForm): Draft {
  return {
    ...(form.id ? { id: form.id } : {}),
    name: form.name,
    endpoint: form.endpoint,
    auth: form.authKind === 'none' ? { kind: 'none' } : { kind: form.authKind, ...(keepsSavedSecret(form) ? {} : { secret: form.secret }) },
    ...(form.databaseKind === 'none' ? {} : { database: { kind: form.databaseKind, value: form.databaseValue } }),
    headers: form.headers
      .filter((h) => h.name.trim() !== '' || h.value !== '')
      .map((h) => ({ name: h.name, secret: h.secret, ...(headerKeepsSaved(h) ? {} : { value: h.value }) })),
  }
}

const AUTH_NAMES: Record<Exclude<AuthKind, 'none'>, string> = { 'api-key': 'the API key', bearer: 'the bearer token' }

/** Readable problems with the form as it stands (empty = ready to test or save). */
export function validateForm(form: ConnectionForm): FormErrors {
  const errors: FormErrors = {}
  if (form.name.trim() === '') errors.name = 'Give the connection a name'
  const endpoint = form.endpoint.trim()
  if (endpoint === '') errors.endpoint = 'Enter the server’s URL, e.g. https://catalog.example.com'
  if (form.authKind !== 'none' && !keepsSavedSecret(form) && form.secret === '') {
    errors.secret = `Enter ${AUTH_NAMES[form.authKind]}`
  }
  if (form.databaseKind !== 'none' && form.databaseValue.trim() === '') {
    errors.database = form.databaseKind === 'name' ? 'Enter the database name, or choose “None”' : 'Enter the database prefix, or choose “None”'
  }
  const draftHeaders = form.headers.map((h, index) => ({ h, index })).filter(({ h }) => h.name.trim() !== '' || h.value !== '')
  draftHeaders.forEach(({ h, index }) => {
    if (h.name.trim() === '' && !errors[`header.${index}.name`]) errors[`header.${index}.name`] = 'Name the header, or remove the row'
  })
  const parsed = connectionDraftSchema.safeParse(formToDraft(form))
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [first, second, third] = issue.path
      let field: string | undefined
      let label = ''
      if (first === 'name') [field, label] = ['name', 'Name']
      else if (first === 'endpoint') [field, label] = ['endpoint', 'The URL']
      else if (first === 'auth') [field, label] = ['secret', form.authKind === 'bearer' ? 'The token' : 'The API key']
      else if (first === 'database') [field, label] = ['database', 'The database']
      else if (first === 'headers' && typeof second === 'number') {
        const row = draftHeaders[second]
        if (row) {
          const part = third === 'value' ? 'value' : 'name'
          field = `header.${row.index}.${part}`
          label = part === 'value' ? 'The value' : 'The header name'
        }
      }
      if (field && !errors[field]) errors[field] = issue.code === 'custom' && first === 'headers' ? issue.message : `${label} ${issue.message}`
    }
  }
  return errors
}

/** Readable one-liner for a saved connection's authentication (list rows). */
export function describeAuth(view: Pick<SavedConnectionView, 'auth'>): string {
  if (view.auth.kind === 'none') return 'No authentication'
  const what = view.auth.kind === 'api-key' ? 'API key' : 'Bearer token'
  return view.auth.saved ? `${what} saved` : `${what} missing`
}
