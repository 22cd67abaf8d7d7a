/**
 * The scale benchmark's data set: visa applications written by one `INSERT ... SELECT` over
 * `generate_series`, the same statement on PostgreSQL and on PGlite, so a million rows take
 * minutes instead of a million round trips. Statuses, owners, officers, dates and the
 * applications' contents are spread as the service sees them (docs/performance.md, "Scale").
 */

/** The subjects (token `sub`) of the accounts the data names. */
export interface SeedSubjects {
  applicant: string;
  verifier: string;
}

/** Any client that runs a parameterised statement: pg's Client or Pool, PGlite. */
export interface SqlRunner {
  query(text: string, params?: unknown[]): Promise<unknown>;
}

export const VISA_TYPE = 'visa-application';

/** The entries of a list written as text: one per word, or between `separator`s and lines. */
const list = (text: string, separator = ' ') =>
  text
    .split(separator === ' ' ? /\s+/ : new RegExp(`[${separator}\n]`))
    .map((word) => word.trim())
    .filter(Boolean);

/**
 * Share of each status among the applications. Most are closed (granted, issued, dispatched,
 * refused, cancelled); drafts and the officers' queues hold a few thousand each at a million.
 */
const STATUS_SHARES: readonly [status: string, share: number][] = [
  ['GRANTED', 0.3],
  ['DISPATCHED', 0.28],
  ['ISSUED', 0.15],
  ['REJECTED', 0.07],
  ['CANCELLED', 0.04],
  ['DELETED', 0.01],
  ['STORED', 0.065],
  ['SUBMITTED', 0.02],
  ['SUBMITTED FOR PAYMENT', 0.003],
  ['PURCHASE INITIATED', 0.002],
  ['PAID FOR VERIFICATION', 0.02],
  ['SUBMITTED FOR VERIFICATION', 0.012],
  ['REPLIED FOR VERIFICATION', 0.004],
  ['QUERIED', 0.006],
  ['VERIFIED', 0.006],
  ['FORWARDED', 0.01],
  ['ESCALATED', 0.002],
];

/** Decided long ago: created over five years. */
const CLOSED = ['GRANTED', 'DISPATCHED', 'ISSUED', 'REJECTED', 'CANCELLED', 'DELETED'];
/** Every application an officer has taken keeps its assignee. */
const ASSIGNED = [
  'REPLIED FOR VERIFICATION',
  'QUERIED',
  'VERIFIED',
  'FORWARDED',
  'ESCALATED',
  'GRANTED',
  'ISSUED',
  'DISPATCHED',
  'REJECTED',
];
/** Paid or submitted for verification: waiting in the assignable queue, or already taken. */
const QUEUED = ['PAID FOR VERIFICATION', 'SUBMITTED FOR VERIFICATION'];
/** Share of the queued applications already assigned to an officer. */
const QUEUED_ASSIGNED = 0.4;
/** Verification officers sharing the work; the first is the demo verifier. */
export const OFFICERS = 20;
const ISSUED = ['GRANTED', 'ISSUED', 'DISPATCHED'];

/** The statuses an officer moved the application to, and the one before (undo, history). */
const PREVIOUS_STATUS: Record<string, string> = {
  GRANTED: 'VERIFIED',
  DISPATCHED: 'ISSUED',
  ISSUED: 'GRANTED',
  REJECTED: 'SUBMITTED FOR VERIFICATION',
  DELETED: 'CANCELLED',
  'PAID FOR VERIFICATION': 'PURCHASE INITIATED',
  'REPLIED FOR VERIFICATION': 'QUERIED',
  QUERIED: 'SUBMITTED FOR VERIFICATION',
  VERIFIED: 'SUBMITTED FOR VERIFICATION',
  FORWARDED: 'VERIFIED',
  ESCALATED: 'FORWARDED',
  'SUBMITTED FOR PAYMENT': 'SUBMITTED',
  'PURCHASE INITIATED': 'SUBMITTED',
};

/**
 * Family names: Pacific names first, then others; picked with a skew towards the start of the
 * list, as a few names are common. About one in twenty starts with "Tu" (Tuilagi, Tupou,
 * Turner...), and about one in sixteen contains "son".
 */
