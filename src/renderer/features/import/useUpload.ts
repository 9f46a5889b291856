import { useMutation } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import type { AppErrorData, ImportSource } from '../../../contract'
import { isAbort, uploadFile } from '../../api'
import { errorData } from '../../components/ErrorPanel'
import type { PendingFile } from './dropped'
import { discardUpload } from './mutations'

export type UploadState = { phase: 'uploading'; sent: number; total: number } | { phase: 'ready'; source: ImportSource } | { phase: 'failed'; error: AppErrorData }

/**
 * Where the sheet's file is read from: its path (Electron), or — in the harness, where a browser has no paths —
 * an upload staged once with progress. The staged copy is discarded when the sheet closes, unless a job took it
 * (`taken()`, called once `import/start` answered).
 */
export function useUpload(item: PendingFile): { upload: UploadState; source: ImportSource | null; taken(): void } {
  const [upload, setUpload] = useState<UploadState>(() => (item.path ? { phase: 'ready', source: { path: item.path } } : { phase: 'uploading', sent: 0, total: item.bytes }))
  const started = useRef(false)
  const { mutate: discard } = useMutation(discardUpload)
  const uploadRef = useRef<string | null>(null)

  useEffect(() => {
    if (item.path || !item.file) return
    const controller = new AbortController()
    uploadFile(item.file, ({ sent, total }) => setUpload({ phase: 'uploading', sent, total }), controller.signal)
      .then((staged) => {
        uploadRef.current = staged.uploadId
        setUpload({ phase: 'ready', source: { uploadId: staged.uploadId } })
      })
      .catch((error: unknown) => {
        if (!isAbort(error)) setUpload({ phase: 'failed', error: errorData(error) })
      })
    return () => {
      controller.abort()
      const uploadId = uploadRef.current
      // The sheet is gone: a failure has nowhere to show (as before).
      if (uploadId && !started.current) discard({ uploadId }, { onError: () => undefined })
    }
  }, [item, discard])

  return {
    upload,
    source: upload.phase === 'ready' ? upload.source : null,
    taken: () => {
      started.current = true
    },
  }
}
