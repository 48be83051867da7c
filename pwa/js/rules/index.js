// Public API of the JS rules engine (SPEC: shared_rules/SPEC.md). Plain ES modules, no deps:
// runs in Node 20 and in the browser.
export { compose, compileComposed, loadMunicipality, deepMerge, ComposedRules, SPEC_VERSION } from "./compose.js";
export { evaluate } from "./evaluation.js";
export { checklist, autoFields, autoForm, TYPED_SOURCES } from "./checklist.js";
export { FactError, HistoryError, EvalError, PackError, RulesError } from "./errors.js";
export { compileExpr, UNKNOWN } from "./expr.js";
