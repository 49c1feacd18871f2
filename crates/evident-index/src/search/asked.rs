//! What a question asks for, and what a sentence offers: the answer's type against the
//! question's.
//!
//! "多少" wants a quantity, "多久" a length of time, "谁批" an approver, "什么时候" a date
//! or a deadline, "能不能" a permission or a prohibition. A sentence that shares every
//! key word of the question but offers none of that (the topic sentence of the right
//! passage) is not its answer, and one that shares few words but offers exactly that
//! (an approver named for the amount asked about) may be. Both the answer-sentence
//! ranker and the outcome read these types (`search::choose`, `search::outcome`); neither knows a word
//! list of its own.
//!
//! Cues are matched on the question folded to Simplified Chinese and lower case, so a
//! Traditional question (何時, 誰) asks the same as a Simplified one.

use evident_text::normalize::nfkc;
use evident_text::quantity::{Dimension, Quantity, quantities};

/// The kinds of answer a question can ask for (several at once: "几天内找谁批").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Asked {
    /// An amount of money or a rate: 多少钱, 怎么补偿, how much is paid.
    pub amount: bool,
    /// A length of time: 多久, 几天, how long, how many weeks.
    pub duration: bool,
    /// A count or a plain number: 多少, 几个, how many.
    pub count: bool,
    /// A person, a role or a body: 谁, 找谁, 哪个部门, who.
    pub actor: bool,
    /// A date, a time or a deadline: 什么时候, 何时, 哪一年, when.
    pub date: bool,
    /// Whether something is allowed: 能不能, 可以吗, 合法吗, can I, am I allowed.
    pub permission: bool,
    /// A place: 哪里, 在哪, where.
    pub place: bool,
}

const AMOUNT: &[&str] = &[
    "多少钱",
    "几块",
    "多少块",
    "补偿",
    "赔偿",
    "怎么赔",
    "工资",
    "报酬",
    "津贴",
    "补贴",
    "费用",
    "标准",
    "比例",
    "how much",
    "what rate",
    "what percentage",
    "how many dollars",
];

const DURATION: &[&str] = &[
    "多久",
    "多长时间",
    "多长",
    "几天",
    "几个月",
    "几年",
    "几周",
    "几个星期",
    "几小时",
    "几个小时",
    "多少天",
    "多少日",
    "多少年",
    "多少个月",
    "期限",
    "时限",
    "how long",
    "how much time",
    "how many days",
    "how many business days",
    "how many weeks",
    "how many months",
    "how many years",
    "how many hours",
    "how soon",
];

const COUNT: &[&str] = &["多少", "几", "how many", "how much", "what number"];

const ACTOR: &[&str] = &[
    "谁",
    "哪个部门",
    "哪个人",
    "哪位",
    "什么人",
    "哪些人",
    "何人",
    "哪个机构",
    "什么机构",
    "哪一方",
    "who ",
    "who's",
    "whom",
    "whose",
    "which team",
    "which department",
];

const DATE: &[&str] = &[
    "什么时候",
    "何时",
    "哪一年",
    "哪年",
    "哪一天",
    "哪天",
    "几月",
    "几号",
    "几点",
    "什么时间",
    "多会儿",
    "截止",
    "之前要",
    "when ",
    "what date",
    "what time",
    "what year",
    "which year",
    "what day",
    "deadline",
    "by when",
];

const PERMISSION: &[&str] = &[
    "能不能",
    "能否",
    "可不可以",
    "可以吗",
    "可以不",
    "可否",
    "是否可以",
    "允许",
    "合法吗",
    "违法吗",
    "合理吗",
    "行不行",
    "行吗",
    "能吗",
    "有权",
    "必须",
    "要不要",
    "需不需要",
    "需要吗",
    "can i",
    "can we",
    "can my",
    "can they",
    "can the",
    "may i",
    "am i allowed",
    "is it allowed",
    "allowed to",
    "is it legal",
    "do i have to",
    "do i need to",
    "must i",
    "is it ok",
    "is it okay",
    "permitted",
];

const PLACE: &[&str] = &["哪里", "哪儿", "在哪", "什么地方", "何处", "何地", "where"];

fn any(q: &str, cues: &[&str]) -> bool {
    cues.iter().any(|c| q.contains(c))
}

