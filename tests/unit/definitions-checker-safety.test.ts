import { describe, expect, it } from 'vitest';
import { serverModules } from '../../src/modules/server';
import { PROJECT_ROOT } from '../../src/server/config';
import type {
  CatalogDefinition,
  EntityDefinition,
  WorkflowDefinition,
} from '../../src/core/definitions/types';
import type { RuleUse } from '../../src/core/rules/types';
import { readDefinitionFiles, type DefinitionFiles } from '../../src/server/definitions/files';
import {
  checkDefinitions,
  DefinitionsError,
  type DefinitionProblem,
} from '../../src/server/definitions/load';

/**
 * What broke the service once published, refused by the checker instead (load.ts and its
 * check-*.ts), each problem naming its file, the JSON pointer of the mistake and how to mend it:
 * a name leading nowhere (a catalogue, a catalogue's field, a document type, a schema field), a
 * status no document can reach or leave, two pages on one route. Each case is the project's
 * definitions with one change, checked as the studio checks a draft (files held in memory).
 */

const shipped: DefinitionFiles = await readDefinitionFiles(PROJECT_ROOT);

type Change<T> = (definition: T) => void;

/** The project's definition files with `file` changed by `change`. */
function filesWith<T>(file: string, change: Change<T>): DefinitionFiles {
  const files = new Map(shipped);
  const definition = JSON.parse(files.get(file) ?? 'null') as T;
  change(definition);
  files.set(file, JSON.stringify(definition));
  return files;
}

/** The problems the checker refuses the changed definitions with (failing when accepted). */
async function problemsWith<T>(file: string, change: Change<T>): Promise<DefinitionProblem[]> {
  try {
    await checkDefinitions(filesWith(file, change), serverModules);
  } catch (error) {
    if (error instanceof DefinitionsError) return error.problems;
    throw error;
  }
  throw new Error('the definitions were accepted');
}

/** The warnings of a check the changed definitions pass. */
async function warningsWith<T>(file: string, change: Change<T>): Promise<DefinitionProblem[]> {
  const warnings: DefinitionProblem[] = [];
  await checkDefinitions(filesWith(file, change), serverModules, {
    warn: (warning) => warnings.push(warning),
  });
  return warnings;
}

/** A definition as shipped, to find where a change goes. */
function shippedJson<T>(file: string): T {
  return JSON.parse(shipped.get(file) ?? 'null') as T;
}

const SPONSOR = 'workflows/sponsor-application.json';
const VISA = 'workflows/visa-application.json';
const ACCOUNT = 'workflows/account.json';
const INBOX = 'workflows/inbox-message.json';
const INVOICE = 'workflows/payment-invoice.json';
const VISA_SCHEMA = 'schemas/visa-application.schema.json';
const SPONSOR_SCHEMA = 'schemas/sponsor-application.schema.json';
const ACCESS_UNIT_SCHEMA = 'schemas/access-unit.schema.json';

type States = Record<string, { on?: Record<string, unknown>; type?: 'final' }>;
const statesOf = (workflow: WorkflowDefinition) => workflow.machine.states as States;
type Ui = Record<string, Record<string, unknown>>;
const uiOf = (entity: EntityDefinition) => entity.uiSchema as unknown as Ui;
const optionsAt = (ui: Record<string, unknown>) => ui['ui:options'] as Record<string, unknown>;

/** A server rule added at the end of the visa's rules; its index is where it lands. */
const VISA_RULES = shippedJson<EntityDefinition>(VISA_SCHEMA).rules!.length;
const addRule = (use: Omit<RuleUse, 'path'>) => (entity: EntityDefinition) =>
  void entity.rules!.push({
    path: '/applicant/birthCountry',
    server: true,
    message: 'validation.sponsorReference',
    ...use,
  } as RuleUse);
const REFERENCE_RULE = shippedJson<EntityDefinition>(VISA_SCHEMA).rules!.findIndex(
  (use) => use.rule === 'documentReference',
);

