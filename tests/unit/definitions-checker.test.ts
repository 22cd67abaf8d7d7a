import { serverModules } from '../../src/modules/server';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EntityDefinition, WorkflowDefinition } from '../../src/core/definitions/types';
import type { TextTree } from '../../src/core/i18n/translate';
import { seededRoleGrants } from '../../src/modules/connectid/server/seed';
import { readDefinitionFiles } from '../../src/server/definitions/files';
import {
  checkDefinitions,
  DefinitionsError,
  loadDefinitions,
  type DefinitionProblem,
} from '../../src/server/definitions/load';
import { copyDefinitions, refusalOf } from '../support/definitions-dir';

/**
 * The checker (src/server/definitions/load.ts and its checks), one mistake at a time on a copy
 * of the project's definitions: each is refused naming the file, the JSON pointer of the
 * mistake and what is wrong, where before it passed and showed only in use (a raw key on a
 * button, a 404 for the officers meant to see a document, a rule that read nothing).
 */

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.map((remove) => remove()));
  cleanup = [];
});

type Change<T> = (definition: T) => void;

/** A copy of the definitions with `file` changed in place by `change`. */
async function definitionsWith<T>(file: string, change: Change<T>): Promise<string> {
  const copy = await copyDefinitions();
  cleanup.push(copy.remove);
  const absolute = path.join(copy.dir, file);
  const definition = JSON.parse(await fs.readFile(absolute, 'utf8')) as T;
  change(definition);
  await fs.writeFile(absolute, JSON.stringify(definition, null, 2));
  return copy.dir;
}

/** The problems the loader refuses the changed definitions with. */
async function problemsWith<T>(file: string, change: Change<T>): Promise<DefinitionProblem[]> {
  const dir = await definitionsWith(file, change);
  return refusalOf(dir);
}

/** Problems in the order of their place, to compare with a list that does not follow the checks' order. */
function sorted(problems: DefinitionProblem[]): DefinitionProblem[] {
  return [...problems].sort((a, b) =>
    `${a.file}#${a.pointer}#${a.message}`.localeCompare(`${b.file}#${b.pointer}#${b.message}`),
  );
}

const SPONSOR = 'workflows/sponsor-application.json';
const VISA = 'workflows/visa-application.json';
const VISA_SCHEMA = 'schemas/visa-application.schema.json';
const SPONSOR_SCHEMA = 'schemas/sponsor-application.schema.json';

function screenIndex(workflow: WorkflowDefinition, mode: string): number {
  const index = workflow.screens.findIndex((screen) => screen.mode === mode);
  expect(index).toBeGreaterThanOrEqual(0);
  return index;
}