const FAMILY_NAMES = list(`
  Tuilagi Faleolo Leota Tupou Fonoti Aiono Soliai Taufa Fifita Tuala Vaipulu Havili Latu
  Mahe Naufahu Fonua Kaufusi Lolohea Moala Tuiasosopo Piutau Sika Tapueluelu Vea Ahio
  Nakarawa Qarase Rabuka Waqa Koroi Tufuga Schuster Lefiti Matagi Sapolu Amituanai Tuimavave
  Leavasa Smith Johnson Williams Brown Jones Garcia Miller Davis Wilson Anderson Thompson
  Taylor Thomas Moore Jackson Martin Lee Harris Clark Lewis Walker Hall Young King Wright
  Scott Green Baker Adams Nelson Hill Campbell Mitchell Roberts Carter Phillips Evans Turner
  Torres Parker Collins Edwards Stewart Morris Murphy Cook Rogers Morgan Peterson Cooper
  Reed Bailey Bell Gomez Kelly Howard Ward Cox Diaz Richardson Wood Watson Brooks Bennett
  Gray James Reyes Cruz Hughes Price Myers Long Foster Sanders Ross Morales Powell Sullivan
  Russell Ortiz Jenkins Perry Butler Barnes Fisher Henderson Coleman Patterson Jordan
  Reynolds Hamilton Graham Kim Alexander Ramos Wallace Griffin West Cole Hayes Gibson Bryant
  Ellis Stevens Murray Ford Marshall Owens McDonald Harrison Kennedy Wells Tucker Freeman
  Burns Henry Simpson Crawford Porter Mason Shaw Gordon Wagner Hunter Hicks Dixon Palmer
  Robertson Black Holmes Stone Meyer Boyd Mills Warren Fox Rose Rice Schmidt Patel Ferguson
  Nichols Ryan Fernandez Dunn Pierce Nguyen Tran Wang Chen Singh Kumar Tanaka Sato Dubois
  Bernard Rossi Silva Santos Okafor Mensah Novak Kowalski Jensen Larsen Berg
`);

const GIVEN_NAMES = list(`
  Sione Ana Mele Tavita Losa Ioane Malia Semisi Lagi Tevita Salote Viliami Sina Faith Iosefa
  Lupe Pita Ofa Manu Litia James Mary John Patricia Robert Jennifer Michael Linda William
  Elizabeth David Barbara Richard Susan Joseph Jessica Thomas Sarah Charles Karen Daniel
  Nancy Matthew Lisa Anthony Betty Mark Sandra Paul Emily Steven Ashley Andrew Kimberly
  Joshua Donna Kenneth Michelle Kevin Carol Brian Amanda George Melissa Timothy Deborah Wei
  Mei Hiroshi Yuki Priya Arjun Pierre Camille Luca Giulia Joao Maria Chidi Ama Jan Ingrid
  Lars Sofia Mateo Lucia
`);

const CITIES = list(
  `
  Auckland:NZ, Wellington:NZ, Sydney:AU, Brisbane:AU, Suva:FJ, Nukualofa:TO, Apia:WS
  Pago Pago:AS, Honolulu:US, Los Angeles:US, London:GB, Paris:FR, Manila:PH, Beijing:CN
  Tokyo:JP, Delhi:IN, Berlin:DE, Noumea:NC, Papeete:PF, Port Vila:VU
`,
  ',',
).map((entry) => entry.split(':') as [city: string, country: string]);

const OCCUPATIONS = list(
  `
  Teacher, Nurse, Engineer, Accountant, Farmer, Fisher, Retired, Student, Builder
  Electrician, Chef, Driver, Sales manager, Software developer, Doctor, Pastor, Mechanic
  Public servant, Hotel manager, Carpenter
`,
  ',',
);

/** The visas applied for, with their share. */
const VISAS: readonly [
  document: string,
  subDocument: string,
  name: string,
  fee: number,
  share: number,
][] = [
  ['VIS', 'VV30', 'Visitor visa, single entry, 30 days', 50, 0.4],
  ['VIS', 'VV90', 'Visitor visa, single entry, 90 days', 100, 0.2],
  ['VIS', 'VV1Y', 'Visitor visa, multiple entry, 1 year', 200, 0.1],
  ['TRN', 'TR72', 'Transit visa, 72 hours', 30, 0.05],
  ['WRK', 'WV1Y', 'Work visa, 1 year', 350, 0.1],
  ['WRK', 'WV3Y', 'Work visa, 3 years', 700, 0.05],
  ['STU', 'SV1Y', 'Student visa, 1 year', 150, 0.07],
  ['RES', 'RP5Y', 'Residence permit, 5 years', 700, 0.03],
];

