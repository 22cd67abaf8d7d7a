/** Generic, business-free React pieces: everything they show comes from the definitions. */
export {
  CatalogFinder,
  PAGE_SIZES,
  type CatalogFinderProps,
  type CatalogEntryRecord,
} from './CatalogFinder';
export { CatalogEntryForm, type CatalogEntryFormProps } from './CatalogEntryForm';
export { FilterBar, type FilterBarProps, type FilterField } from './FilterBar';
export { formatDateTime, localInputToIso, toLocalInput, formatCell } from './format';
export { loadValidator, type StandaloneValidator } from './validator';