describe('the checker: roles', () => {
  it('refuses a screen role that may do none of the screen’s actions', async () => {
    let at = -1;
    const problems = await problemsWith<WorkflowDefinition>(SPONSOR, (workflow) => {
      at = screenIndex(workflow, 'creation');
      workflow.screens[at]!.roles = ['creat'];
    });
    expect(problems).toEqual([
      {
        file: SPONSOR,
        pointer: `/screens/${at}/roles/0`,
        message: 'role "creat" may do none of the screen\'s actions (create)',
      },
    ]);
  });

  it('warns of a role no access unit grants: nobody holds it', async () => {
    let at = -1;
    const dir = await definitionsWith<WorkflowDefinition>(SPONSOR, (workflow) => {
      at = screenIndex(workflow, 'view');
      workflow.screens[at]!.roles.push('reader');
    });
    const warnings: DefinitionProblem[] = [];
    await loadDefinitions(dir, serverModules, {
      grantedRoles: (workflows) => seededRoleGrants(workflows),
      warn: (warning) => warnings.push(warning),
    });
    const roles = (await loadDefinitions(dir, serverModules)).workflows.find(
      (workflow) => workflow.id === 'sponsor-application',
    )!.screens[at]!.roles;
    expect(warnings).toEqual([
      {
        file: SPONSOR,
        pointer: `/screens/${at}/roles/${roles.length - 1}`,
        message: 'no access unit grants the role "sponsor-application-reader": nobody holds it',
      },
    ]);
  });

  it('gives no warning on the project’s definitions: every role they name is granted', async () => {
    const copy = await copyDefinitions();
    cleanup.push(copy.remove);
    const warnings: DefinitionProblem[] = [];
    await loadDefinitions(copy.dir, serverModules, {
      grantedRoles: (workflows) => seededRoleGrants(workflows),
      warn: (warning) => warnings.push(warning),
    });
    expect(warnings).toEqual([]);
  });

  it('refuses a seeAll role the workflow uses nowhere (its officers would get 404)', async () => {
    const problems = await problemsWith<WorkflowDefinition>(SPONSOR, (workflow) => {
      workflow.seeAll[0] = 'serch';
    });
    expect(problems).toEqual([
      {
        file: SPONSOR,
        pointer: '/seeAll/0',
        message: 'role "serch" is in no action, list or screen of the workflow',
      },
    ]);
  });

  it('refuses an assignment naming no role, a role used nowhere, or an action taking none', async () => {
    const problems = await problemsWith<WorkflowDefinition>(VISA, (workflow) => {
      delete workflow.actions.assign!.assignees;
      workflow.actions.forward!.assignees = ['grant'];
    });
    expect(sorted(problems)).toEqual([
      {
        file: VISA,
        pointer: '/actions/assign',
        message: 'an action taking an assignee names the roles they must hold (assignees)',
      },
      {
        file: VISA,
        pointer: '/actions/forward/assignees',
        message: 'assignees are for an action whose payload is "assignee"',
      },
    ]);
    const misspelt = await problemsWith<WorkflowDefinition>(VISA, (workflow) => {
      workflow.actions.assign!.assignees = ['foward'];
    });
    expect(misspelt).toEqual([
      {
        file: VISA,
        pointer: '/actions/assign/assignees/0',
        message: 'role "foward" is in no action, list or screen of the workflow',
      },
    ]);
  });
});

