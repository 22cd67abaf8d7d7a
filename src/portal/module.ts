/*
 * The seam between the portal shell and the business modules' browser code: a module imports
 * this file (and engine, core), nothing else of src/portal (eslint.config.js). What the shell
 * offers a module's pages is this one list.
 */
export { usePortal } from './context';
export { useLanguage } from './useLanguage';
export { HOME_PATH } from './paths';
export { lazyPage } from './lazyPage';
export { useModuleSwitch } from './moduleSwitches';
export { NotFoundPage } from './pages/MessagePage';
export { downloadFromApi } from './download';
