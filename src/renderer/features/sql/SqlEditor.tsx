import { Compartment, EditorState } from '@codemirror/state'
import { EditorView } from '@codemirror/view'
import type { SQLNamespace } from '@codemirror/lang-sql'
import { useEffect, useImperativeHandle, useLayoutEffect, useRef, type Ref } from 'react'
import { editorExtensions, setErrorSpan, sqlLanguage } from './editorSetup'
import { statementAt, type Statement } from './statements'

export interface SqlEditorHandle {
  /** What Run sends: the selection, or the statement under the caret. */
  statement(): Statement | null
  text(): string
  /** Replace the whole text (a query from the history), caret at its end. */
  setText(text: string): void
  focus(): void
}

/**
 * The SQL editor: CodeMirror 6 with lang-sql (see docs/ARCHITECTURE.md, "The query view"), in a shadow root of its
 * own (the CSP, below). Its text box is the `textbox` named **SQL**. Uncontrolled — CodeMirror owns the text; the view reads it through `handle`.
 * `errorSpan` underlines the last error's span (offsets in the whole text).
 */
export function SqlEditor({
  initial,
  schema,
  errorSpan,
  onRun,
  onChange,
  handle,
}: {
  initial: string
  schema: SQLNamespace
  errorSpan: { from: number; to: number } | null
  onRun(): void
  onChange?(text: string): void
  handle: Ref<SqlEditorHandle>
}) {
  const host = useRef<HTMLDivElement>(null)
  const viewRef = useRef<EditorView | null>(null)
  const language = useRef(new Compartment())
  // The latest callbacks, read by the editor's key binding and listener (made once).
  const callbacks = useRef({ onRun, onChange })
  useLayoutEffect(() => {
    callbacks.current = { onRun, onChange }
  })

  useEffect(() => {
    // A shadow root of its own: CodeMirror adds its styles at run time, which the app's CSP (style-src 'self') refuses
    // as <style> elements but allows as a constructed style sheet — what CodeMirror uses inside a shadow root.
    const element = host.current!
    const shadow = element.shadowRoot ?? element.attachShadow({ mode: 'open' })
    const parent = document.createElement('div')
    parent.style.height = '100%'
    shadow.replaceChildren(parent)
    const view = new EditorView({
      root: shadow,
      parent,
      state: EditorState.create({
        doc: initial,
        extensions: editorExtensions({
          language: language.current,
          onRun: () => callbacks.current.onRun(),
          onChange: () => callbacks.current.onChange?.(viewRef.current?.state.doc.toString() ?? ''),
        }),
      }),
    })
    viewRef.current = view
    return () => {
      view.destroy()
      viewRef.current = null
    }
    // The editor is made once; `initial` is only its first text.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  useEffect(() => {
    viewRef.current?.dispatch({ effects: language.current.reconfigure(sqlLanguage(schema)) })
  }, [schema])

  useEffect(() => {
    const view = viewRef.current
    if (!view) return
    const length = view.state.doc.length
    const span = errorSpan && errorSpan.from <= length ? { from: errorSpan.from, to: Math.min(errorSpan.to, length) } : null
    view.dispatch({ effects: setErrorSpan.of(span) })
  }, [errorSpan])

  useImperativeHandle(handle, () => ({
    statement: () => {
      const view = viewRef.current
      if (!view) return null
      const { from, to } = view.state.selection.main
      return statementAt(view.state.doc.toString(), { from, to })
    },
    text: () => viewRef.current?.state.doc.toString() ?? '',
    setText: (text) => {
      const view = viewRef.current
      if (!view) return
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: text.length } })
      view.focus()
    },
    focus: () => viewRef.current?.focus(),
  }))

  return <div ref={host} className="sql-editor" />
}