/**
 * The character questions every visa asks and the documents every application attaches, as the
 * server fills them in at creation (catalogue lists) and the applicant uploads them.
 */
const CHARACTER_QUESTIONS = [
  [
    'CHRG',
    'Are you currently charged with, or under investigation for, any offence in any country?',
  ],
  ['CRIM', 'Have you ever been convicted of a criminal offence in any country?'],
  ['DEPT', 'Have you ever been deported, removed or excluded from any country?'],
  [
    'HLTH',
    'Do you have a medical condition that needs dialysis, hospital care or ongoing treatment?',
  ],
  ['REFU', 'Have you ever been refused entry to, or a visa for, any country?'],
  ['TB', 'Have you had tuberculosis, or been treated for it, in the last five years?'],
];
const SUPPORTING_DOCUMENTS = [
  ['PASS', 'Copy of the passport photo page', 'passport.jpg', 'image/jpeg'],
  ['PHOTO', 'Passport-size photograph', 'photo.jpg', 'image/jpeg'],
];

// ---------------------------------------------------------------------------------------------
// SQL building: every value below is a constant of this file, quoted by `literal`.

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
const textArray = (values: readonly string[]) => `array[${values.map(literal).join(',')}]`;
const inList = (values: readonly string[]) => `(${values.map(literal).join(',')})`;
/** The element of `array` a value in [0, 1) picks (SQL arrays count from 1). */
const pick = (array: string, length: number, random: string) =>
  `(${array})[1 + floor(${random} * ${length})::int]`;

/** `case` choosing among values by cumulative shares of a random number in [0, 1). */
function byShares(random: string, choices: readonly [sql: string, share: number][]): string {
  let cumulative = 0;
  const branches = choices.slice(0, -1).map(([value, share]) => {
    cumulative += share;
    return `when ${random} < ${cumulative.toFixed(6)} then ${value}`;
  });
  return `case ${branches.join(' ')} else ${choices[choices.length - 1]![0]} end`;
}

const jsonArrayOf = (items: string[]) => `jsonb_build_array(${items.join(', ')})`;

/**
 * The statement that appends `count` applications. Parameters: $1 count, $2 the demo
 * applicant's subject, $3 the demo verifier's subject. `setseed` first makes the data the
 * same on every run.
 */