describe('the checker: pointers and rule paths', () => {
  it('refuses a section condition on a field that does not exist', async () => {
    let at = -1;
    const problems = await problemsWith<EntityDefinition>(SPONSOR_SCHEMA, (entity) => {
      at = entity.sections.findIndex((section) => section.when);
      entity.sections[at]!.when!.pointer = '/sponsorship/sponsorTyp';
    });
    expect(problems).toEqual([
      {
        file: SPONSOR_SCHEMA,
        pointer: `/sections/${at}/when/pointer`,
        message: 'no field "/sponsorship/sponsorTyp" in the document\'s schema',
      },
    ]);
  });

  it('refuses a field condition naming no field, with no values, or on a required field', async () => {
    const problems = await problemsWith<EntityDefinition>(VISA_SCHEMA, (entity) => {
      const ui = entity.uiSchema as Record<string, Record<string, Record<string, unknown>>>;
      ui.family!.familyName!['ui:options'] = { when: { pointer: '/family/statu', in: ['SPOUSE'] } };
      ui.family!.givenName!['ui:options'] = { when: { pointer: '/family/status', in: [] } };
      ui.applicant!.familyName = {
        'ui:options': { when: { pointer: '/applicant/title', in: ['MR'] } },
      };
    });
    const at = (field: string) => `/uiSchema/${field}/ui:options/when`;
    expect(sorted(problems)).toEqual(
      sorted([
        {
          file: VISA_SCHEMA,
          pointer: `${at('family/familyName')}/pointer`,
          message: 'no field "/family/statu" in the document\'s schema',
        },
        {
          file: VISA_SCHEMA,
          pointer: at('family/givenName'),
          message: 'a condition needs "in", one value or more',
        },
        {
          file: VISA_SCHEMA,
          pointer: at('applicant/familyName'),
          message:
            '"familyName" applies only sometimes and cannot be in required: require it with an if/then on the deciding value',
        },
      ]),
    );
  });

  it('refuses a rule whose path, or a parameter, names no field', async () => {
    let past = -1;
    let items = -1;
    const problems = await problemsWith<EntityDefinition>(VISA_SCHEMA, (entity) => {
      const rules = entity.rules!;
      past = rules.findIndex((use) => use.rule === 'pastDate');
      rules[past]!.path = '/applicant/birthDat';
      items = rules.findIndex((use) => use.rule === 'allAnswered' && use.field === 'file');
      rules[items]!.when = 'mandatry';
    });
    expect(problems).toEqual([
      {
        file: VISA_SCHEMA,
        pointer: `/rules/${past}/path`,
        message: 'no field "/applicant/birthDat" in the document\'s schema',
      },
      {
        file: VISA_SCHEMA,
        pointer: `/rules/${items}/when`,
        message: 'no field "mandatry" in the items of "/documents"',
      },
    ]);
  });

  it('refuses workflow pointers that name no field: a list column, a verification date', async () => {
    const problems = await problemsWith<WorkflowDefinition>(VISA, (workflow) => {
      workflow.lists[0]!.columns[1]!.pointer = '/applicant/familyNam';
      workflow.verification!.validFrom = '/issuance/effective';
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          file: VISA,
          pointer: '/lists/0/columns/1/pointer',
          message: 'no field "/applicant/familyNam" in the document\'s schema',
        },
        {
          file: VISA,
          pointer: '/verification/validFrom',
          message: expect.stringContaining('"/issuance/effective"'),
        },
      ]),
    );
    expect(problems).toHaveLength(2);
  });

  it('refuses a list column without a pointer that is no column every document has', async () => {
    let at = -1;
    const problems = await problemsWith<WorkflowDefinition>(VISA, (workflow) => {
      at = workflow.lists[0]!.columns.push({ field: 'assigneeNam', label: 'documents.assignee' });
    });
    expect(problems).toEqual([
      {
        file: VISA,
        pointer: `/lists/0/columns/${at - 1}/field`,
        message: expect.stringMatching(
          /^"assigneeNam" is no column of every document \(.*assigneeName.*\); a data field needs its pointer$/,
        ),
      },
    ]);
  });

  it('refuses a certificate list whose items have no such field', async () => {
    let at = -1;
    const problems = await problemsWith<WorkflowDefinition>(VISA, (workflow) => {
      const fields = workflow.certificate!.fields;
      at = fields.findIndex((field) => field.each);
      fields[at]!.each = '/descriptio';
    });
    expect(problems).toEqual([
      {
        file: VISA,
        pointer: `/certificate/fields/${at}/each`,
        message: expect.stringMatching(/^no field "\/descriptio" in the items of "\/conditions/),
      },
    ]);
  });
});

