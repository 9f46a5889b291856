import { useRef, useState, type ReactNode } from 'react'
import { OBJECT_STORE_SCHEMES, type ObjectStoreScheme } from '../../../contract'
import { CloseIcon } from '../../components/Icons'
import type { FragmentProps } from './connectionKinds'
import { Field } from './ConnectionDialogShell'
import { keepsSaved, newOptionRow, rowIsSecret, STORE_FIELDS, STORE_LABELS, storeOf, URI_PLACEHOLDERS, type OptionField, type OptionRow } from './objectStoreForm'

type State = FragmentProps<'object-store'>['state']

/**
 * An object store's fields: a catalog at `s3://`, `gs://`, `az://` or `file://` with the storage options Lance takes,
 * offered per store as labelled fields plus free "other option" rows. Secret options show "••••• saved" once
 * saved: their values never come back from main.
 */
export function ObjectStoreFields({ state }: FragmentProps<'object-store'>) {
  const { form, setForm, update, shown, touch, setError } = state
  const fileRef = useRef<HTMLInputElement>(null)
  /** The key file last chosen (its contents are in the masked field, never shown). */
  const [keyFile, setKeyFile] = useState<string | null>(null)
  const setValue = (key: string, value: string | undefined) =>
    setForm((previous) => {
      const values = { ...previous.values }
      if (value === undefined) delete values[key]
      else values[key] = value
      return { ...previous, values }
    })
  const replace = (key: string, replacing: boolean) =>
    setForm((previous) => ({
      ...previous,
      values: { ...previous.values, [key]: '' },
      replacing: replacing ? [...previous.replacing, key] : previous.replacing.filter((k) => k !== key),
    }))
  const store = storeOf(form)

  const chooseStore = (next: ObjectStoreScheme) =>
    setForm((previous) => {
      const uri = previous.uri.trim()
      // The URI's scheme follows the choice; an empty URI starts with it.
      const rest = uri.replace(/^[a-z][a-z0-9+.-]*:\/\/\/?/i, '')
      return { ...previous, store: next, uri: uri === '' ? '' : `${next}://${next === 'file' ? '/' : ''}${rest}` }
    })

  const pickKeyFile = async (file: File | undefined) => {
    if (!file) return
    // A key file is a few KB; anything large is not one (and must not be read whole).
    if (file.size > 64 * 1024) {
      setError({ code: 'invalid_input', message: `${file.name} is too large to be a service-account key file` })
      return
    }
    setValue('google_service_account_key', await file.text())
    setKeyFile(file.name)
    touch('field.google_service_account_key')
  }

  const fields = STORE_FIELDS[store]
  const flags = fields.filter((f) => f.kind === 'flag')

  return (
    <>
      <Field label="Name" id="os-name" error={shown('name')}>
        <input id="os-name" className="text-input" autoComplete="off" value={form.name} placeholder="Data lake" onChange={(e) => update({ name: e.target.value })} onBlur={() => touch('name')} aria-invalid={!!shown('name')} />
      </Field>
      <fieldset className="dialog-fieldset">
        <legend className="field-label">Store</legend>
        <div className="segmented" role="radiogroup" aria-label="Store">
          {OBJECT_STORE_SCHEMES.map((scheme) => (
            <label key={scheme} className={store === scheme ? 'segment checked' : 'segment'}>
              <input type="radio" name="os-store" value={scheme} checked={store === scheme} onChange={() => chooseStore(scheme)} />
              {STORE_LABELS[scheme]}
            </label>
          ))}
        </div>
      </fieldset>
      <Field label="Catalog URI" id="os-uri" error={shown('uri')} hint="The catalog’s root: the folder that holds __manifest or the *.lance tables.">
        <input id="os-uri" className="text-input mono" autoComplete="off" spellCheck={false} value={form.uri} placeholder={URI_PLACEHOLDERS[store]} onChange={(e) => update({ uri: e.target.value })} onBlur={() => touch('uri')} aria-invalid={!!shown('uri')} />
      </Field>
      {fields.length > 0 && (
        <fieldset className="dialog-fieldset">
          <legend className="field-label">{STORE_LABELS[store]} options</legend>
          <div className="objstore-grid">
            {fields
              .filter((f) => f.kind !== 'flag')
              .map((field) => (
                <OptionInput
                  key={`${store}:${field.key}`}
                  field={field}
                  value={form.values[field.key] ?? ''}
                  kept={keepsSaved(form, field.key)}
                  saved={form.savedSecrets.includes(field.key)}
                  error={shown(`field.${field.key}`)}
                  onChange={(value) => setValue(field.key, value)}
                  onBlur={() => touch(`field.${field.key}`)}
                  onReplace={(replacing) => replace(field.key, replacing)}
                  onPickFile={() => fileRef.current?.click()}
                  note={field.kind === 'json' && keyFile && !keepsSaved(form, field.key) ? `Loaded from ${keyFile}` : undefined}
                />
              ))}
          </div>
          {flags.length > 0 && (
            <div className="objstore-flags">
              {flags.map((field) => (
                <label key={`${store}:${field.key}`} className="checkbox">
                  <input type="checkbox" checked={form.values[field.key] === 'true'} onChange={(e) => setValue(field.key, e.target.checked ? 'true' : undefined)} />
                  {field.label}
                </label>
              ))}
            </div>
          )}
          {store === 'gs' && <input ref={fileRef} type="file" accept=".json,application/json" hidden aria-label="Service-account key file" onChange={(e) => void pickKeyFile(e.target.files?.[0])} />}
        </fieldset>
      )}
      {store === 'file' && <p className="muted small">A local directory needs no storage options: it opens exactly as “Open directory” does.</p>}
      <OtherOptions form={form} setForm={setForm} shown={shown} touch={touch} />
    </>
  )
}

