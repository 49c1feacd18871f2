import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "src/bindings.ts"] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    rules: {
      // Document text must never become markup: these are how that would happen.
      "no-restricted-properties": [
        "error",
        { property: "innerHTML", message: "Build DOM nodes with dom.ts; document text is data." },
        { property: "outerHTML", message: "Build DOM nodes with dom.ts; document text is data." },
        { property: "insertAdjacentHTML", message: "Build DOM nodes with dom.ts." },
      ],
      "no-restricted-syntax": [
        "error",
        { selector: "CallExpression[callee.property.name='write'][callee.object.name='document']", message: "No document.write." },
      ],
    },
  },
);
