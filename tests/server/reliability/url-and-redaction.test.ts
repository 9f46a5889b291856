import { describe, expect, it } from 'vitest'
import { MASK, redactError, redactText } from '../../../src/core/redact'
import { AppError } from '../../../src/contract'
import { createAppUrlCheck } from '../../../src/main/security'

describe('createAppUrlCheck compares parsed, normalised paths', () => {
  const isApp = createAppUrlCheck('file:///opt/app/out/renderer/index.html', 'http://localhost:5173')
  it('accepts the app and its assets', () => {
    expect(isApp('file:///opt/app/out/renderer/index.html')).toBe(true)
    expect(isApp('file:///opt/app/out/renderer/assets/index-abc.js')).toBe(true)
    expect(isApp('file:///opt/app/out/renderer/index.html#/table')).toBe(true)
    expect(isApp('http://localhost:5173/index.html')).toBe(true)
  })
  it('refuses escapes through encoded or plain dot segments, other hosts and look-alike prefixes', () => {
    for (const url of [
      'file:///opt/app/out/renderer/..%2F..%2Fsecret.html',
      'file:///opt/app/out/renderer/%2e%2e/%2e%2e/secret.html',
      'file:///opt/app/out/renderer/..%5C..%5Csecret.html',
      'file:///opt/app/out/renderer/../../etc/passwd',
      'file:///opt/app/out/renderer-evil/index.html',
      'file://evil-host/opt/app/out/renderer/index.html',
      'file:///opt/app/out/renderer/%E0%A4%A.html',
      'file:///opt/app/out/renderer/%00.html',
      'http://localhost:5174/index.html',
      'https://example.com/',
      'not a url',
    ]) {
      expect(isApp(url), url).toBe(false)
    }
  })
})

describe('secret redaction covers the encoded forms a hostile server may echo', () => {
  const secret = 'sk-Live/Key+42=='
  const cases = {
    plain: secret,
    'URL-encoded': encodeURIComponent(secret),
    'URL-encoded, lower-case hex': encodeURIComponent(secret).toLowerCase(),
    'lower-cased': secret.toLowerCase(),
    'upper-cased': secret.toUpperCase(),
    base64: Buffer.from(secret).toString('base64'),
    base64url: Buffer.from(secret).toString('base64url'),
    'inside Basic user:key': Buffer.from(`someone:${secret}`).toString('base64'),
    'inside Basic ab:key': Buffer.from(`ab:${secret}`).toString('base64'),
    'inside Basic abc:key': Buffer.from(`abc:${secret}`).toString('base64'),
  }
  for (const [name, echoed] of Object.entries(cases)) {
    it(`masks the ${name} form`, () => {
      const text = `server said: invalid key ${echoed} (check it)`
      const out = redactText(text, [secret])
      expect(out).toContain(MASK)
      expect(out).not.toContain(echoed)
      expect(out).toMatch(/^server said: invalid key .*\(check it\)$/)
    })
  }
  it('masks encoded forms in errors, and leaves ordinary text alone', () => {
    const error = redactError(new AppError('unauthenticated', `Rejected: ${encodeURIComponent(secret)}`, { detail: Buffer.from(secret).toString('base64') }), [secret])
    expect(error.message).not.toContain(encodeURIComponent(secret))
    expect(error.detail).toBe(MASK)
    expect(redactText('nothing secret here', [secret])).toBe('nothing secret here')
  })
})
