import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "./bindings";
import cases from "./fixtures/messages.json";
import { setLang } from "./i18n";
import { say } from "./messages";

// Every message the core can send (grounding reasons, outcomes, notes), with the core's
// own English and Chinese words (written by crates/evident-core/tests/message_words.rs,
// which also fails when a code has no example): the window says the same.
describe("say", () => {
  afterEach(() => setLang("en"));

  for (const [i, c] of (cases as { message: Message; en: string; zh: string }[]).entries()) {
    it(`says ${c.message.code} (#${i}) as the core does`, () => {
      setLang("en");
      expect(say(c.message)).toBe(c.en);
      setLang("zh-CN");
      expect(say(c.message)).toBe(c.zh);
    });
  }
});