export function seedStatement(): string {
  const visaIndex = byShares(
    'r_visa',
    VISAS.map((v, index) => [String(index + 1), v[4]]),
  );
  const visaField = (field: 0 | 1 | 2 | 3) =>
    field === 3
      ? `(array[${VISAS.map((v) => v[3]).join(',')}])[visa_index]`
      : `(${textArray(VISAS.map((v) => v[field]))})[visa_index]`;
  const characterQuestions = jsonArrayOf(
    CHARACTER_QUESTIONS.map(
      ([code, question], index) =>
        `jsonb_build_object('code', ${literal(code!)}, 'rank', ${index + 1}, 'question', ${literal(question!)}, 'answer', false)`,
    ),
  );
  const documents = jsonArrayOf(
    SUPPORTING_DOCUMENTS.map(
      ([code, name, file, type]) =>
        `jsonb_build_object('code', ${literal(code!)}, 'name', ${literal(name!)}, 'mandatory', true, 'file', jsonb_build_object('id', md5(i || ${literal(code!)})::uuid::text, 'name', ${literal(file!)}, 'size', 40000 + (i % 900000), 'type', ${literal(type!)}))`,
    ),
  );
  const day = (timestamp: string, days: string) =>
    `to_char((${timestamp} + (${days}) * interval '1 day') at time zone 'UTC', 'YYYY-MM-DD')`;
  const submitted = `(status <> 'STORED' and not (status = 'CANCELLED' and r_misc < 0.5))`;
  const officer = `case when r_officer = 0 then $3 else md5('officer-' || r_officer)::uuid::text end`;
  return `
insert into document (type, status, previous_status, version, owner, owner_name, owner_email,
  owner_mobile, assignee, number, year, serial, submitted_at, data, created_at, created_by,
  updated_at, updated_by)
with constants as (
  select ${characterQuestions} as character_questions
), base as (
  select i, random() as r_status, random() as r_time, random() as r_assign,
    floor(random() * ${OFFICERS})::int as r_officer, random() as r_family, random() as r_given,
    random() as r_visa, random() as r_misc, random() as r_owner, random() as r_updated
  from generate_series(1, $1::int) as i
), statused as (
  select base.*, ${byShares(
    'r_status',
    STATUS_SHARES.map(([status, share]) => [literal(status), share]),
  )} as status
  from base
), timed as (
  select statused.*,
    now() - case
      when status in ${inList(CLOSED)} then interval '20 days' + r_time * interval '1805 days'
      when status = 'STORED' then r_time * interval '365 days'
      else r_time * interval '60 days'
    end as created_at
  from statused
), dated as (
  select timed.*,
    ${submitted} as is_submitted,
    case when ${submitted} then created_at + r_misc * interval '2 days' end as submitted_at,
    least(now(), created_at + case
      when status in ${inList(CLOSED)} then interval '5 days' + r_updated * interval '55 days'
      else r_updated * (now() - created_at)
    end) as updated_at,
    (status in ${inList(ASSIGNED)}
      or (status in ${inList(QUEUED)} and r_assign < ${QUEUED_ASSIGNED})) as is_assigned,
    ${visaIndex} as visa_index,
    ${pick(textArray(FAMILY_NAMES), FAMILY_NAMES.length, 'power(r_family, 1.3)')} as family_name,
    ${pick(textArray(GIVEN_NAMES), GIVEN_NAMES.length, 'r_given')} as given_name,
    1 + floor(random() * ${CITIES.length})::int as city_index,
    case when r_owner < 0.0002 then $2
      else md5('applicant-' || floor(r_owner * $1::int * 0.7)::bigint)::uuid::text end as owner
  from timed
), numbered as (
  select dated.*,
    extract(year from submitted_at at time zone 'UTC')::int as year,
    case when is_submitted then row_number() over (
      partition by is_submitted, extract(year from submitted_at at time zone 'UTC')
      order by submitted_at) end as serial
  from dated
)
select ${literal(VISA_TYPE)}, status,
  case ${Object.entries(PREVIOUS_STATUS)
    .map(([status, previous]) => `when status = ${literal(status)} then ${literal(previous)}`)
    .join(' ')}
    when status = 'CANCELLED' then case when is_submitted then 'SUBMITTED' else 'STORED' end
  end,
  1, owner, given_name || ' ' || family_name,
  lower(given_name || '.' || family_name) || (i % 997) || '@example.org',
  '+685 7' || lpad((i % 1000000)::text, 6, '0'),
  case when is_assigned then ${officer} end,
  case when is_submitted then 'VA-' || year || '-' || lpad(serial::text, 6, '0') end,
  case when is_submitted then year end,
  case when is_submitted then serial end,
  submitted_at,
  jsonb_build_object(
    'header', jsonb_strip_nulls(jsonb_build_object(
      'document', ${visaField(0)}, 'subDocument', ${visaField(1)},
      'number', case when is_submitted then 'VA-' || year || '-' || lpad(serial::text, 6, '0') end,
      'year', case when is_submitted then year end, 'serial', serial, 'documentStatus', status,
      'submissionDate', to_char(submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))),
    'visa', jsonb_build_object('document', ${visaField(0)}, 'subDocument', ${visaField(1)}),
    'applyingFrom', jsonb_build_object(
      'outsideIsland', true, 'countryOfResidence', (${textArray(CITIES.map((c) => c[1]!))})[city_index],
      'expectedArrivalDate', ${day('created_at', '30 + r_misc * 60')},
      'purposeOfVisit', (array['TOURISM','BUSINESS','WORK','STUDY','FAMILY','TOURISM'])[1 + floor(r_visa * 6)::int],
      'previouslyHeldVisa', r_misc < 0.3),
    'applicant', jsonb_build_object(
      'title', case when r_given < 0.5 then 'MR' else 'MS' end,
      'gender', case when r_given < 0.5 then 'M' else 'F' end,
      'familyName', family_name, 'givenName', given_name,
      'birthDate', ${day("timestamptz '1950-01-01'", 'floor(random() * 20000)')},
      'birthCountry', (${textArray(CITIES.map((c) => c[1]!))})[city_index],
      'nationality', (${textArray(CITIES.map((c) => c[1]!))})[city_index],
      'occupation', ${pick(textArray(OCCUPATIONS), OCCUPATIONS.length, 'r_misc')},
      'passportNumber', 'P' || upper(substr(md5('passport' || i), 1, 8)),
      'passportIssuingCountry', (${textArray(CITIES.map((c) => c[1]!))})[city_index],
      'passportExpiryDate', ${day('created_at', '1500 + r_misc * 1800')}),
    'contact', jsonb_build_object(
      'address', jsonb_build_object('addressLine1', (1 + i % 300) || ' Main Road',
        'city', (${textArray(CITIES.map((c) => c[0]!))})[city_index],
        'country', (${textArray(CITIES.map((c) => c[1]!))})[city_index]),
      'mobile', '+685 7' || lpad((i % 1000000)::text, 6, '0'),
      'email', lower(given_name || '.' || family_name) || (i % 997) || '@example.org',
      'preferredLanguage', case when r_misc < 0.15 then 'fr' else 'en' end),
    'family', jsonb_build_object('status', 'NONE'),
    'health', jsonb_build_object('hasCondition', false),
    'sponsorship', jsonb_build_object('sponsored', false),
    'characterQuestions', character_questions,
    'documents', ${documents},
    'declarations', jsonb_build_object('accepted', true),
    'fees', jsonb_build_object(
      'lines', jsonb_build_array(
        jsonb_build_object('code', 'APP', 'name', 'Application fee', 'amount', '20.00',
          'status', case when is_submitted then 'PAID' else 'DUE' end),
        jsonb_build_object('code', 'ISS', 'name', 'Issue fee',
          'amount', ${visaField(3)} || '.00', 'status', case when is_submitted then 'PAID' else 'DUE' end)),
      'total', (20 + ${visaField(3)}) || '.00', 'currency', 'NZD')
  ) || case when status in ${inList(ISSUED)} then jsonb_build_object('issuance', jsonb_build_object(
      'issuedType', ${visaField(0)}, 'issuedSubType', ${visaField(1)}, 'entries', 'SINGLE',
      'effectiveDate', ${day('updated_at', '0')}, 'expiryDate', ${day('updated_at', '365')},
      'placeOfIssue', 'Apia')) else '{}'::jsonb end,
  created_at, given_name || ' ' || family_name,
  updated_at,
  case when is_assigned then 'Verification officer ' || (r_officer + 1) else given_name || ' ' || family_name end
from numbered, constants`;
}