describe('the checker: server rules naming a catalogue or another document type', () => {
  it('refuses a catalogEntryExists naming a catalogue that does not exist', async () => {
    const problems = await problemsWith(
      VISA_SCHEMA,
      addRule({ rule: 'catalogEntryExists', catalog: 'countree' }),
    );
    expect(problems).toEqual([
      {
        file: VISA_SCHEMA,
        pointer: `/rules/${VISA_RULES}/catalog`,
        message: 'no catalogue "countree" in catalogs/',
      },
    ]);
  });

  it('refuses a catalogEntryExists naming no catalogue, which would fail every value', async () => {
    const problems = await problemsWith(VISA_SCHEMA, addRule({ rule: 'catalogEntryExists' }));
    expect(problems).toEqual([
      {
        file: VISA_SCHEMA,
        pointer: `/rules/${VISA_RULES}`,
        message:
          'rule "catalogEntryExists" needs "catalog", the id of the catalogue whose entries the value names: without it every value fails the rule',
      },
    ]);
  });

  it('refuses a field pattern that is no regular expression, which would let every value through', async () => {
    const problems = await problemsWith(
      VISA_SCHEMA,
      addRule({ rule: 'matches', server: false, pattern: '^[A-Z' } as Omit<RuleUse, 'path'>),
    );
    expect(problems).toEqual([
      {
        file: VISA_SCHEMA,
        pointer: `/rules/${VISA_RULES}/pattern`,
        message: '"^[A-Z" is no regular expression the browser and the server can use: correct it',
      },
    ]);
    const missing = await problemsWith(VISA_SCHEMA, addRule({ rule: 'matches', server: false }));
    expect(missing.map((p) => p.pointer)).toEqual([`/rules/${VISA_RULES}`]);
  });

  it('refuses a catalogEntryExists on a catalogue keyed by several fields', async () => {
    const problems = await problemsWith(
      VISA_SCHEMA,
      addRule({ rule: 'catalogEntryExists', catalog: 'question' }),
    );
    expect(problems).toEqual([
      {
        file: VISA_SCHEMA,
        pointer: `/rules/${VISA_RULES}/catalog`,
        message:
          'catalogue "question" has a key of 2 fields (documentCode, code); a value names an entry by a single key field: name a catalogue keyed by one field',
      },
    ]);
  });

  it('refuses a document reference to a status the referenced machine does not have', async () => {
    const problems = await problemsWith<EntityDefinition>(VISA_SCHEMA, (entity) => {
      entity.rules![REFERENCE_RULE]!.status = ['GRANTD'];
    });
    expect(problems).toEqual([
      {
        file: VISA_SCHEMA,
        pointer: `/rules/${REFERENCE_RULE}/status/0`,
        message:
          'no status "GRANTD" in the machine of "sponsor-application", so no document of it would ever be accepted: name one of its statuses',
      },
    ]);
  });

  it('refuses a document reference without statuses, and one to a type that does not exist', async () => {
    const problems = await problemsWith<EntityDefinition>(VISA_SCHEMA, (entity) => {
      delete entity.rules![REFERENCE_RULE]!.status;
      entity.rules![REFERENCE_RULE]!.documentType = 'sponsor-app';
    });
    expect(problems).toEqual([
      {
        file: VISA_SCHEMA,
        pointer: `/rules/${REFERENCE_RULE}/documentType`,
        message: 'no document type "sponsor-app": no workflow has that id',
      },
      {
        file: VISA_SCHEMA,
        pointer: `/rules/${REFERENCE_RULE}`,
        message:
          'rule "documentReference" needs "status", the list of statuses the named document must be in: without it every value fails the rule',
      },
    ]);
  });
});