/// The question in the form its cues are matched in: NFKC, Simplified, lower case,
/// with a space at each end so that English cues can demand a word boundary.
fn folded(question: &str) -> String {
    let s = evident_text::segment::simplified(&nfkc(question)).to_lowercase();
    format!(" {s} ")
}

impl Asked {
    /// What `question` asks for, from its words.
    pub fn of(question: &str) -> Self {
        let q = folded(question);
        let duration = any(&q, DURATION);
        let amount = any(&q, AMOUNT) && !duration;
        let date = any(&q, DATE);
        Self {
            amount,
            duration,
            count: any(&q, COUNT) && !duration && !amount && !date,
            actor: any(&q, ACTOR),
            date,
            permission: any(&q, PERMISSION),
            place: any(&q, PLACE),
        }
    }

    /// Whether the question asks for any type of answer at all (else only its topic
    /// is known: "what does the policy say about …").
    pub fn any(&self) -> bool {
        self.amount
            || self.duration
            || self.count
            || self.actor
            || self.date
            || self.permission
            || self.place
    }
}

/// What a sentence offers, of the kinds a question asks for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Offers {
    /// A sum of money or a rate (元, $, %, 倍).
    pub amount: bool,
    /// A length of time (日, 个月, weeks, hours).
    pub duration: bool,
    /// Any number.
    pub number: bool,
    /// A role, a party, a person or a body (经理, 用人单位, People Ops, a name).
    pub actor: bool,
    /// A date or a time of day (2015年5月, May 22, 2015, 每月10日).
    pub date: bool,
    /// A rule on what may, must or must not be done (可以, 不得, 应当, may, must not).
    pub permission: bool,
    /// A place.
    pub place: bool,
}

const MODALS: &[&str] = &[
    "可以",
    "不得",
    "不能",
    "不可",
    "禁止",
    "应当",
    "应该",
    "必须",
    "须",
    "有权",
    "无权",
    "允许",
    "不予",
    "不需",
    "无需",
    "无须",
    " may ",
    " must ",
    " can ",
    " cannot ",
    " can't ",
    " shall ",
    " should ",
    " not allowed",
    " allowed",
    " permitted",
    " prohibited",
    " required",
    " entitled",
    " eligible",
    " need to ",
];

const ACTORS_ZH: &[&str] = &[
    "经理",
    "总监",
    "总裁",
    "主管",
    "负责人",
    "主任",
    "董事",
    "委员会",
    "部门",
    "单位",
    "劳动者",
    "职工",
    "员工",
    "雇主",
    "机关",
    "机构",
    "政府",
    "部门",
    "公司",
    "本人",
    "法院",
    "工会",
];

const ACTORS_EN: &[&str] = &[
    " manager",
    " supervisor",
    " people ops",
    " people operations",
    " people team",
    " hr ",
    " human resources",
    " finance",
    " cfo",
    " ceo",
    " director",
    " team",
    " department",
    " employer",
    " officer",
    " lead ",
    " agency",
    " committee",
    " we ",
    " us ",
    " you ",
];

impl Offers {
    /// What `sentence` offers; `names` are the kinds of names jieba tags in it.
    pub fn of(sentence: &str, names: &NamesIn) -> Self {
        let folded = format!(
            " {} ",
            evident_text::segment::simplified(&nfkc(sentence)).to_lowercase()
        );
        let found = quantities(sentence);
        let has = |f: fn(&Quantity) -> bool| found.iter().any(f);
        Self {
            amount: has(|q| matches!(q.dimension, Dimension::Money(_) | Dimension::Ratio)),
            duration: has(|q| {
                matches!(
                    q.dimension,
                    Dimension::Days | Dimension::Months | Dimension::Hours
                )
            }),
            number: !found.is_empty()
                || evident_text::numbers::numbers_in(sentence)
                    .iter()
                    .any(|m| !m.value.is_empty()),
            actor: names.person
                || names.organisation
                || any(&folded, ACTORS_ZH)
                || any(&folded, ACTORS_EN),
            date: has(|q| q.dimension == Dimension::Date) || has_english_date(&folded),
            permission: any(&folded, MODALS),
            place: names.place,
        }
    }
}

/// The kinds of names jieba tags in a sentence.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NamesIn {
    /// A person's name (`nr`).
    pub person: bool,
    /// A place (`ns`).
    pub place: bool,
    /// An organisation (`nt`).
    pub organisation: bool,
}