describe('the checker: catalogues and document types', () => {
  it('refuses a catalogue select naming a catalogue that does not exist', async () => {
    const problems = await problemsWith<EntityDefinition>(SPONSOR_SCHEMA, (entity) => {
      const ui = entity.uiSchema as { person: { birthCountry: { 'ui:options': object } } };
      ui.person.birthCountry['ui:options'] = { catalog: 'countree' };
    });
    expect(problems).toEqual([
      {
        file: SPONSOR_SCHEMA,
        pointer: '/uiSchema/person/birthCountry/ui:options/catalog',
        message: 'no catalogue "countree" in catalogs/',
      },
    ]);
  });

  it('refuses a document reference to a document type that does not exist', async () => {
    let at = -1;
    const problems = await problemsWith<EntityDefinition>(VISA_SCHEMA, (entity) => {
      at = entity.rules!.findIndex((use) => use.rule === 'documentReference');
      entity.rules![at]!.documentType = 'sponsor-app';
    });
    expect(problems).toEqual([
      {
        file: VISA_SCHEMA,
        pointer: `/rules/${at}/documentType`,
        message: 'no document type "sponsor-app": no workflow has that id',
      },
    ]);
  });

  it('refuses a pointer into the referenced document type that names no field there', async () => {
    let at = -1;
    const problems = await problemsWith<EntityDefinition>(VISA_SCHEMA, (entity) => {
      at = entity.rules!.findIndex((use) => use.rule === 'documentReference');
      entity.rules![at]!.expiry = '/header/expiry';
    });
    expect(problems).toEqual([
      {
        file: VISA_SCHEMA,
        pointer: `/rules/${at}/expiry`,
        message: 'no field "/header/expiry" in "sponsor-application"\'s schema',
      },
    ]);
  });

  it('refuses a document choice of a type that does not exist', async () => {
    const file = 'schemas/access-unit.schema.json';
    const problems = await problemsWith<EntityDefinition>(file, (entity) => {
      const ui = entity.uiSchema as { access: { roles: { 'ui:options': { document: string } } } };
      ui.access.roles['ui:options'].document = 'access-rol';
    });
    expect(problems).toEqual([
      {
        file,
        pointer: '/uiSchema/access/roles/ui:options/document',
        message: 'no document type "access-rol": no workflow has that id',
      },
    ]);
  });
});

