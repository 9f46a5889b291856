import { autocompletion, closeBrackets, closeBracketsKeymap, closeCompletion, completionKeymap } from '@codemirror/autocomplete'
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands'
import { PostgreSQL, sql, type SQLNamespace } from '@codemirror/lang-sql'
import { HighlightStyle, bracketMatching, syntaxHighlighting } from '@codemirror/language'
import { Compartment, Prec, StateEffect, StateField, type Extension } from '@codemirror/state'
import { Decoration, EditorView, highlightActiveLine, keymap, lineNumbers, placeholder, type DecorationSet } from '@codemirror/view'
import { tags } from '@lezer/highlight'

/** Set (or clear, with null) the span of the last error, `[from, to)` in the document. */
export const setErrorSpan = StateEffect.define<{ from: number; to: number } | null>()

const errorMark = Decoration.mark({ class: 'sql-error-mark', attributes: { 'data-testid': 'sql-error-mark' } })

/**
 * The underlined span of the last error (DuckDB's position, in the editor's text): it follows edits around it and
 * goes when the text it marks is edited away, or when the next run starts.
 */
const errorField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, transaction) {
    let next = marks.map(transaction.changes)
    for (const effect of transaction.effects) {
      if (!effect.is(setErrorSpan)) continue
      const span = effect.value
      if (!span) next = Decoration.none
      else {
        // An empty span (an unexpected end) marks the character before it, so there is something to see.
        const length = transaction.state.doc.length
        const to = Math.min(length, Math.max(span.to, span.from + 1))
        const from = Math.max(0, Math.min(span.from, to - 1))
        next = to > from ? Decoration.set([errorMark.range(from, to)]) : Decoration.none
      }
    }
    return next
  },
  provide: (field) => EditorView.decorations.from(field),
})

/**
 * The editor's look, in its own style sheet: the editor lives in a shadow root (SqlEditor.tsx), where the app's
 * CSS does not reach but its colour variables do.
 */
const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '13px', backgroundColor: 'var(--bg)', color: 'var(--text)' },
  '&.cm-focused': { outline: '2px solid var(--accent)', outlineOffset: '-2px' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)', lineHeight: '1.5' },
  '.cm-gutters': { backgroundColor: 'var(--bg-pane)', color: 'var(--text-faint)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'color-mix(in srgb, var(--accent) 6%, transparent)' },
  '.cm-placeholder': { color: 'var(--text-faint)' },
  // The last error's span: a wavy underline, as a spell checker marks a word.
  '.sql-error-mark': { textDecoration: 'underline wavy var(--error)', textDecorationSkipInk: 'none', textUnderlineOffset: '3px', backgroundColor: 'var(--error-bg)' },
})

/**
 * SQL's colours, from the theme's variables (CodeMirror's default style is for a light ground only: its keywords
 * were 1.6:1 on the dark theme). Each meets AA on the editor's ground in both themes (tests/e2e/theme-contrast.spec.ts).
 */
const highlight = HighlightStyle.define([
  { tag: tags.keyword, color: 'var(--vector)' },
  { tag: [tags.typeName, tags.bool, tags.null, tags.standard(tags.name)], color: 'var(--accent-fg)' },
  { tag: tags.number, color: 'var(--num)' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--time)' },
  { tag: tags.comment, color: 'var(--text-muted)', fontStyle: 'italic' },
  { tag: tags.invalid, color: 'var(--error)' },
])

/**
 * Typing over a selection: Chromium's own edit of the page would leave spans with inline styles behind (it keeps the
 * replaced text's look), which the CSP refuses, loudly. CodeMirror makes the same change itself instead, through the
 * same input handlers (closing brackets) a typed character goes through.
 */
const typeOverSelection = EditorView.domEventHandlers({
  beforeinput(event, view) {
    const range = view.state.selection.main
    if (event.inputType !== 'insertText' || event.data === null || range.empty || view.composing) return false
    event.preventDefault()
    const text = event.data
    const insert = () => view.state.update(view.state.replaceSelection(text), { userEvent: 'input.type', scrollIntoView: true })
    if (!view.state.facet(EditorView.inputHandler).some((handler) => handler(view, range.from, range.to, text, insert))) view.dispatch(insert())
    return true
  },
})

/** The dialect lang-sql highlights and completes with: DuckDB's SQL is PostgreSQL's, near enough for both. */
export function sqlLanguage(schema: SQLNamespace): Extension {
  return sql({ dialect: PostgreSQL, schema, upperCaseKeywords: false })
}

/**
 * The editor's extensions: SQL with completion (the `language` compartment takes the catalog's names when they
 * arrive), undo history, brackets, line numbers, the error underline, and Ctrl/Cmd+Enter to run (above every
 * other key binding: completion's Enter must not take it).
 */
export function editorExtensions(options: { language: Compartment; onRun(): void; onChange(): void }): Extension[] {
  return [
    theme,
    lineNumbers(),
    history(),
    bracketMatching(),
    closeBrackets(),
    highlightActiveLine(),
    syntaxHighlighting(highlight),
    autocompletion(),
    options.language.of(sqlLanguage({})),
    errorField,
    typeOverSelection,
    placeholder('SELECT … FROM namespace.table   (Ctrl/Cmd+Enter runs the statement under the caret)'),
    // Running closes the completion list: the user is done typing.
    Prec.highest(keymap.of([{ key: 'Mod-Enter', run: (view) => (closeCompletion(view), options.onRun(), true), preventDefault: true }])),
    keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap]),
    EditorView.contentAttributes.of({ 'aria-label': 'SQL' }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) options.onChange()
    }),
    EditorView.lineWrapping,
  ]
}
