import { schemaHasField } from './check-records';
import type { WorkflowScope } from './check-references';
import { said } from './problems';

/**
 * A screen's `prefill` from the profile reads the account: some workflow declares `account` and
 * the pointer names a field of its schema, or the form would quietly start empty.
 */
export function checkProfilePrefills({ workflow, declared, schemas, report }: WorkflowScope): void {
  const accounts = declared.find((w) => w.account);
  const schema = accounts && schemas.find((entity) => entity.id === accounts.document)?.schema;
  workflow.screens.forEach((screen, i) => {
    for (const [target, source] of Object.entries(screen.prefill ?? {})) {
      if (typeof source === 'string') continue;
      const pointer = `/screens/${i}/prefill/${target.slice(1).replace(/\//g, '~1')}`;
      if (!accounts) report(pointer, said('noProfile'));
      else if (schema && !schemaHasField(schema, source.profile))
        report(
          pointer,
          said('noProfileField', { field: source.profile, schema: accounts.document }),
        );
    }
  });
}
