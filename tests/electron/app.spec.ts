import { desktopFlows } from '../desktop/flows'
import { electronBinary, launchElectron } from './launcher'

/**
 * The desktop flows on the real Electron app (the same suite the rig runs in tests/desktop/rig.spec.ts). It needs
 * the Electron binary, which `npm start` downloads on a user's machine; where it is absent (e.g. a sandbox without
 * internet) it skips with one line.
 */
const binary = electronBinary()
if (!binary) console.log('electron: skipped — no Electron binary installed here (npm start downloads it on a normal machine)')

desktopFlows('desktop app (Electron)', launchElectron, binary ? null : 'no Electron binary installed here')
