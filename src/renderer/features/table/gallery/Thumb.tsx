import type { Table as ArrowTable } from 'apache-arrow'
import { useEffect, useRef, useState } from 'react'
import { PAGE_ROWS } from '../usePages'
import { imageTypeOf } from './detect'
import type { DecodeResult, ThumbnailDecoder } from './decode'

const numberFormat = new Intl.NumberFormat('en-US')

/** One thumbnail: the image drawn from its decoded bitmap, or a labelled placeholder (null, not an image). */
export function Thumb({ row, page, column, decoder, decoderKey }: { row: number; page: ArrowTable | undefined; column: string; decoder: ThumbnailDecoder; decoderKey: string }) {
  const label = `Row ${numberFormat.format(row + 1)}`
  const vector = page?.getChild(column)
  const value: unknown = vector ? vector.get(row % PAGE_ROWS) : undefined
  const bytes = value instanceof Uint8Array ? value : null
  const type = bytes ? imageTypeOf(bytes) : null
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const thumbKey = `${decoderKey}\u0000${row}`
  const [result, setResult] = useState<{ key: string; state: 'ready' | 'unreadable' } | null>(null)
  const state = result?.key === thumbKey ? result.state : 'loading'

  // The bytes are read afresh (a new view of the page) on every render: the request follows the row, not them.
  const bytesRef = useRef(bytes)
  useEffect(() => {
    bytesRef.current = bytes
  })
  const loaded = bytes !== null
  useEffect(() => {
    const current = bytesRef.current
    if (!loaded || !current || !type) return
    // A slot reused for another row shows nothing until that row's thumbnail is drawn.
    if (canvasRef.current) canvasRef.current.width = canvasRef.current.height = 1
    return decoder.request(thumbKey, current, type, (decoded: DecodeResult) => {
      const canvas = canvasRef.current
      if (decoded === 'unreadable' || !canvas) {
        setResult({ key: thumbKey, state: 'unreadable' })
        return
      }
      canvas.width = decoded.width
      canvas.height = decoded.height
      canvas.getContext('2d')?.drawImage(decoded, 0, 0)
      setResult({ key: thumbKey, state: 'ready' })
    })
  }, [decoder, thumbKey, loaded, type])

  if (!vector) return <div className="gallery-thumb gallery-pending" aria-busy="true" aria-label={`${label}: loading`} role="img" />
  if (value === null || value === undefined) return <Placeholder label={label} text="null" kind="null" />
  if (!type) return <Placeholder label={label} text="not an image" kind="other" />
  if (state === 'unreadable') return <Placeholder label={label} text="unreadable image" kind="other" />
  return (
    <canvas
      ref={canvasRef}
      className="gallery-thumb"
      role="img"
      aria-label={label}
      data-state={state}
      data-type={type}
      width={1}
      height={1}
    />
  )
}

function Placeholder({ label, text, kind }: { label: string; text: string; kind: 'null' | 'other' }) {
  return (
    <div className={`gallery-thumb gallery-placeholder ${kind}`} role="img" aria-label={`${label}: ${text}`}>
      {text}
    </div>
  )
}
