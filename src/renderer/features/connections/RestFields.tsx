import { CloseIcon } from '../../components/Icons'
import type { FragmentProps } from './connectionKinds'
import { Field } from './ConnectionDialogShell'
import { keepsSavedSecret, newHeaderRow, type ConnectionForm, type HeaderRow } from './connectionForm'

/**
 * A REST server's fields: name, endpoint, authentication, database, extra headers. A saved secret is shown as
 * "••••• saved" with a Replace button: it never comes back from main.
 */
export function RestFields({ state }: FragmentProps<'rest'>) {
  const { form, setForm, update, shown, touch } = state
  const secretLabel = form.authKind === 'bearer' ? 'Bearer token' : 'API key'
  return (
    <>
      <Field label="Name" id="conn-name" error={shown('name')}>
        <input id="conn-name" className="text-input" autoComplete="off" value={form.name} placeholder="Team catalog" onChange={(e) => update({ name: e.target.value })} onBlur={() => touch('name')} aria-invalid={!!shown('name')} />
      </Field>
      <Field label="Endpoint URL" id="conn-endpoint" error={shown('endpoint')}>
        <input id="conn-endpoint" className="text-input mono" type="url" autoComplete="off" spellCheck={false} value={form.endpoint} placeholder="https://catalog.example.com" onChange={(e) => update({ endpoint: e.target.value })} onBlur={() => touch('endpoint')} aria-invalid={!!shown('endpoint')} />
      </Field>
      <fieldset className="dialog-fieldset">
        <legend className="field-label">Authentication</legend>
        <div className="segmented" role="radiogroup" aria-label="Authentication">
          {(
            [
              ['api-key', 'API key'],
              ['bearer', 'Bearer token'],
              ['none', 'None'],
            ] as const
          ).map(([kind, label]) => (
            <label key={kind} className={form.authKind === kind ? 'segment checked' : 'segment'}>
              <input type="radio" name="auth-kind" value={kind} checked={form.authKind === kind} onChange={() => update({ authKind: kind })} />
              {label}
            </label>
          ))}
        </div>
        {form.authKind !== 'none' && (
          <Field label={secretLabel} id="conn-secret" error={shown('secret')} hint={form.authKind === 'api-key' ? 'Sent as the x-api-key header.' : 'Sent as Authorization: Bearer <token>.'}>
            {keepsSavedSecret(form) ? (
              <div className="saved-secret">
                <span className="saved-secret-dots" aria-label={`${secretLabel} saved`}>
                  ••••• saved
                </span>
                <button type="button" className="button" onClick={() => update({ replacingSecret: true, secret: '' })}>
                  Replace
                </button>
              </div>
            ) : (
              <div className="saved-secret">
                <input id="conn-secret" className="text-input mono" type="password" autoComplete="off" spellCheck={false} value={form.secret} onChange={(e) => update({ secret: e.target.value })} onBlur={() => touch('secret')} aria-invalid={!!shown('secret')} />
                {form.secretSaved && (
                  <button type="button" className="button" onClick={() => update({ replacingSecret: false, secret: '' })}>
                    Keep saved
                  </button>
                )}
              </div>
            )}
          </Field>
        )}
      </fieldset>
      <fieldset className="dialog-fieldset">
        <legend className="field-label">Database</legend>
        <div className="database-row">
          <select
            className="text-input"
            aria-label="Database selection"
            value={form.databaseKind}
            onChange={(e) => update({ databaseKind: e.target.value as ConnectionForm['databaseKind'] })}
          >
            <option value="none">None (the server’s default)</option>
            <option value="name">Database name (x-service-database)</option>
            <option value="prefix">Database prefix (x-service-database-prefix)</option>
          </select>
          {form.databaseKind !== 'none' && (
            <input className="text-input" aria-label={form.databaseKind === 'name' ? 'Database name' : 'Database prefix'} autoComplete="off" spellCheck={false} value={form.databaseValue} onChange={(e) => update({ databaseValue: e.target.value })} onBlur={() => touch('database')} aria-invalid={!!shown('database')} />
          )}
        </div>
        {shown('database') && <div className="field-error">{shown('database')}</div>}
      </fieldset>
      <HeaderRows form={form} setForm={setForm} shown={shown} touch={touch} />
    </>
  )
}

/** "Extra headers": name, value (masked when secret, "••••• saved" once saved), the Secret box, Remove. */
function HeaderRows({ form, setForm, shown, touch }: Pick<FragmentProps<'rest'>['state'], 'form' | 'setForm' | 'shown' | 'touch'>) {
  const updateHeader = (index: number, patch: Partial<HeaderRow>) =>
    setForm((previous) => ({ ...previous, headers: previous.headers.map((h, i) => (i === index ? { ...h, ...patch } : h)) }))
  return (
    <fieldset className="dialog-fieldset">
      <legend className="field-label">Extra headers</legend>
      {form.headers.length === 0 && <p className="muted small">None. Add one if your server or proxy needs it.</p>}
      {form.headers.map((h, index) => (
        <div key={h.key} className="header-row-wrap">
          <div className="header-row">
            <input className="text-input mono" aria-label={`Header ${index + 1} name`} placeholder="X-Header-Name" autoComplete="off" spellCheck={false} value={h.name} onChange={(e) => updateHeader(index, { name: e.target.value })} onBlur={() => touch(`header.${index}.name`)} aria-invalid={!!shown(`header.${index}.name`)} />
            {h.secret && h.saved && !h.replacing ? (
              <span className="saved-secret">
                <span className="saved-secret-dots">••••• saved</span>
                <button type="button" className="button" onClick={() => updateHeader(index, { replacing: true, value: '' })}>
                  Replace
                </button>
              </span>
            ) : (
              <input className="text-input mono" aria-label={`Header ${index + 1} value`} type={h.secret ? 'password' : 'text'} autoComplete="off" spellCheck={false} value={h.value} onChange={(e) => updateHeader(index, { value: e.target.value })} onBlur={() => touch(`header.${index}.value`)} aria-invalid={!!shown(`header.${index}.value`)} />
            )}
            <label className="checkbox">
              <input type="checkbox" checked={h.secret} onChange={(e) => updateHeader(index, { secret: e.target.checked, ...(e.target.checked ? {} : { replacing: true, value: '' }) })} />
              Secret
            </label>
            <button type="button" className="icon-button" aria-label={`Remove header ${index + 1}`} title="Remove" onClick={() => setForm((p) => ({ ...p, headers: p.headers.filter((_, i) => i !== index) }))}>
              <CloseIcon />
            </button>
          </div>
          {(shown(`header.${index}.name`) ?? shown(`header.${index}.value`)) && <div className="field-error">{shown(`header.${index}.name`) ?? shown(`header.${index}.value`)}</div>}
        </div>
      ))}
      <div>
        <button type="button" className="link-button" onClick={() => setForm((p) => ({ ...p, headers: [...p.headers, newHeaderRow()] }))}>
          + Add header
        </button>
      </div>
    </fieldset>
  )
}