describe('the checker: texts', () => {
  it('refuses a status with no text in one language', async () => {
    const problems = await problemsWith<TextTree>('translations/fr.json', (texts) => {
      delete (texts.statuses as TextTree)['PURCHASE INITIATED'];
    });
    expect(problems).toEqual(
      expect.arrayContaining(
        [SPONSOR, VISA].map((file) => ({
          file,
          pointer: '/machine/states/PURCHASE INITIATED',
          message: 'no text "statuses.PURCHASE INITIATED" in fr',
        })),
      ),
    );
  });

  it('refuses an action with no text, and names each workflow using it', async () => {
    const problems = await problemsWith<TextTree>('translations/en.json', (texts) => {
      delete (texts.actions as TextTree)['submit-reply'];
    });
    expect(problems).toEqual(
      expect.arrayContaining(
        [SPONSOR, VISA].map((file) => ({
          file,
          pointer: '/actions/submit-reply',
          message: 'no text "actions.submit-reply" in en',
        })),
      ),
    );
  });

  it('refuses a menu entry, a list heading and a rule message with no text', async () => {
    let menu = -1;
    const workflowProblems = await problemsWith<WorkflowDefinition>(SPONSOR, (workflow) => {
      menu = workflow.screens.findIndex((screen) => screen.menu);
      workflow.screens[menu]!.menu = 'sponsor-application.menu.nothing';
      workflow.lists[0]!.label = 'sponsor-application.lists.nothing';
    });
    expect(sorted(workflowProblems)).toEqual(
      ['lists.nothing', 'menu.nothing'].flatMap((key) =>
        ['en', 'fr'].map((language) => ({
          file: SPONSOR,
          pointer: key.startsWith('menu') ? `/screens/${menu}/menu` : '/lists/0/label',
          message: `no text "sponsor-application.${key}" in ${language}`,
        })),
      ),
    );
    const ruleProblems = await problemsWith<EntityDefinition>(VISA_SCHEMA, (entity) => {
      entity.rules![0]!.message = 'validation.nothing';
    });
    expect(ruleProblems).toEqual(
      ['en', 'fr'].map((language) => ({
        file: VISA_SCHEMA,
        pointer: '/rules/0/message',
        message: `no text "validation.nothing" in ${language}`,
      })),
    );
  });

  it('refuses a count whose plural texts miss in a language, and a screen condition on no field', async () => {
    const ACCOUNT = 'workflows/account.json';
    const problems = await problemsWith<WorkflowDefinition>(ACCOUNT, (workflow) => {
      // "2 accounts" needs the one and the many, and "More than ..." for a capped count.
      workflow.lists[0]!.count = 'account.lists.title';
      const screen = workflow.screens.find((s) => s.when)!;
      screen.when = { pointer: '/organisation/nothing', equals: 'SERVICE' };
    });
    const screen = JSON.parse(await fs.readFile(ACCOUNT, 'utf8')).screens.findIndex(
      (s: { when?: unknown }) => s.when,
    );
    expect(sorted(problems)).toEqual(
      sorted([
        ...['_one', '_other', 'More_one', 'More_other'].flatMap((suffix) =>
          ['en', 'fr'].map((language) => ({
            file: ACCOUNT,
            pointer: '/lists/0/count',
            message: `no text "account.lists.title${suffix}" in ${language}`,
          })),
        ),
        {
          file: ACCOUNT,
          pointer: `/screens/${screen}/when/pointer`,
          message: 'no field "/organisation/nothing" in the document\'s schema',
        },
      ]),
    );
  });

  it('refuses a schema keyword, a format and a named rule with no validation text in one language', async () => {
    const problems = await problemsWith<TextTree>('translations/fr.json', (texts) => {
      const validation = texts.validation as TextTree;
      delete validation.uniqueItems;
      delete validation.format_date_time;
      delete validation.futureDate;
    });
    const missing = (rule: string) =>
      `no text for the rule "${rule}" in fr: add "validation.${rule}" to translations/fr.json`;
    // Each use, at its keyword: the rule with no message of its own at its name.
    expect(problems).toEqual(
      expect.arrayContaining([
        { file: VISA_SCHEMA, pointer: '/rules/6/rule', message: missing('futureDate') },
        {
          file: 'schemas/access-unit.schema.json',
          pointer: '/schema/properties/access/properties/roles/uniqueItems',
          message: missing('uniqueItems'),
        },
        {
          file: 'schemas/inbox-message.schema.json',
          pointer: '/schema/properties/delivery/properties/attemptDate/format',
          message: missing('format_date_time'),
        },
      ]),
    );
    // Besides the texts English has and French lacks, nothing else is refused.
    for (const problem of problems)
      expect(problem.message).toMatch(
        /^(no text for the rule .* in fr|missing text present in en)/,
      );
  });

  it('refuses a label naming a group of texts, and says which key to use', async () => {
    let at = -1;
    const problems = await problemsWith<WorkflowDefinition>(VISA, (workflow) => {
      at = workflow.certificate!.fields.findIndex((field) => field.label.endsWith('._'));
      workflow.certificate!.fields[at]!.label = 'visa-application.applicant.familyName';
    });
    expect(problems).toEqual(
      ['en', 'fr'].map((language) => ({
        file: VISA,
        pointer: `/certificate/fields/${at}/label`,
        message: `"visa-application.applicant.familyName" names a group of texts in ${language}, not a text: use "visa-application.applicant.familyName._"`,
      })),
    );
  });
  it('refuses a certificate table column heading with no text in one language', async () => {
    const file = 'translations/fr/payment-invoice.json';
    const problems = await problemsWith<TextTree>(file, (texts) => {
      delete (texts.items as TextTree).amountPaid;
    });
    expect(problems).toContainEqual({
      file: 'workflows/payment-invoice.json',
      pointer: expect.stringMatching(/^\/certificate\/fields\/\d+\/columns\/\d+\/label$/),
      message: 'no text "payment-invoice.items.amountPaid" in fr',
    });
  });
});

