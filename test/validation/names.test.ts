import {
  NOT_A_STRING, dns1123LabelProblems, dns1123SubdomainProblems, envVarNameProblems, labelValueProblems, portNameProblems, qualifiedNameProblems,
} from '../../src/validation/names';

// A manifest can hold anything where a name belongs; each check says so instead of failing on it.
const checks = { dns1123LabelProblems, dns1123SubdomainProblems, envVarNameProblems, labelValueProblems, portNameProblems, qualifiedNameProblems };

describe.each(Object.entries(checks))('%s', (_name, check) => {
  test.each([80, true, null, { a: 1 }, ['x']])('%j is not a string', v => {
    expect(check(v as any)).toEqual([NOT_A_STRING]);
  });
});

test('a valid name of each kind passes', () => {
  expect(dns1123LabelProblems('web-1')).toEqual([]);
  expect(dns1123SubdomainProblems('web.example.com')).toEqual([]);
  expect(envVarNameProblems('MY_VAR')).toEqual([]);
  expect(labelValueProblems('v1.2')).toEqual([]);
  expect(portNameProblems('http')).toEqual([]);
  expect(qualifiedNameProblems('example.com/name')).toEqual([]);
});