describe('the checker: widgets naming a catalogue, a document type or a field', () => {
  it('refuses a catalogue select naming a missing catalogue, or none', async () => {
    const missing = await problemsWith<EntityDefinition>(SPONSOR_SCHEMA, (entity) => {
      optionsAt(uiOf(entity).person!.birthCountry as Record<string, unknown>).catalog = 'countree';
    });
    expect(missing).toEqual([
      {
        file: SPONSOR_SCHEMA,
        pointer: '/uiSchema/person/birthCountry/ui:options/catalog',
        message: 'no catalogue "countree" in catalogs/',
      },
    ]);
    const none = await problemsWith<EntityDefinition>(SPONSOR_SCHEMA, (entity) => {
      delete optionsAt(uiOf(entity).person!.birthCountry as Record<string, unknown>).catalog;
    });
    expect(none).toEqual([
      {
        file: SPONSOR_SCHEMA,
        pointer: '/uiSchema/person/birthCountry/ui:options/catalog',
        message:
          'a catalogue select names its catalogue: add "catalog" (a catalogue id) to its ui:options',
      },
    ]);
  });

  it('refuses a catalogue select on a catalogue keyed by several fields', async () => {
    const problems = await problemsWith<EntityDefinition>(SPONSOR_SCHEMA, (entity) => {
      optionsAt(uiOf(entity).person!.birthCountry as Record<string, unknown>).catalog = 'question';
    });
    expect(problems).toEqual([
      {
        file: SPONSOR_SCHEMA,
        pointer: '/uiSchema/person/birthCountry/ui:options/catalog',
        message:
          'catalogue "question" has a key of 2 fields (documentCode, code); a select\'s value names an entry by a single key field',
      },
    ]);
  });

  it('refuses a catalogue select matching on a field its catalogue does not have', async () => {
    const problems = await problemsWith<EntityDefinition>(SPONSOR_SCHEMA, (entity) => {
      optionsAt(uiOf(entity).person!.birthCountry as Record<string, unknown>).match = {
        regoin: '/person/nationality',
      };
    });
    expect(problems).toEqual([
      {
        file: SPONSOR_SCHEMA,
        pointer: '/uiSchema/person/birthCountry/ui:options/match/regoin',
        message: 'catalogue "country" has no field "regoin"',
      },
    ]);
  });

  it('refuses a document choice of a missing type, or naming none', async () => {
    const roles = (entity: EntityDefinition) =>
      optionsAt(uiOf(entity).access!.roles as Record<string, unknown>);
    const missing = await problemsWith<EntityDefinition>(ACCESS_UNIT_SCHEMA, (entity) => {
      roles(entity).document = 'access-rol';
    });
    expect(missing).toEqual([
      {
        file: ACCESS_UNIT_SCHEMA,
        pointer: '/uiSchema/access/roles/ui:options/document',
        message: 'no document type "access-rol": no workflow has that id',
      },
    ]);
    const none = await problemsWith<EntityDefinition>(ACCESS_UNIT_SCHEMA, (entity) => {
      delete roles(entity).document;
    });
    expect(none).toEqual([
      {
        file: ACCESS_UNIT_SCHEMA,
        pointer: '/uiSchema/access/roles/ui:options/document',
        message:
          'a document choice names the type of the documents it offers: add "document" (a workflow id) to its ui:options',
      },
    ]);
  });

  it('refuses a label or a group label taken from a field the object does not have', async () => {
    const problems = await problemsWith<EntityDefinition>(SPONSOR_SCHEMA, (entity) => {
      const items = uiOf(entity).characterQuestions!.items as Ui;
      optionsAt(items.answer!).labelFrom = 'questoin';
      optionsAt(items as Record<string, unknown>).groupLabelFrom = 'questoin';
    });
    expect(problems).toEqual([
      {
        file: SPONSOR_SCHEMA,
        pointer: '/uiSchema/characterQuestions/items/ui:options/groupLabelFrom',
        message: 'no field "questoin" in the object it labels',
      },
      {
        file: SPONSOR_SCHEMA,
        pointer: '/uiSchema/characterQuestions/items/answer/ui:options/labelFrom',
        message:
          'no field "questoin" beside "answer": "labelFrom" names a field of the same object',
      },
    ]);
  });
});

