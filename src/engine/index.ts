/** Generic, business-free React pieces: everything they show comes from the definitions. */
export { CatalogFinder, type CatalogFinderProps, type CatalogEntryRecord } from './CatalogFinder';
export { CatalogEntryForm, type CatalogEntryFormProps } from './CatalogEntryForm';
export { FilterBar, type FilterBarProps, type FilterField } from './FilterBar';
export { formatDateTime, localInputToIso, toLocalInput, formatCell } from './format';
export { loadValidator, type StandaloneValidator } from './validator';
export { PAGE_SIZES, useServerTable, type ServerTable, type TableRow } from './useServerTable';
export { toCsv, downloadText } from './csv';
export { DocumentFinder, type DocumentFinderProps } from './documents/DocumentFinder';
export {
  DocumentInformation,
  VersionList,
  HistoryTable,
  DocumentTimeline,
  StatusBadge,
  actorName,
  operationText,
} from './documents/DocumentChrome';
export { LatestActionNotes } from './documents/LatestActionNotes';