impl NamesIn {
    /// The kinds of names in `sentence`, by jieba's tags.
    pub fn of(sentence: &str) -> Self {
        let mut names = Self::default();
        evident_text::segment::for_each_tag(sentence, |tag| match tag {
            "nr" | "nrfg" | "nrt" => names.person = true,
            "ns" => names.place = true,
            "nt" => names.organisation = true,
            _ => {}
        });
        names
    }
}

const MONTHS: &[&str] = &[
    "january",
    "february",
    "march ",
    "april",
    "may 1",
    "may 2",
    "may 3",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// Whether an English sentence writes a date ("May 22, 2015", "in 1998").
fn has_english_date(folded: &str) -> bool {
    any(folded, MONTHS)
        || folded.split(|c: char| !c.is_ascii_digit()).any(|run| {
            run.len() == 4 && run.parse::<u32>().is_ok_and(|y| (1800..=2100).contains(&y))
        })
}

/// How well a sentence's offer meets a question's ask, kind by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TypeMatch {
    /// The question asks for an amount, and the sentence states one.
    pub amount: bool,
    /// It asks for a length of time, and the sentence states one.
    pub duration: bool,
    /// It asks for a count, and the sentence holds a number.
    pub count: bool,
    /// It asks who, and the sentence names someone.
    pub actor: bool,
    /// It asks when, and the sentence holds a date.
    pub date: bool,
    /// It asks whether something is allowed, and the sentence rules on it.
    pub permission: bool,
    /// It asks where, and the sentence names a place.
    pub place: bool,
}

impl TypeMatch {
    /// `offers` against `asked`.
    pub fn of(asked: &Asked, offers: &Offers) -> Self {
        Self {
            amount: asked.amount && offers.amount,
            duration: asked.duration && offers.duration,
            count: asked.count && offers.number,
            actor: asked.actor && offers.actor,
            date: asked.date && offers.date,
            permission: asked.permission && offers.permission,
            place: asked.place && offers.place,
        }
    }

    /// Whether the sentence offers any kind the question asks for.
    pub fn any(&self) -> bool {
        self.amount
            || self.duration
            || self.count
            || self.actor
            || self.date
            || self.permission
            || self.place
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_say_what_they_ask_for() {
        let a = Asked::of("我花了三万块招待客户，这笔钱要谁批准才能报？");
        assert!(a.actor && !a.duration, "{a:?}");
        let a = Asked::of("年假有几天？");
        assert!(a.duration && !a.count && !a.amount, "{a:?}");
        let a = Asked::of("How much is the home office stipend?");
        assert!(a.amount && !a.duration, "{a:?}");
        let a = Asked::of("When do I have to file my expense report?");
        assert!(a.date, "{a:?}");
        let a = Asked::of("公司能不能扣押我的身份证？");
        assert!(a.permission, "{a:?}");
        let a = Asked::of("陸特和漢斯雷頓開創了哪一地區對梵語的學術研究？");
        assert!(!a.actor && !a.date, "{a:?}");
        let a = Asked::of("《战国无双3》是由哪两个公司合作开发的？");
        assert!(
            !a.count,
            "哪两个 asks which two (their names), not how many: {a:?}"
        );
        assert!(!Asked::of("What does the travel policy cover?").any());
    }

    #[test]
    fn sentences_say_what_they_offer() {
        let o = Offers::of(
            "单笔报销超过20,000元的，须经分管副总经理审批。",
            &NamesIn::default(),
        );
        assert!(o.amount && o.actor && o.permission && !o.duration, "{o:?}");
        let o = Offers::of("年休假天数为5天。", &NamesIn::default());
        assert!(o.duration && !o.amount, "{o:?}");
        let o = Offers::of("Last Updated on May 22, 2015", &NamesIn::default());
        assert!(o.date, "{o:?}");
        let o = Offers::of("员工不得擅自离岗。", &NamesIn::default());
        assert!(o.permission && o.actor, "{o:?}");
    }

    #[test]
    fn a_sentence_answers_the_kind_it_is_asked_for() {
        let asked = Asked::of("我花了三万块招待客户，这笔钱要谁批准才能报？");
        let approver = Offers::of(
            "单笔报销超过20,000元的，须经分管副总经理审批。",
            &NamesIn::default(),
        );
        let deadline = Offers::of("报销应在费用发生后30日内提交。", &NamesIn::default());
        assert!(TypeMatch::of(&asked, &approver).actor);
        assert!(!TypeMatch::of(&asked, &deadline).actor);
    }
}