describe('the checker: statuses', () => {
  it('refuses a status move from a status still in the machine, or to one not in it', async () => {
    const problems = await problemsWith<WorkflowDefinition>(SPONSOR, (workflow) => {
      workflow.statusMoves = { STORED: 'SUBMITTED', ARCHIVED: 'FILED' };
    });
    expect(problems).toEqual([
      {
        file: SPONSOR,
        pointer: '/statusMoves/STORED',
        message: '"STORED" is a status of the machine: only a removed status is moved',
      },
      {
        file: SPONSOR,
        pointer: '/statusMoves/ARCHIVED',
        message: 'no status "FILED" in the machine',
      },
    ]);
  });

  it('refuses a hyphen in a status name, naming the status', async () => {
    const problems = await problemsWith<WorkflowDefinition>(SPONSOR, (workflow) => {
      const states = workflow.machine.states;
      states['SUB-MITTED'] = states.SUBMITTED!;
      delete states.SUBMITTED;
    });
    // Only the workflow's own problem: the invoice naming it as a linked type says nothing.
    expect(problems).toEqual([
      {
        file: SPONSOR,
        pointer: '/machine/states/SUB-MITTED',
        message: 'the name "SUB-MITTED" must match pattern "^[A-Z][A-Z ]*$"',
      },
    ]);
  });
});

describe('the checker on a set of files held in memory', () => {
  it('gives what loading the folder gives, and says which file is missing', async () => {
    const copy = await copyDefinitions();
    cleanup.push(copy.remove);
    const files = await readDefinitionFiles(copy.dir);
    expect([...files.keys()]).toContain('workflows/visa-application.json');
    expect([...files.keys()]).toContain('translations/fr/visa-application.json');
    const fromFiles = await checkDefinitions(files, serverModules);
    expect(fromFiles.version).toBe((await loadDefinitions(copy.dir, serverModules)).version);

    const edited = new Map(files);
    edited.delete('translations/fr.json');
    const workflow = JSON.parse(edited.get(SPONSOR)!) as WorkflowDefinition;
    workflow.seeAll[0] = 'serch';
    edited.set(SPONSOR, JSON.stringify(workflow));
    const problems = await checkDefinitions(edited, serverModules).then(
      () => [],
      (error: unknown) => (error as DefinitionsError).problems,
    );
    expect(problems).toContainEqual({
      file: 'translations/fr.json',
      pointer: '',
      message: 'file is missing',
    });
    expect(problems).toContainEqual(
      expect.objectContaining({ file: SPONSOR, pointer: '/seeAll/0' }),
    );
  });
});

describe('the checker: routes', () => {
  it('refuses a list on the route of a screen of the same workflow', async () => {
    const problems = await problemsWith<WorkflowDefinition>(SPONSOR, (workflow) => {
      workflow.lists[0]!.path = workflow.screens[screenIndex(workflow, 'creation')]!.path;
    });
    expect(problems).toContainEqual({
      file: SPONSOR,
      pointer: expect.stringMatching(/^\/screens\/\d+\/path$/),
      message: expect.stringMatching(
        /^the route \/sponsor\/application\/\S+ is already that of workflows\/sponsor-application\.json#\/lists\/0\/path: each list and screen needs a route of its own/,
      ),
    });
  });

  it('refuses a second workflow on another’s routes, and a page on a catalogue finder’s', async () => {
    const visa = await problemsWith<WorkflowDefinition>(SPONSOR, (workflow) => {
      workflow.prefix = '/visa/application';
    });
    // The visa's New screen no longer has a route of its own: whichever file the checker
    // reached second is named, with the route the two share.
    expect(visa).toContainEqual(
      expect.objectContaining({
        message: expect.stringMatching(/^the route \/visa\/application\/new is already that of/),
      }),
    );
    const finder = await problemsWith<WorkflowDefinition>(VISA, (workflow) => {
      workflow.prefix = '/catalog';
      workflow.lists[0]!.path = '/search/country';
    });
    expect(finder).toContainEqual({
      file: VISA,
      pointer: '/lists/0/path',
      message: expect.stringMatching(
        /^the route \/catalog\/search\/country is already the portal's page \/catalog\/search\/country/,
      ),
    });
  });
});
