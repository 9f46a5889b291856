import type { SheetsRead } from '../../../contract'
import type { ImportChoices } from './useImportChoices'

/** What the file name of a table made from one sheet of a workbook looks like: `<table name>_<sheet>`. */
export function sheetTableName(base: string, sheet: string): string {
  const part = sheet.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^_+|_+$/g, '') || 'sheet'
  return `${base}_${part}`.slice(0, 255)
}

/** The sheets ticked for import (the one shown when none was ticked), in tab order. */
export function sheetsToImport(choices: ImportChoices, sheets: SheetsRead): string[] {
  return choices.checkedSheets ?? [choices.sheet ?? sheets.chosen]
}

/**
 * Excel: how the workbook is read, as rows of the sheet's grid — the sheet shown, the sheets to import (a table each,
 * or one table), the header row (found below title rows unless typed) and a cell range. Drawn from the sheets as last
 * read, so a header row or range that fails can be fixed here.
 */
export function SheetLayoutFields({ idPrefix, choices, sheets, tableName }: { idPrefix: string; choices: ImportChoices; sheets: SheetsRead; tableName: string }) {
  const { sheet, setSheet, headerRowText, setHeaderRowText, headerRowProblem, rangeText, setRangeText, rangeProblem, toggleSheet, sheetsAs, setSheetsAs } = choices
  const shown = sheet ?? sheets.chosen
  const ticked = sheetsToImport(choices, sheets)
  const found = headerRowText.trim() === '' && sheets.headerRow !== undefined
  return (
    <>
      {sheets.names.length > 1 && (
        <>
          <label className="field-label" htmlFor={`${idPrefix}-sheet`}>
            Sheet
          </label>
          <div>
            <select id={`${idPrefix}-sheet`} className="text-input small" value={shown} onChange={(e) => setSheet(e.target.value)}>
              {sheets.names.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
            <div className="muted small">The sheet shown below. The workbook has {sheets.names.length} sheets.</div>
          </div>
          <span className="field-label">Import sheets</span>
          <div>
            <div className="import-sheet-list" role="group" aria-label="Sheets to import">
              {sheets.names.map((n) => (
                <label key={n} className="checkbox">
                  <input
                    type="checkbox"
                    checked={ticked.includes(n)}
                    disabled={ticked.length === 1 && ticked[0] === n}
                    onChange={(e) => toggleSheet(n, e.target.checked, sheets.names, shown)}
                  />
                  {n}
                </label>
              ))}
            </div>
            {ticked.length > 1 && (
              <div className="segmented" role="radiogroup" aria-label="Sheets as">
                {(['tables', 'one'] as const).map((as) => (
                  <label key={as} className={`segment${sheetsAs === as ? ' checked' : ''}`}>
                    <input type="radio" name={`${idPrefix}-sheets-as`} value={as} checked={sheetsAs === as} onChange={() => setSheetsAs(as)} />
                    {as === 'tables' ? 'A table per sheet' : 'One table'}
                  </label>
                ))}
              </div>
            )}
            {ticked.length > 1 && (
              <div className="muted small">
                {sheetsAs === 'tables'
                  ? `Tables ${ticked.map((n) => sheetTableName(tableName || 'table', n)).join(', ')}; each sheet read as the one shown is.`
                  : 'The sheets one after another; their header rows must name the same columns.'}
              </div>
            )}
          </div>
        </>
      )}

      <label className="field-label" htmlFor={`${idPrefix}-header-row`}>
        Header row
      </label>
      <div>
        <input
          id={`${idPrefix}-header-row`}
          className="text-input small mono import-row-input"
          inputMode="numeric"
          autoComplete="off"
          placeholder={sheets.headerRow !== undefined ? String(sheets.headerRow) : 'found'}
          value={headerRowText}
          onChange={(e) => setHeaderRowText(e.target.value)}
          aria-invalid={!!headerRowProblem}
          aria-describedby={`${idPrefix}-header-row-help`}
        />
        <div id={`${idPrefix}-header-row-help`} className={headerRowProblem ? 'field-error' : 'muted small'}>
          {headerRowProblem
            ? `The header row ${headerRowProblem}`
            : found
              ? `Row ${sheets.headerRow} names the columns${sheets.titleRows ? `; ${sheets.titleRows === 1 ? 'the title row' : `${sheets.titleRows} title rows`} above it left out` : ''}. Type another row to change it.`
              : `Row ${headerRowText.trim()} names the columns; rows above it are left out. Clear the box to find the header row again.`}
        </div>
      </div>

      <label className="field-label" htmlFor={`${idPrefix}-range`}>
        Cells
      </label>
      <div>
        <input
          id={`${idPrefix}-range`}
          className="text-input small mono import-row-input"
          autoComplete="off"
          spellCheck={false}
          placeholder="e.g. B3:F200"
          value={rangeText}
          onChange={(e) => setRangeText(e.target.value)}
          aria-invalid={!!rangeProblem}
          aria-describedby={`${idPrefix}-range-help`}
        />
        <div id={`${idPrefix}-range-help`} className={rangeProblem ? 'field-error' : 'muted small'}>
          {rangeProblem ? `The range ${rangeProblem}` : sheets.range ? `Only cells ${sheets.range} are read.` : 'Empty: every cell of the sheet.'}
        </div>
      </div>
    </>
  )
}
