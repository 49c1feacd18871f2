import { afterEach, describe, expect, it } from "vitest";
import type { Problem } from "./bindings";
import cases from "./fixtures/problems.json";
import { setLang } from "./i18n";
import { sayProblem } from "./problems";

// Every problem the core can report, with the core's own English and Chinese words
// (written by crates/evident-core/tests/problem_words.rs): the window says the same.
describe("sayProblem", () => {
  afterEach(() => setLang("en"));

  for (const c of cases as { problem: Problem; en: string; zh: string }[]) {
    it(`says ${c.problem.code} as the core does`, () => {
      setLang("en");
      expect(sayProblem(c.problem)).toBe(c.en);
      setLang("zh-CN");
      expect(sayProblem(c.problem)).toBe(c.zh);
    });
  }
});