describe('the checker: lists rebuilt from catalogues', () => {
  const source = (entity: EntityDefinition) => entity.catalogLists![0]!.sources[0]!;

  it('refuses a catalogue list source naming a missing catalogue', async () => {
    const problems = await problemsWith<EntityDefinition>(SPONSOR_SCHEMA, (entity) => {
      source(entity).catalog = 'questoin';
    });
    expect(problems).toEqual([
      {
        file: SPONSOR_SCHEMA,
        pointer: '/catalogLists/0/sources/0/catalog',
        message: 'no catalogue "questoin" in catalogs/',
      },
    ]);
  });

  it('refuses a catalogue list whose path is not a list of objects', async () => {
    const problems = await problemsWith<EntityDefinition>(SPONSOR_SCHEMA, (entity) => {
      entity.catalogLists![0]!.path = '/person/birthCountry';
    });
    expect(problems).toContainEqual({
      file: SPONSOR_SCHEMA,
      pointer: '/catalogLists/0/path',
      message:
        '"/person/birthCountry" is not a list of objects in the document\'s schema: the entries are written there as items',
    });
  });

  it('refuses matching on, or copying, a field the catalogue does not have', async () => {
    const problems = await problemsWith<EntityDefinition>(SPONSOR_SCHEMA, (entity) => {
      const changed = source(entity);
      changed.where = { ...changed.where, tpye: { value: '1' } };
      changed.fields.question = 'descripton';
    });
    expect(problems).toEqual([
      {
        file: SPONSOR_SCHEMA,
        pointer: '/catalogLists/0/sources/0/fields/question',
        message: 'catalogue "question" has no field "descripton"',
      },
      {
        file: SPONSOR_SCHEMA,
        pointer: '/catalogLists/0/sources/0/where/tpye',
        message: 'catalogue "question" has no field "tpye", so no entry would match',
      },
    ]);
  });

  it('refuses writing a field the items do not have, and a source not copying the key', async () => {
    const problems = await problemsWith<EntityDefinition>(SPONSOR_SCHEMA, (entity) => {
      const list = entity.catalogLists![0]!;
      list.keep = ['answer', 'explantion'];
      delete source(entity).fields.code;
    });
    expect(problems).toEqual([
      {
        file: SPONSOR_SCHEMA,
        pointer: '/catalogLists/0/sources/0/fields',
        message:
          'the source copies no "code", the items\' key, so none of its entries is listed: add "code" to its "fields"',
      },
      {
        file: SPONSOR_SCHEMA,
        pointer: '/catalogLists/0/keep/1',
        message: 'the items of "/characterQuestions" have no field "explantion"',
      },
    ]);
  });
});

