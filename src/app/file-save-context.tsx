import { createContext, type ReactNode, useContext } from 'react';
import { saveText } from '../services/file-save.js';

/** Hands a text made in the browser to the user as a downloaded file (nothing is sent anywhere). */
export type SaveTextFile = (text: string, fileName: string, type: string) => void;

const FileSaveContext = createContext<SaveTextFile | null>(null);

/** Provides the browser's file save (src/services/file-save.ts) to views that offer a download of what they show. */
export function FileSaveProvider({ children }: { children: ReactNode }) {
  return <FileSaveContext.Provider value={saveText}>{children}</FileSaveContext.Provider>;
}

/** The file save of `FileSaveProvider`; views call it instead of touching the browser's download machinery. */
export function useSaveTextFile(): SaveTextFile {
  const save = useContext(FileSaveContext);
  if (!save) throw new Error('useSaveTextFile is used outside FileSaveProvider');
  return save;
}
