//! What a sentence claims, in the terms the grounding check compares: content words,
//! numbers (by value), conditions and quantities (negation: [`super::negation`]).

use std::collections::HashSet;

use evident_index::search::stopwords::is_stop_word;
use evident_text::numbers::numbers_in;
use evident_text::quantity::{Quantity, bound_span, quantities};
use evident_text::segment::{passage_tokens, query_terms};

/// The checkable content of one sentence.
#[derive(Debug, Clone)]
pub struct Claim {
    /// The sentence as written.
    pub text: String,
    /// Content words in index form (no question words or particles), unique.
    pub terms: Vec<String>,
    /// Number values in the sentence (facts: amounts, days, dates ...).
    pub numbers: Vec<String>,
    /// Numbers of clause references (第四条, 第二章): checked against the whole passage,
    /// since a label is stated once at the head of its clause.
    pub references: Vec<String>,
    /// Its quantities (clause references left out), with units and bounds.
    pub quantities: Vec<Quantity>,
    /// Byte ranges of its conditions ("请假3天以内的", "if you are sick …").
    pub conditions: Vec<(usize, usize)>,
    /// Its words in order, index form (for matching synonym phrases).
    pub tokens: Vec<String>,
}

impl Claim {
    /// Analyses a sentence (citation markers already removed).
    pub fn of(sentence: &str) -> Self {
        let mut seen = HashSet::new();
        // Numbers are compared as quantities (by value, unit and bound), not as words.
        let tokens = query_terms(&expand_contractions(sentence));
        let quantities: Vec<Quantity> = quantities(sentence)
            .into_iter()
            .filter(|q| {
                let before = sentence[..q.start].trim_end();
                !before.ends_with('第')
            })
            .collect();
        let terms = tokens
            .iter()
            .filter(|t| !is_stop_word(t) && !is_number_word(t) && seen.insert((*t).clone()))
            .cloned()
            .collect();
        let (mut numbers, mut references) = (Vec::new(), Vec::new());
        for m in numbers_in(sentence) {
            let before = sentence[..m.start].trim_end();
            let after = sentence[m.end..].trim_start();
            let is_reference =
                before.ends_with('第') && after.starts_with(['条', '章', '节', '款', '项', '编']);
            if is_reference {
                references.push(m.value);
            } else {
                numbers.push(m.value);
            }
        }
        let conditions = super::clauses::clauses(sentence)
            .into_iter()
            .flat_map(|c| c.conditions)
            .collect();
        Self {
            text: sentence.to_owned(),
            terms,
            numbers,
            references,
            quantities,
            conditions,
            tokens,
        }
    }

    /// `q` as the claim writes it, with its unit.
    pub fn written(&self, q: &Quantity) -> String {
        self.text[q.start..q.end].trim().to_owned()
    }

    /// `q` as the claim writes it, with its bound words.
    pub fn bound_text(&self, q: &Quantity) -> String {
        let (s, e) = bound_span(&self.text, q);
        self.text[s..e].trim().to_owned()
    }

    /// Whether `q` stands in one of the claim's conditions.
    pub fn in_condition(&self, q: &Quantity) -> bool {
        self.conditions
            .iter()
            .any(|&(s, e)| q.start >= s && q.end <= e)
    }

    /// The claim's first condition, as written (after a salutation or lead that ends
    /// in a colon: "各位同事：单笔报销超过…的").
    pub fn condition_text(&self) -> Option<String> {
        let &(s, e) = self.conditions.first()?;
        let text = &self.text[s..e];
        let after_colon = text.rfind(['：', ':']).map_or(0, |i| {
            i + text[i..].chars().next().map_or(1, char::len_utf8)
        });
        Some(text[after_colon..].trim().to_owned())
    }

    /// The sentence with its conditions blanked out.
    pub fn without_conditions(&self) -> String {
        super::clauses::without_spans(&self.text, 0, self.text.len(), &self.conditions)
    }

    /// The statements the sentence joins ([`parts`]), each analysed as a claim of its
    /// own; none when it states one thing.
    pub fn statements(&self) -> Vec<Claim> {
        let parts: Vec<Claim> = statement_ranges(&self.text, &self.conditions)
            .into_iter()
            .map(|(s, e)| Claim::of(&self.text[s..e]))
            .collect();
        if parts.len() < 2 || parts.iter().any(|p| p.terms.len() < 2) {
            return Vec::new();
        }
        parts
    }

    /// Whether the claim shares a key word with `text`.
    pub fn mentions(&self, text: &str) -> bool {
        let tokens = token_set(text);
        self.terms.iter().any(|t| tokens.contains(t))
    }

    /// Whether there is anything to check (a sentence of only particles is not a claim).
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty() && self.numbers.is_empty() && self.references.is_empty()
    }
}

