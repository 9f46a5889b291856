import { describe, expect, it } from 'vitest'
import { createAppUrlCheck, isSafeExternalUrl, secureWebPreferences } from '../../src/main/security'

describe('isSafeExternalUrl', () => {
  it.each([
    ['https://lancedb.com/docs', true],
    ['http://localhost:8080/', true],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['smb://host/share', false],
    ['https://user:pw@host/', false],
    ['not a url', false],
    ['', false],
  ])('%s → %s', (url, expected) => {
    expect(isSafeExternalUrl(url)).toBe(expected)
  })
})

describe('createAppUrlCheck', () => {
  const index = 'file:///opt/app/out/renderer/index.html'
  it('accepts the renderer files and the dev server only', () => {
    const check = createAppUrlCheck(index, 'http://localhost:5173/')
    expect(check(index)).toBe(true)
    expect(check('file:///opt/app/out/renderer/assets/x.js')).toBe(true)
    expect(check('http://localhost:5173/index.html')).toBe(true)
    expect(check('file:///opt/app/out/main/index.js')).toBe(false)
    expect(check('file:///etc/passwd')).toBe(false)
    expect(check('http://localhost:5174/')).toBe(false)
    expect(check('https://example.com/')).toBe(false)
  })
  it('has no dev server in production', () => {
    expect(createAppUrlCheck(index)('http://localhost:5173/')).toBe(false)
  })
})

describe('secureWebPreferences', () => {
  it('isolates and sandboxes the renderer', () => {
    expect(secureWebPreferences('/p.js')).toMatchObject({
      preload: '/p.js',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    })
  })
})