describe('the checker: workflows naming a catalogue or its fields', () => {
  it('refuses a fee source naming a missing field, and a narration naming no field of the people', async () => {
    const problems = await problemsWith<WorkflowDefinition>(VISA, (workflow) => {
      const [first, second] = workflow.payment!.sources;
      first!.code = 'documentCod';
      second!.payers!.people![0]!.narration = [['givenName', 'familyNam']];
    });
    expect(problems).toEqual([
      {
        file: VISA,
        pointer: '/payment/sources/0/code',
        message: expect.stringMatching(/^catalogue "[a-z-]+" has no field "documentCod"$/),
      },
      {
        file: VISA,
        pointer: '/payment/sources/1/payers/people/0/narration/0/1',
        message: 'the items of "/dependants" have no field "familyNam"',
      },
    ]);
  });

  it('refuses a copy from a missing catalogue, or of a field it does not have', async () => {
    const missing = await problemsWith<WorkflowDefinition>(INVOICE, (workflow) => {
      workflow.fromCatalog![0]!.catalog = 'bank-acount';
    });
    expect(missing).toEqual([
      {
        file: INVOICE,
        pointer: '/fromCatalog/0/catalog',
        message: 'no catalogue "bank-acount" in catalogs/',
      },
    ]);
    const field = await problemsWith<WorkflowDefinition>(INVOICE, (workflow) => {
      workflow.fromCatalog![0]!.fields.payee = 'paye';
    });
    expect(field).toEqual([
      {
        file: INVOICE,
        pointer: '/fromCatalog/0/fields/payee',
        message: 'catalogue "bank-account" has no field "paye"',
      },
    ]);
  });

  it('refuses a validity period read from a field its catalogue does not have', async () => {
    const problems = await problemsWith<WorkflowDefinition>(SPONSOR, (workflow) => {
      workflow.validity!.periods.count = 'allowedPeriodNumbr';
    });
    expect(problems).toEqual([
      {
        file: SPONSOR,
        pointer: '/validity/periods/count',
        message: 'catalogue "sub-document" has no field "allowedPeriodNumbr"',
      },
    ]);
  });

  it('refuses an account type’s flag its catalogue does not have', async () => {
    const problems = await problemsWith<WorkflowDefinition>(ACCOUNT, (workflow) => {
      const checks = workflow.account!.userType.checks;
      checks.checkAgenc = checks.checkAgency!;
      delete checks.checkAgency;
    });
    expect(problems).toEqual([
      {
        file: ACCOUNT,
        pointer: '/account/userType/checks/checkAgenc',
        message:
          'catalogue "user-types" has no field "checkAgenc": its entries never set that flag',
      },
    ]);
  });

  it('refuses a catalogue reference to a catalogue that does not exist', async () => {
    const file = 'catalogs/agent.json';
    const problems = await problemsWith<CatalogDefinition>(file, (catalog) => {
      catalog.references!.country!.catalog = 'countree';
    });
    expect(problems).toEqual([
      { file, pointer: '/references/country/catalog', message: 'no catalogue "countree"' },
    ]);
  });
});

describe('the checker: document types and schema fields a workflow names', () => {
  it('refuses a linked document type that does not exist', async () => {
    const problems = await problemsWith<WorkflowDefinition>(INVOICE, (workflow) => {
      workflow.links!.types[1] = 'sponsor-app';
    });
    expect(problems).toEqual([
      {
        file: INVOICE,
        pointer: '/links/types/1',
        message: 'no workflow "sponsor-app" in an enabled module',
      },
    ]);
  });

  it('refuses a list column or condition naming no field of the schema', async () => {
    const problems = await problemsWith<WorkflowDefinition>(VISA, (workflow) => {
      workflow.lists[0]!.columns[1]!.pointer = '/applicant/familyNam';
      workflow.lists[0]!.where = [{ pointer: '/applicant/nationalty', criterion: 'notEmpty' }];
    });
    expect(problems).toEqual([
      {
        file: VISA,
        pointer: '/lists/0/where/0/pointer',
        message: '"/applicant/nationalty" is not a field of schema "visa-application"',
      },
      {
        file: VISA,
        pointer: '/lists/0/columns/1/pointer',
        message: 'no field "/applicant/familyNam" in the document\'s schema',
      },
    ]);
  });

  it('refuses a menu badge counting by a field the list cannot search, or by a status the machine lacks', async () => {
    const field = await problemsWith<WorkflowDefinition>(INBOX, (workflow) => {
      workflow.lists[0]!.badge!.field = 'state';
    });
    expect(field).toEqual([
      {
        file: INBOX,
        pointer: '/lists/0/badge/field',
        message: expect.stringMatching(
          /^the list cannot count its documents by "state": name a column every document has \(status, .*\) or one of its own columns \(.*\)$/,
        ),
      },
    ]);
    const status = await problemsWith<WorkflowDefinition>(INBOX, (workflow) => {
      workflow.lists[0]!.badge!.value = 'OPENED';
    });
    expect(status).toEqual([
      {
        file: INBOX,
        pointer: '/lists/0/badge/value',
        message: 'no status "OPENED" in the machine',
      },
    ]);
  });
});