/// "don’t" as "do not", for words only: a contraction is not a key word of its own.
fn expand_contractions(text: &str) -> String {
    let t = drop_clitics(&text.replace(['’', '‘'], "'"));
    if !t.contains("n't") && !t.contains("N'T") {
        return t;
    }
    t.replace("can't", "cannot")
        .replace("Can't", "Cannot")
        .replace("won't", "will not")
        .replace("Won't", "Will not")
        .replace("n't", " not")
}

/// "you've", "they'll", "it's": the pronoun alone, for words only.
fn drop_clitics(text: &str) -> String {
    let mut t = text.to_owned();
    for c in ["'ve", "'ll", "'re", "'d", "'s", "'m"] {
        t = t.replace(c, "");
    }
    t
}

/// English number and money words, in index form: compared as quantities.
pub(crate) const NUMBER_WORDS_EN: &[&str] = &[
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelv",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenti",
    "thirti",
    "forti",
    "fifti",
    "sixti",
    "seventi",
    "eighti",
    "nineti",
    "hundr",
    "thousand",
    "twice",
    "dollar",
    "cent",
    "percent",
];

/// Words compared by their own checks, not as key words: bounds (at least, 最多, 以上:
/// [`evident_text::quantity`]), modality (must, 可以: [`super::modality`]) and negation.
/// A faithful "至少" for "不少于" must not cost a key word.
const CHECKED_ELSEWHERE: &[&str] = &[
    "least",
    "most",
    "minimum",
    "maximum",
    "up",
    "within",
    "over",
    "under",
    "more",
    "less",
    "fewer",
    "exceed",
    "must",
    "may",
    "can",
    "shall",
    "should",
    "need",
    "requir",
    "allow",
    "至少",
    "最少",
    "最多",
    "最长",
    "最高",
    "最低",
    "最",
    "多",
    "少",
    "超过",
    "不超过",
    "以上",
    "以下",
    "以内",
    "之内",
    "不满",
    "不足",
    "满",
    "低于",
    "高于",
    "少于",
    "多于",
    "不少于",
    "不低于",
    "不得",
    "不能",
    "不可",
    "可以",
    "可",
    "应当",
    "应该",
    "应",
    "须",
    "必须",
    "需要",
    "需",
    "要",
    "就要",
    "无需",
    "无须",
    "不必",
    "不",
    "未",
    "没",
    "没有",
    "无",
    // Words about the source rather than what it states ("According to the policy, …",
    // "根据规定，…").
    "accord",
    "polici",
    "handbook",
    "document",
    "guidelin",
    "根据",
    "依据",
    "按照",
    "依照",
    "规定",
    "制度",
    "文件",
];

/// Grammatical words a summary adds or drops freely: conjunctions, pronouns,
/// prepositions and hedges ("如果…就", "basically", "按…计算"), and the unit and range
/// words a split number leaves behind (15天 → 天, 1到3倍 → 到, 倍; "half a year"). They
/// state nothing the source must hold: found, they count; missing, they are not
/// missed ([`neutral`]). Quantifiers (所有, every, any) are not among them: a
/// claim that widens a rule to everyone says so with them; nor is 只要 ("as long as"),
/// the word of a claim that drops a condition.
const FUNCTION_WORDS: &[&str] = &[
    "如果",
    "假如",
    "要是",
    "若",
    "就",
    "就是",
    "并且",
    "而且",
    "并",
    "且",
    "而",
    "他",
    "她",
    "它",
    "他们",
    "她们",
    "自己",
    "先",
    "再",
    "还",
    "也",
    "一般",
    "通常",
    "基本上",
    "按",
    "由",
    "从",
    "把",
    "被",
    "向",
    "给",
    "用",
    "则",
    "即",
    "的话",
    "来",
    "天",
    "日",
    "元",
    "倍",
    "个",
    "月",
    "年",
    "周",
    "到",
    "至",
    "万",
    "千",
    "百",
    "basic",
    "basical",
    "general",
    "usual",
    "typic",
    "normal",
    "becaus",
    "sinc",
    "although",
    "though",
    "while",
    "whilst",
    "rather",
    "than",
    "just",
    "still",
    "alreadi",
    "onc",
    "then",
    "first",
    "happen",
    "set",
    "year",
    "month",
    "week",
    "day",
    "hour",
    "half",
];

/// Whether an index token is a number or a number with its counter (5, 三天, 五个).
fn is_number_word(t: &str) -> bool {
    if CHECKED_ELSEWHERE.contains(&t) {
        return true;
    }
    if NUMBER_WORDS_EN.contains(&t)
        || t.contains('-')
            && t.split('-')
                .all(|p| NUMBER_WORDS_EN.iter().any(|w| p.starts_with(w)))
    {
        return true;
    }
    let numbers = numbers_in(t);
    numbers.first().is_some_and(|m| m.start == 0) && t[numbers[0].end..].chars().count() <= 1
}

/// Connectives that begin a second statement after a comma: "…，但…", ", and if …".
const JOINS: &[&str] = &[
    "但是",
    "但",
    "而且",
    "并且",
    "而",
    "另外",
    "此外",
    "同时",
    "and ",
    "but ",
    "while ",
    "although ",
    "though ",
    "plus ",
    "so ",
    "whereas ",
];

