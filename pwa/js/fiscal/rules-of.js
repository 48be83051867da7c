// The municipality's composed rules, compiled once per download (compileComposed is the costly
// step) and shared by the checklist, result, auto and vistoria screens. Its own module so that
// a screen needing the rules does not import another screen to get them.
import { compileComposed } from '../rules/index.js';

let compiled = { source: null, rules: null };

/** The compiled rules of loadField()'s data (the same object until the rules change). */
export function rulesOf(data) {
  if (compiled.source !== data.rules) compiled = { source: data.rules, rules: compileComposed(data.rules) };
  return compiled.rules;
}