/**
 * Numbers handed out from now on follow the seeded ones: each year's sequence is at least the
 * highest serial the seed wrote.
 */
export const SEQUENCE_STATEMENT = `
insert into document_sequence (type, year, last)
select type, year, max(serial) from document
where type = ${literal(VISA_TYPE)} and year is not null group by type, year
on conflict (type, year) do update set last = greatest(document_sequence.last, excluded.last)`;

/**
 * The document table's indexes but its primary key, as `create index` statements: dropped
 * while the rows go in and built again afterwards from these same definitions, which is many
 * times faster than updating each index row by row.
 */
const SECONDARY_INDEXES = `
select indexname as name, indexdef as definition from pg_indexes
where schemaname = current_schema() and tablename = 'document'
  and indexname not in (select conname from pg_constraint where conrelid = 'document'::regclass)`;

/**
 * Writes `count` applications in one transaction (nothing is left half-written), with the
 * secondary indexes rebuilt after the rows are in, and moves the number sequences past them.
 */
export async function seedApplications(
  db: SqlRunner,
  count: number,
  subjects: SeedSubjects,
): Promise<void> {
  await db.query('begin');
  try {
    await db.query(`set local maintenance_work_mem = '256MB'`);
    const indexes = (await db.query(SECONDARY_INDEXES)) as {
      rows: { name: string; definition: string }[];
    };
    for (const index of indexes.rows) await db.query(`drop index "${index.name}"`);
    await db.query('select setseed(0.4242)');
    await db.query(seedStatement(), [count, subjects.applicant, subjects.verifier]);
    for (const index of indexes.rows) await db.query(index.definition);
    await db.query(SEQUENCE_STATEMENT);
    await db.query('commit');
  } catch (error) {
    await db.query('rollback');
    throw error;
  }
}

/** How many applications the schema holds. */
export async function countApplications(db: {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}): Promise<number> {
  const result = await db.query(
    `select count(*)::int as count from document where type = ${literal(VISA_TYPE)}`,
  );
  return (result.rows[0] as { count: number }).count;
}
