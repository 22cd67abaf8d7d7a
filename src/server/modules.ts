/**
 * The server-side code of business modules: named effects, guards and server rules that
 * workflows reference. Imported before any definition is loaded, so a workflow naming them is
 * accepted. Each module registers its own, in one file.
 */
import './connectid/effects';
import './payments/effects';