describe('the checker: actions a screen names', () => {
  it('refuses a screen taking, as it opens, an action the workflow does not have', async () => {
    const at = shippedJson<WorkflowDefinition>(INBOX).screens.findIndex((s) => s.fire);
    const problems = await problemsWith<WorkflowDefinition>(INBOX, (workflow) => {
      workflow.screens[at]!.fire = 'opne';
    });
    expect(problems).toEqual([
      {
        file: INBOX,
        pointer: `/screens/${at}/fire`,
        message:
          'no action "opne" to take as the screen opens: name one of the workflow\'s actions',
      },
    ]);
  });
});

describe('the checker: statuses documents reach and leave', () => {
  it('passes the project’s definitions without a problem or a warning', async () => {
    const warnings: DefinitionProblem[] = [];
    await checkDefinitions(shipped, serverModules, { warn: (w) => warnings.push(w) });
    expect(warnings).toEqual([]);
  });

  it('refuses a status no action leads to from NEW', async () => {
    const problems = await problemsWith<WorkflowDefinition>(SPONSOR, (workflow) => {
      statesOf(workflow).QUERIED!.on!['submit-reply'] = 'SUBMITTED FOR VERIFICATION';
    });
    expect(problems).toEqual([
      {
        file: SPONSOR,
        pointer: '/machine/states/REPLIED FOR VERIFICATION',
        message:
          'no action leads to status "REPLIED FOR VERIFICATION" from "NEW", so no document can reach it: add a transition to it in the "on" of a status documents reach, or remove the status',
      },
    ]);
  });

  it('warns only of a status that documents reach through statusMoves alone', async () => {
    const warnings = await warningsWith<WorkflowDefinition>(SPONSOR, (workflow) => {
      statesOf(workflow).QUERIED!.on!['submit-reply'] = 'SUBMITTED FOR VERIFICATION';
      workflow.statusMoves = { ANSWERED: 'REPLIED FOR VERIFICATION' };
    });
    expect(warnings).toEqual([
      {
        file: SPONSOR,
        pointer: '/machine/states/REPLIED FOR VERIFICATION',
        message:
          'no action leads to status "REPLIED FOR VERIFICATION" from "NEW": only documents that "statusMoves" moved there reach it, and no new document will',
      },
    ]);
  });

  it('refuses a status that is not final and that no action leaves', async () => {
    const problems = await problemsWith<WorkflowDefinition>(SPONSOR, (workflow) => {
      statesOf(workflow)['SUBMITTED FOR VERIFICATION']!.on = {};
    });
    expect(problems).toEqual([
      {
        file: SPONSOR,
        pointer: '/machine/states/SUBMITTED FOR VERIFICATION',
        message:
          'status "SUBMITTED FOR VERIFICATION" is not final and no action leaves it, so documents reaching it are stuck: give it an action in "on", or mark it "type": "final" if documents end there',
      },
    ]);
  });

  it('refuses a final status with actions', async () => {
    const problems = await problemsWith<WorkflowDefinition>(SPONSOR, (workflow) => {
      statesOf(workflow).REJECTED!.on = { delete: 'DELETED' };
    });
    expect(problems).toEqual([
      {
        file: SPONSOR,
        pointer: '/machine/states/REJECTED/on',
        message:
          'status "REJECTED" is final (documents end there, off every task list), yet it has actions: remove its "on", or its "type": "final"',
      },
    ]);
  });
});