/// The statements a sentence joins: its `；`/`;` parts, parts after a comma that begins
/// with a connective (", and", "，但"), and a condition after a comma. Each part has key
/// words of its own (a bare "and so on" is no statement); a sentence of one statement
/// gives none. See [`Claim::statements`].
pub fn parts(sentence: &str) -> Vec<&str> {
    let claim = Claim::of(sentence);
    if claim.statements().is_empty() {
        return Vec::new();
    }
    statement_ranges(sentence, &claim.conditions)
        .into_iter()
        .map(|(s, e)| &sentence[s..e])
        .collect()
}

/// Byte ranges (trimmed, non-empty) of the statements of `sentence`, whose conditions
/// are `conditions`.
fn statement_ranges(sentence: &str, conditions: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut cuts = vec![0];
    for (i, c) in sentence.char_indices() {
        let after = i + c.len_utf8();
        let cut = match c {
            '；' | ';' => true,
            '，' | ',' => {
                let rest = sentence[after..].trim_start().to_lowercase();
                JOINS.iter().any(|j| rest.starts_with(j))
            }
            _ => false,
        };
        if cut && after < sentence.len() {
            cuts.push(after);
        }
    }
    // A condition after a comma begins a statement of its own ("…书面通知，当事人想延期
    // 开庭的，要在…").
    for &(s, e) in conditions {
        let before = sentence[..s].trim_end();
        let at = if s > 0 && before.ends_with(['，', ',']) {
            Some(s)
        } else if sentence[s..e].chars().any(evident_text::normalize::is_cjk) {
            // A condition read from the clause's start: it begins after the last comma
            // before its own "…的，".
            let cond = sentence[s..e].trim_end_matches(['，', ',', ' ']);
            cond.match_indices(['，', ','])
                .rfind(|(i, _)| !evident_text::numbers::is_thousands_comma(sentence, s + i))
                .map(|(i, c)| s + i + c.len())
        } else {
            None
        };
        if let Some(at) = at.filter(|&a| a > 0 && a < sentence.len() && !cuts.contains(&a)) {
            cuts.push(at);
        }
    }
    cuts.sort_unstable();
    cuts.push(sentence.len());
    cuts.windows(2)
        .filter_map(|w| {
            let part = &sentence[w[0]..w[1]];
            let start = w[0] + (part.len() - part.trim_start().len());
            let len = part.trim().len();
            (len > 0).then_some((start, start + len))
        })
        .collect()
}

/// How much a key word counts towards a claim's share of words found: a single Chinese
/// character (算, 给, 休, 按) counts half. A faithful summary adds and drops such words
/// freely ("按一年算" for "按一年计算"); the words that carry a rule are longer.
pub fn weight(term: &str) -> f64 {
    let mut chars = term.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if evident_text::normalize::is_cjk(c) => 0.5,
        _ => 1.0,
    }
}

/// Whether a key word counts only when found ([`FUNCTION_WORDS`]).
pub fn neutral(term: &str) -> bool {
    FUNCTION_WORDS.contains(&term)
}

/// Index tokens of a passage or span, as a set for membership tests.
pub fn token_set(text: &str) -> HashSet<String> {
    passage_tokens(text).into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_splits_into_its_statements() {
        assert_eq!(
            parts("女职工生育享受98天产假，其中产前可休15天；难产的，增加产假15天。"),
            [
                "女职工生育享受98天产假，其中产前可休15天；",
                "难产的，增加产假15天。"
            ]
        );
        assert_eq!(
            parts(
                "We cover up to $500 a year on repairs, and if repairs exceed that, ask People Ops."
            ),
            [
                "We cover up to $500 a year on repairs,",
                "and if repairs exceed that, ask People Ops."
            ]
        );
        assert!(parts("员工请假3天以内的，提前1个工作日申请。").is_empty());
        assert!(
            parts("单笔报销超过20,000元的，须经分管副总经理审批。").is_empty(),
            "a thousands comma is no break"
        );
        assert_eq!(
            parts("仲裁庭提前三天书面通知开庭日期，当事人想延期开庭的，要在开庭五天前提出。"),
            [
                "仲裁庭提前三天书面通知开庭日期，",
                "当事人想延期开庭的，要在开庭五天前提出。"
            ]
        );
        assert!(
            parts("报销须审批；等等。").is_empty(),
            "a part without key words"
        );
    }

    #[test]
    fn a_claim_holds_terms_and_numbers() {
        let c = Claim::of("单笔报销超过5,000元须经分管副总审批");
        assert!(c.terms.contains(&"报销".to_owned()), "{:?}", c.terms);
        assert_eq!(c.numbers, ["5000"]);
        let c = Claim::of("第四条 单笔报销超过5,000元须经审批");
        assert_eq!(
            (c.numbers, c.references),
            (vec!["5000".to_owned()], vec!["4".to_owned()])
        );
        assert!(Claim::of("是的。").is_empty());
    }
}
