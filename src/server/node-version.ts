// Checked before anything else loads: on an older Node the modules fail to link, saying nothing
// of the version. Written for any Node: no import, no newer syntax.

/** `[major, minor, patch]` of a version such as `22.18.0` or `v20.1`; missing parts are 0. */
function parts(version: string): [number, number, number] {
  const [major = 0, minor = 0, patch = 0] = version
    .replace(/^v/, '')
    .split('.')
    .map((part) => Number.parseInt(part, 10) || 0);
  return [major, minor, patch];
}

/** The one line to print when Node `found` is older than `engines` (`>=22.18`), else undefined. */
export function nodeVersionProblem(found: string, engines: string): string | undefined {
  const least = /^\s*>=\s*v?(\d+(?:\.\d+){0,2})\s*$/.exec(engines)?.[1];
  if (!least) return undefined;
  const [have, need] = [parts(found), parts(least)];
  const index = have.findIndex((part, i) => part !== need[i]);
  if (index === -1 || have[index]! > need[index]!) return undefined;
  return `The portal needs Node.js ${least} or later (package.json "engines": "${engines}"); this is Node.js ${found.replace(/^v/, '')}. Run it with a newer Node.js (npm start uses the one npm ci installs).`;
}