/** "Other options": any other key Lance's object store takes, as name/value rows (a secret-looking name is masked). */
function OtherOptions({ form, setForm, shown, touch }: Pick<State, 'form' | 'setForm' | 'shown' | 'touch'>) {
  const updateRow = (index: number, patch: Partial<OptionRow>) => setForm((previous) => ({ ...previous, extra: previous.extra.map((r, i) => (i === index ? { ...r, ...patch } : r)) }))
  return (
    <fieldset className="dialog-fieldset">
      <legend className="field-label">Other options</legend>
      {form.extra.length === 0 && <p className="muted small">None. Any other key Lance’s object store takes (for example aws_skip_signature, client_timeout).</p>}
      {form.extra.map((row, index) => {
        const secret = rowIsSecret(row)
        const rowError = shown(`extra.${index}.name`) ?? shown(`extra.${index}.value`)
        return (
          <div key={row.key} className="header-row-wrap">
            <div className="option-row">
              <input className="text-input mono" aria-label={`Option ${index + 1} name`} placeholder="option_key" autoComplete="off" spellCheck={false} value={row.name} disabled={row.saved} onChange={(e) => updateRow(index, { name: e.target.value })} onBlur={() => touch(`extra.${index}.name`)} aria-invalid={!!shown(`extra.${index}.name`)} />
              {row.saved && !row.replacing ? (
                <span className="saved-secret">
                  <span className="saved-secret-dots" aria-label={`Option ${row.name} saved`}>
                    ••••• saved
                  </span>
                  <button type="button" className="button" onClick={() => updateRow(index, { replacing: true, value: '' })}>
                    Replace
                  </button>
                </span>
              ) : (
                <input className="text-input mono" aria-label={`Option ${index + 1} value`} type={secret ? 'password' : 'text'} autoComplete="off" spellCheck={false} value={row.value} onChange={(e) => updateRow(index, { value: e.target.value })} onBlur={() => touch(`extra.${index}.value`)} aria-invalid={!!shown(`extra.${index}.value`)} />
              )}
              <button type="button" className="icon-button" aria-label={`Remove option ${index + 1}`} title="Remove" onClick={() => setForm((p) => ({ ...p, extra: p.extra.filter((_, i) => i !== index) }))}>
                <CloseIcon />
              </button>
            </div>
            {rowError && <div className="field-error">{rowError}</div>}
          </div>
        )
      })}
      <div>
        <button type="button" className="link-button" onClick={() => setForm((p) => ({ ...p, extra: [...p.extra, newOptionRow()] }))}>
          + Add option
        </button>
      </div>
    </fieldset>
  )
}

/** One store option: a text or masked input, a JSON key (pasted or chosen from a file), or "••••• saved" with Replace. */
function OptionInput({
  field,
  value,
  kept,
  saved,
  error,
  onChange,
  onBlur,
  onReplace,
  onPickFile,
  note,
}: {
  field: OptionField
  value: string
  kept: boolean
  saved: boolean
  error?: string
  onChange(value: string): void
  onBlur(): void
  onReplace(replacing: boolean): void
  onPickFile(): void
  /** Shown instead of the hint (e.g. which key file was loaded). */
  note?: string
}) {
  const id = `os-opt-${field.key}`
  const secret = field.kind === 'secret' || field.kind === 'json'
  let control: ReactNode
  if (secret && kept) {
    control = (
      <div className="saved-secret">
        <span className="saved-secret-dots" aria-label={`${field.label} saved`}>
          ••••• saved
        </span>
        <button type="button" className="button" onClick={() => onReplace(true)}>
          Replace
        </button>
      </div>
    )
  } else if (field.kind === 'json') {
    control = (
      <div className="objstore-json">
        <textarea id={id} className="text-input mono secret-text" rows={4} autoComplete="off" spellCheck={false} value={value} placeholder='{ "type": "service_account", … }' onChange={(e) => onChange(e.target.value)} onBlur={onBlur} aria-invalid={!!error} />
        <div className="objstore-json-actions">
          <button type="button" className="button" onClick={onPickFile}>
            Choose file…
          </button>
          {saved && (
            <button type="button" className="button" onClick={() => onReplace(false)}>
              Keep saved
            </button>
          )}
        </div>
      </div>
    )
  } else {
    control = (
      <div className="saved-secret">
        <input id={id} className="text-input mono" type={secret ? 'password' : 'text'} autoComplete="off" spellCheck={false} value={value} placeholder={field.placeholder} onChange={(e) => onChange(e.target.value)} onBlur={onBlur} aria-invalid={!!error} />
        {secret && saved && (
          <button type="button" className="button" onClick={() => onReplace(false)}>
            Keep saved
          </button>
        )}
      </div>
    )
  }
  return (
    <div className={field.kind === 'json' ? 'dialog-field objstore-wide' : 'dialog-field'}>
      <label htmlFor={id} className="field-label">
        {field.label}
      </label>
      {control}
      {error ? <div className="field-error">{error}</div> : (note ?? field.hint) && <div className="muted small">{note ?? field.hint}</div>}
    </div>
  )
}
