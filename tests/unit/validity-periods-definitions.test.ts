import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { serverModules } from '../../src/modules/server';
import { DefinitionsError, loadDefinitions } from '../../src/server/definitions/load';
import { copyDefinitions, readProjectJson } from '../support/definitions-dir';

/** A grant's period comes from the catalogue the workflow declares, checked at load. */
describe('validity periods declared by a workflow', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const remove of cleanup.splice(0)) await remove();
  });

  const loadWith = async (periods: NonNullable<WorkflowDefinition['validity']>['periods']) => {
    const copy = await copyDefinitions();
    cleanup.push(copy.remove);
    const workflow = await readProjectJson<WorkflowDefinition>(
      'workflows/sponsor-application.json',
    );
    await copy.write('workflows/sponsor-application.json', {
      ...workflow,
      validity: { ...workflow.validity, periods },
    });
    return loadDefinitions(copy.dir, serverModules);
  };

  it('refuses an unknown catalogue and fields the catalogue lacks, by pointer', async () => {
    const unknown = await loadWith({ catalog: 'periods', unit: 'u', count: 'c' }).catch(
      (e: unknown) => e,
    );
    expect(unknown).toBeInstanceOf(DefinitionsError);
    expect((unknown as DefinitionsError).message).toContain(
      'workflows/sponsor-application.json#/validity/periods/catalog: no catalogue "periods" in catalogs/',
    );
    const misspelt = await loadWith({
      catalog: 'sub-document',
      unit: 'allowedPeriodType',
      count: 'allowedPeriodCount',
    }).catch((e: unknown) => e);
    expect((misspelt as DefinitionsError).problems).toEqual([
      {
        file: 'workflows/sponsor-application.json',
        pointer: '/validity/periods/count',
        message: 'catalogue "sub-document" has no field "allowedPeriodCount"',
      },
    ]);
  });

  it('accepts the sponsor module’s declaration', async () => {
    const bundle = await loadWith({
      catalog: 'sub-document',
      unit: 'allowedPeriodType',
      count: 'allowedPeriodNumber',
    });
    const sponsor = bundle.workflows.find((w) => w.id === 'sponsor-application');
    expect(sponsor?.validity?.periods.catalog).toBe('sub-document');
  });
});