describe('the checker: routes', () => {
  const visaNew = shippedJson<WorkflowDefinition>(VISA).screens.findIndex((s) => s.path === '/new');

  it('refuses a second workflow given another’s route prefix: its New would open the other’s form', async () => {
    const problems = await problemsWith<WorkflowDefinition>(SPONSOR, (workflow) => {
      workflow.prefix = '/visa/application';
    });
    // The sponsor's file is read first, so the visa's New screen is the one without a route.
    expect(problems).toContainEqual({
      file: VISA,
      pointer: `/screens/${visaNew}/path`,
      message: expect.stringMatching(
        /^the route \/visa\/application\/new is already that of workflows\/sponsor-application\.json#\/screens\/\d+\/path: each list and screen needs a route of its own \(another route prefix or path\)$/,
      ),
    });
  });

  it('refuses a list placed on the path of a screen', async () => {
    const problems = await problemsWith<WorkflowDefinition>(VISA, (workflow) => {
      workflow.lists[0]!.path = '/new';
    });
    expect(problems).toEqual([
      {
        file: VISA,
        pointer: `/screens/${visaNew}/path`,
        message:
          'the route /visa/application/new is already that of workflows/visa-application.json#/lists/0/path: each list and screen needs a route of its own (another route prefix or path)',
      },
    ]);
  });
});

describe('the checker: problems say how to mend them', () => {
  it('names a misspelt keyword and an action no status offers, with what to do', async () => {
    const problems = await problemsWith<WorkflowDefinition & { timelien?: boolean }>(
      SPONSOR,
      (workflow) => {
        workflow.timelien = true;
      },
    );
    expect(problems).toEqual([
      {
        file: SPONSOR,
        pointer: '/timelien',
        message: 'unknown property "timelien": remove it, or correct its name',
      },
    ]);
    const unused = await problemsWith<WorkflowDefinition>(SPONSOR, (workflow) => {
      delete statesOf(workflow).GRANTED!.on!.modify;
      statesOf(workflow).GRANTED!.on!.cancel = 'CANCELLED';
    });
    expect(unused).toEqual([
      {
        file: SPONSOR,
        pointer: '/actions/modify',
        message:
          'action "modify" is not an event of any status, so it can never be taken: add it to the "on" of a status, or remove it',
      },
    ]);
  });
});

describe('the checker: a guard’s parameters', () => {
  type Guarded = { target: string; guard: { type: string; params?: Record<string, unknown> } };
  const states = (workflow: WorkflowDefinition) =>
    workflow.machine.states as unknown as Record<string, { on: Record<string, Guarded[]> }>;

  it('refuses a parameter a guard does not read, a missing one, a status or a field that is none', async () => {
    const problems = await problemsWith<WorkflowDefinition>(VISA, (workflow) => {
      const [dueFirst] = states(workflow).STORED!.on.submit!;
      dueFirst!.guard.params = { pointr: '/fees/total' };
      const [undoStored, undoSubmitted] = states(workflow).CANCELLED!.on.undo!;
      undoStored!.guard.params = { status: 'STOWED' };
      undoSubmitted!.guard = { type: 'amountDue', params: { pointer: '/fees/totl' } };
    });
    const at = (pointer: string) => problems.filter((p) => p.pointer.startsWith(pointer));
    expect(at('/machine/states/STORED/on/submit/0/guard/params').map((p) => p.message)).toEqual([
      'guard "amountDue" reads no parameter "pointr" (it reads: pointer): correct its name, or remove it',
      'guard "amountDue" reads "pointer": give it in "params"',
    ]);
    expect(at('/machine/states/CANCELLED/on/undo/0/guard/params/status')).toEqual([
      expect.objectContaining({
        file: VISA,
        message:
          'guard "previousStatusIs" reads "status" as a status, and "STOWED" is not a status of the machine',
      }),
    ]);
    expect(at('/machine/states/CANCELLED/on/undo/1/guard/params/pointer')).toEqual([
      expect.objectContaining({
        message: expect.stringContaining('"/fees/totl" is not one'),
      }),
    ]);
  });

  it('refuses parameters given to an engine guard that reads none', async () => {
    const problems = await problemsWith<WorkflowDefinition>(VISA, (workflow) => {
      const [dueFirst] = states(workflow).STORED!.on.submit!;
      dueFirst!.guard = { type: 'isAssigned', params: { who: 'me' } };
    });
    expect(problems).toContainEqual({
      file: VISA,
      pointer: '/machine/states/STORED/on/submit/0/guard/params',
      message: 'guard "isAssigned" reads no parameters: remove "params"',
    });
  });
});
