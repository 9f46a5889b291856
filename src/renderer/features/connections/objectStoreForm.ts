import {
  isSecretStorageKey,
  objectStoreDraftSchema,
  objectStoreScheme,
  objectStoreUriProblem,
  type Input,
  type ObjectStoreConnectionView,
  type ObjectStoreScheme,
} from '../../../contract'

/** A draft as 'connections/saved/*' take it (kind `object-store`). */
export type ObjectStoreDraft = Extract<Input<'connections/saved/save'>, { kind: 'object-store' }>['draft']

/**
 * The "Object storage" form as plain data, apart from React. Known storage options of each store are labelled
 * fields; anything else is an "other option" row. A saved secret is never in the form: `savedSecrets` says it
 * exists, and until the user presses Replace the draft asks main to keep it.
 */
export interface OptionField {
  /** The object_store key Lance takes. */
  key: string
  label: string
  kind: 'text' | 'secret' | 'flag' | 'json'
  placeholder?: string
  hint?: string
}

export const STORE_LABELS: Record<ObjectStoreScheme, string> = { s3: 'Amazon S3', gs: 'Google Cloud Storage', az: 'Azure Blob Storage', file: 'Local (file://)' }

export const URI_PLACEHOLDERS: Record<ObjectStoreScheme, string> = {
  s3: 's3://bucket/prefix',
  gs: 'gs://bucket/prefix',
  az: 'az://container/prefix',
  file: 'file:///path/to/catalog',
}

/**
 * An endpoint option (empty for the cloud itself, set for a compatible store or an emulator) and the `allow_http`
 * flag an http:// endpoint needs (MinIO, Azurite). The dialog shows flags in a row of their own, after the fields.
 */
const endpointOptions = (key: string, placeholder: string, cloud: string, elsewhere: string): OptionField[] => [
  { key, label: 'Endpoint', kind: 'text', placeholder, hint: `Empty for ${cloud}; set for ${elsewhere}.` },
  { key: 'allow_http', label: 'Allow http:// endpoints', kind: 'flag' },
]

/** A masked option; once saved, its value never comes back from main. */
const secretField = (key: string, label: string, hint?: string): OptionField => ({ key, label, kind: 'secret', ...(hint ? { hint } : {}) })

export const STORE_FIELDS: Record<ObjectStoreScheme, OptionField[]> = {
  s3: [
    { key: 'aws_region', label: 'Region', kind: 'text', placeholder: 'us-east-1' },
    ...endpointOptions('aws_endpoint', 'https://s3.us-east-1.amazonaws.com', 'AWS', 'MinIO, R2 or another S3-compatible store'),
    { key: 'aws_access_key_id', label: 'Access key ID', kind: 'text', placeholder: 'AKIA…' },
    secretField('aws_secret_access_key', 'Secret access key'),
    secretField('aws_session_token', 'Session token', 'Only for temporary credentials.'),
    { key: 'aws_virtual_hosted_style_request', label: 'Virtual-hosted–style requests', kind: 'flag' },
  ],
  az: [
    { key: 'azure_storage_account_name', label: 'Account name', kind: 'text', placeholder: 'mystorageaccount' },
    ...endpointOptions('azure_endpoint', 'https://<account>.blob.core.windows.net', 'Azure', 'Azurite or a private endpoint'),
    secretField('azure_storage_account_key', 'Account key'),
    secretField('azure_storage_sas_token', 'SAS token', 'Instead of the account key.'),
    { key: 'azure_storage_use_emulator', label: 'Use the emulator (Azurite on 127.0.0.1:10000)', kind: 'flag' },
  ],
  gs: [
    { key: 'google_service_account_key', label: 'Service-account JSON', kind: 'json', hint: 'Paste the key file’s JSON, or choose the file.' },
    { key: 'google_skip_signature', label: 'Anonymous access (public bucket, no credentials)', kind: 'flag' },
  ],
  file: [],
}

export interface OptionRow {
  /** React key only. */
  key: string
  name: string
  value: string
  /** A secret saved under this name (the value is not shown). */
  saved: boolean
  replacing: boolean
}

export interface ObjectStoreForm {
  id?: string
  name: string
  uri: string
  /** The store chosen before the URI names one (the URI's scheme wins once it has one). */
  store: ObjectStoreScheme
  /** Values of the labelled fields, by option key (flags: 'true' or absent). */
  values: Record<string, string>
  /** Secret option keys saved for this connection. */
  savedSecrets: string[]
  /** Saved secret fields the user chose to type over. */
  replacing: string[]
  extra: OptionRow[]
}

let rowCounter = 0
export function newOptionRow(partial: Partial<OptionRow> = {}): OptionRow {
  rowCounter += 1
  return { key: `o${rowCounter}`, name: '', value: '', saved: false, replacing: false, ...partial }
}

export function emptyObjectStoreForm(): ObjectStoreForm {
  return { name: '', uri: '', store: 's3', values: {}, savedSecrets: [], replacing: [], extra: [] }
}

/** The store whose fields the form shows. */
export function storeOf(form: Pick<ObjectStoreForm, 'uri' | 'store'>): ObjectStoreScheme {
  return objectStoreScheme(form.uri.trim()) ?? form.store
}

export function objectStoreFormFromView(view: ObjectStoreConnectionView): ObjectStoreForm {
  const store = objectStoreScheme(view.uri) ?? 's3'
  const known = new Set(STORE_FIELDS[store].map((f) => f.key))
  const values: Record<string, string> = {}
  const extra: OptionRow[] = []
  for (const [name, value] of Object.entries(view.options)) {
    if (known.has(name)) values[name] = value
    else extra.push(newOptionRow({ name, value }))
  }
  for (const name of view.secrets) if (!known.has(name)) extra.push(newOptionRow({ name, saved: true }))
  return { id: view.id, name: view.name, uri: view.uri, store, values, savedSecrets: [...view.secrets], replacing: [], extra }
}

/** Whether the field of secret option `key` shows "••••• saved" (not being replaced). */
export function keepsSaved(form: ObjectStoreForm, key: string): boolean {
  return form.savedSecrets.includes(key) && !form.replacing.includes(key)
}

function rowKeepsSaved(row: OptionRow): boolean {
  return row.saved && !row.replacing
}

/** The draft for 'connections/saved/*' (kind `object-store`). Saved secrets still showing "••••• saved" are kept, not sent. */
export function objectStoreFormToDraft(form: ObjectStoreForm): ObjectStoreDraft {
  const options: Record<string, string> = {}
  const keep: string[] = []
  for (const field of STORE_FIELDS[storeOf(form)]) {
    if (field.kind === 'secret' || field.kind === 'json') {
      if (keepsSaved(form, field.key)) keep.push(field.key)
      else if ((form.values[field.key] ?? '') !== '') options[field.key] = form.values[field.key]!
    } else if (field.kind === 'flag') {
      if (form.values[field.key] === 'true') options[field.key] = 'true'
    } else if ((form.values[field.key] ?? '').trim() !== '') options[field.key] = form.values[field.key]!.trim()
  }
  for (const row of form.extra) {
    const name = row.name.trim()
    if (name === '') continue
    if (rowKeepsSaved(row)) keep.push(name.toLowerCase())
    else if (row.value !== '') options[name] = row.value
  }
  return { ...(form.id ? { id: form.id } : {}), name: form.name, uri: form.uri.trim(), options, keep }
}

/** Field → message for what is wrong now. Keys: name, uri, `field.<key>`, `extra.<i>.name`, `extra.<i>.value`. */
export function validateObjectStoreForm(form: ObjectStoreForm): Record<string, string> {
  const errors: Record<string, string> = {}
  if (form.name.trim() === '') errors.name = 'Give the connection a name'
  const uri = form.uri.trim()
  if (uri === '' || /^[a-z0-9+.-]+:\/\/\/?$/i.test(uri)) errors.uri = `Enter the catalog’s URI, e.g. ${URI_PLACEHOLDERS[storeOf(form)]}`
  else {
    const problem = objectStoreUriProblem(uri)
    if (problem) errors.uri = `The URI ${problem}`
  }
  const json = form.values.google_service_account_key ?? ''
  if (storeOf(form) === 'gs' && !keepsSaved(form, 'google_service_account_key') && json.trim() !== '') {
    try {
      const parsed = JSON.parse(json) as unknown
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object')
    } catch {
      errors['field.google_service_account_key'] = 'This is not a service-account key file (JSON object)'
    }
  }
  const known = new Set(STORE_FIELDS[storeOf(form)].map((f) => f.key))
  const seen = new Set<string>()
  form.extra.forEach((row, index) => {
    const name = row.name.trim().toLowerCase()
    if (name === '' && row.value === '') return
    if (name === '') errors[`extra.${index}.name`] = 'Name the option, or remove the row'
    else if (!/^[a-z0-9_.-]{1,128}$/.test(name)) errors[`extra.${index}.name`] = 'An option name is made of letters, digits, "_", "." and "-"'
    else if (known.has(name)) errors[`extra.${index}.name`] = `“${name}” has its own field above`
    else if (seen.has(name)) errors[`extra.${index}.name`] = `“${name}” appears twice`
    else if (!rowKeepsSaved(row) && row.value === '') errors[`extra.${index}.value`] = 'Enter a value, or remove the row'
    seen.add(name)
  })
  if (Object.keys(errors).length === 0) {
    const parsed = objectStoreDraftSchema.safeParse(objectStoreFormToDraft(form))
    if (!parsed.success) errors.form = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')
  }
  return errors
}

/** Whether an "other option" row's name is a secret (its value is masked and kept in the secret store). */
export function rowIsSecret(row: OptionRow): boolean {
  return row.saved || isSecretStorageKey(row.name.trim())
}

/** One line for the saved list: the store and what is saved, never a value of a secret. */
export function describeObjectStore(view: ObjectStoreConnectionView): string {
  const store = objectStoreScheme(view.uri)
  const parts = [store ? STORE_LABELS[store] : 'Object storage']
  if (view.secrets.length > 0) parts.push(`${view.secrets.length === 1 ? '1 secret' : `${view.secrets.length} secrets`} saved`)
  return parts.join(' · ')
}

/** Whether an open connection's location is a catalog on object storage (not a local path, not file://). */
export function isBucket(location: string): boolean {
  const scheme = objectStoreScheme(location)
  return scheme !== null && scheme !== 'file'
}
