"""Labelled conversation turns for measuring the offline extractor.

Each case is one user turn (with the assistant's reply when it matters and
what memory already knows), labelled with the categories of the facts a
careful human would keep, or nothing. It covers every kind of example of the
extraction reference document, rephrased with new names and details, plus
negatives: greetings, tool requests, questions, small talk, already-known
facts, secrets and hedges.
"""

from __future__ import annotations

from dataclasses import dataclass, field

DAY = "2026-03-30"


@dataclass(frozen=True)
class Case:
    name: str
    user: str
    expected: frozenset[str]
    assistant: str | None = None
    known: tuple[str, ...] = ()
    secret: str | None = None  # a credential in the turn that must never be written
    tags: tuple[str, ...] = field(default_factory=tuple)

    def messages(self) -> list[dict[str, str]]:
        found = [{"role": "user", "content": self.user}]
        if self.assistant is not None:
            found.append({"role": "assistant", "content": self.assistant})
        return found


def _c(name: str, user: str, *expected: str, **extra: object) -> Case:
    return Case(name, user, frozenset(expected), **extra)  # type: ignore[arg-type]


GH_TOKEN = "ghp_" + "R8kq2Lx7Vw4Nz1Tb6Yc9Pm3Hd5Js0Ga8Fe2Ku"
OPENAI_KEY = "sk-proj-" + "Xq7Lm2Nw8Rt4Vb1Zc6Ky9Pd3Hs5Jf0Ga"

CASES: list[Case] = [
    # --- the reference document's kinds of examples, in new words ---------------------------
    _c(
        "ref-config-agent-cron",
        "I hooked up the news agent to GPT-4o with a 15-minute cron. It reads Lobsters and "
        "posts digests to #news-digest in Discord.",
        "configuration",
    ),
    _c("ref-tool-request", "Restart the worker pods in staging", assistant="All 6 pods restarted."),
    _c(
        "ref-known-greeting",
        "Priya here again, hi",
        known=("User is Priya, staff data engineer at Northwind",),
    ),
    _c(
        "ref-rule-with-reason",
        "Never run migrations on Fridays, it cost us a whole weekend in March",
        "rule",
    ),
    _c(
        "ref-project-update",
        "So excited for the Lisbon trip, we really want to ride tram 28 and eat pastéis de nata",
        "project",
        known=("As of 2026-02-01, user is planning a trip to Lisbon in June with friend Marta",),
    ),
    _c(
        "ref-completed-action",
        "Update the onboarding sheet with the new security checklist",
        "configuration",
        assistant="Done: the onboarding sheet now has the new security checklist.",
    ),
    _c(
        "ref-credential-configured",
        f"Here's the token for the billing service: {GH_TOKEN}",
        "configuration",
        assistant="Saved it and configured the billing service.",
        secret=GH_TOKEN,
    ),
    _c(
        "ref-semantic-duplicate",
        "yeah Miso and I love our evening play time",
        known=("User has a cat named Miso and enjoys evening play time with Miso",),
    ),
    _c(
        "ref-grouped-project",
        "The budget for the hackathon is $80 per person. We need a room with 40 seats, strong "
        "WiFi and a coffee machine.",
        "project",
    ),
    _c(
        "ref-temporary-constraint",
        "I sprained my wrist on Saturday, can't climb for a few weeks",
        "project",
        known=("User enjoys bouldering twice a week",),
    ),
    _c(
        "ref-identity-and-decision",
        "I'm Tomás, I work at Shopwise. We just decided to move our queues from RabbitMQ to SQS "
        "because of the ops load.",
        "identity",
        "decision",
    ),
    _c("ref-hi", "Hi", assistant="Hello! What can I do for you?"),
    _c(
        "ref-consolidated-preference",
        "Miso finally uses the scratching post! Evenings with her are honestly the best part of "
        "my week",
        "preference",
        known=("User has a cat", "The cat is called Miso"),
    ),
    _c(
        "ref-identity-full",
        "I'm Leena, lead mobile developer at Brightpath, based in CET timezone",
        "identity",
    ),
    _c(
        "ref-preference-why",
        "I prefer Helix over Neovim for quick edits because of the built-in LSP",
        "preference",
    ),
    _c(
        "ref-preference-style", "Keep your replies short and skip the closing summary", "preference"
    ),
    _c(
        "ref-project-status",
        "I'm building a voice assistant for our warehouse staff, the demo to the ops team is "
        "planned for mid-May",
        "project",
    ),
    _c("ref-project-milestone", "We launched the Stripe billing integration yesterday", "project"),
    _c(
        "ref-stack",
        "Our stack is Go microservices, a React frontend, Postgres 15 with Citus, all on GKE",
        "technical",
    ),
    _c(
        "ref-relationships",
        "Anjali owns the data pipeline and Marcus owns the mobile apps at Shopwise",
        "relationship",
    ),
    _c(
        "ref-decision-reason",
        "We decided to drop Jenkins for GitHub Actions because nobody wants to maintain the box",
        "decision",
    ),
    _c(
        "ref-config-schedule",
        "Our nightly backup job runs at 02:00 and ships snapshots to an S3 bucket in eu-west-1",
        "configuration",
    ),
    _c(
        "ref-config-identifier",
        "The staging server IP is 10.0.4.17 and the machine runs Ubuntu 24.04",
        "configuration",
    ),
    _c(
        "ref-rule-each-agent",
        "Each agent must log its model choice before finishing a task",
        "rule",
    ),
    # --- more positives ----------------------------------------------------------------------
    _c("rule-dont-ever", "Don't ever push directly to main, CI has to run first", "rule"),
    _c("rule-from-now-on", "From now on, answer in British English", "rule"),
    _c("identity-name-city", "My name is Ravi and I live in Pune", "identity"),
    _c("identity-job", "I work as a data analyst at Fjord Bank", "identity"),
    _c("identity-city-tz", "I live in Oslo, my timezone is Europe/Oslo", "identity"),
    _c("preference-hate", "I hate long meetings before lunch", "preference"),
    _c("preference-always", "I always write the tests before the implementation", "preference"),
    _c("relationship-manager", "My manager is Helen Park", "relationship"),
    _c("relationship-cto", "Jonas Berg is our new CTO", "relationship"),
    _c("relationship-team-lead", "Sara Lind is my team lead", "relationship"),
    _c(
        "technical-we-use",
        "We use Terraform, Ansible and Vault for the infrastructure",
        "technical",
    ),
    _c("technical-written-in", "The backend is written in Elixir", "technical"),
    _c("technical-skill", "I've been writing Rust for six years", "technical"),
    _c("project-deadline", "The deadline for the audit report is June 30", "project"),
    _c(
        "project-requires",
        "The conference requires three breakout rooms and step-free access",
        "project",
    ),
    _c("decision-lets", "Let's go with Fly.io for the staging environment", "decision"),
    _c("decision-migrated", "We migrated the docs site from Gatsby to Astro last week", "decision"),
    _c("config-installed", "I installed Ollama on the GPU box and pulled llama3", "configuration"),
    _c("sv-identity", "Jag heter Karin och jag jobbar på Volvo", "identity"),
    _c("sv-preference", "Jag föredrar korta svar utan sammanfattning", "preference"),
    _c("de-decision", "Wir haben entschieden, auf Kubernetes zu verzichten", "decision"),
    _c("de-identity", "Ich arbeite bei Siemens als Ingenieurin", "identity"),
    _c("es-identity", "Me llamo Lucía y vivo en Valencia", "identity"),
    _c("es-preference", "Prefiero que las respuestas sean breves", "preference"),
    # --- negatives ---------------------------------------------------------------------------
    _c("neg-thanks", "Thanks, that's perfect!"),
    _c("neg-ok", "ok"),
    _c("neg-good-morning", "Good morning!"),
    _c("neg-summarise", "Can you summarise this PR for me?"),
    _c("neg-question", "What's the difference between a mutex and a semaphore?"),
    _c("neg-run-tests", "Run the test suite again please", assistant="All 412 tests pass."),
    _c("neg-show-log", "Show me the last 50 lines of the nginx log"),
    _c("neg-tool-output", "Here is the output:\n```\nERROR: connection refused on :5432\n```"),
    _c(
        "neg-secret-password",
        "my db password is Tr0ub4dor&3, save it somewhere",
        secret="Tr0ub4dor&3",
    ),
    _c(
        "neg-secret-env",
        f"export OPENAI_API_KEY={OPENAI_KEY}",
        secret=OPENAI_KEY,
    ),
    _c(
        "neg-known-preference",
        "Yeah I prefer uv over Poetry for Python projects",
        known=("User prefers uv over Poetry for Python projects",),
    ),
    _c(
        "neg-known-stack",
        "Our stack is Python, FastAPI and PostgreSQL",
        known=("The team's stack: Python, FastAPI, PostgreSQL",),
    ),
    _c("neg-small-talk", "Snow today! The dog went crazy in the yard"),
    _c("neg-hedge", "Maybe we'll switch to Rust someday"),
    _c("neg-choice-question", "Should we use Redis or Memcached for sessions?"),
    _c("neg-assistant-trait", "Cool", assistant="You seem really excited about the launch!"),
    _c("neg-unsure", "I'm not sure yet which database to pick"),
    _c("neg-lol", "Lol that bug was hilarious"),
    _c("neg-one-off-op", "Please restart the API pods", assistant="Done, all pods restarted."),
    _c("neg-love-it", "I love it, thanks!"),
    _c("neg-never-mind", "Never mind, I figured it out"),
    _c(
        "neg-known-identity",
        "As I said, I'm Leena from Brightpath",
        known=("User is Leena, lead mobile developer at Brightpath",),
    ),
    _c("neg-failed-action", "Update the pricing sheet", assistant="I couldn't open the sheet."),
    # --- written after the rules, as people actually chat. Not tuned against: the only change
    # made after measuring them fixed a false positive (a relocation read as a decision).
    _c("chat-moved", "btw I moved to Amsterdam last month", "identity"),
    _c("chat-handles", "Kenji handles all the GIS stuff on our side", "relationship"),
    _c("chat-python-version", "We're on Python 3.12 across all services now", "technical"),
    _c("chat-leave", "Heads up: I'll be on parental leave from May 2 to August 30", "project"),
    _c("chat-editor", "My go-to editor is Zed these days", "preference"),
    _c("chat-reply-language", "Please always reply in Swedish when I write in Swedish", "rule"),
    _c("chat-recall-question", "Could you remind me what we decided about caching?"),
    _c("chat-mondays", "Ugh, Mondays."),
    _c("chat-promoted", "I just got promoted to engineering manager!", "identity"),
    _c("chat-picked", "We ended up picking Linear over Jira for issue tracking", "decision"),
    _c("chat-no-coffee", "I don't drink coffee, only tea", "preference"),
    _c("chat-lunch", "Lunch was great today"),
    _c("chat-gateway", "The API gateway is Kong, fronted by Cloudflare", "technical"),
    _c("chat-approvals", "Deploys to prod need two approvals from now on", "rule"),
    _c("chat-vegetarian", "I told you yesterday, I'm vegetarian", "preference"),
    _c("chat-weather-plan", "I might go hiking this weekend if the weather holds"),
    _c("chat-ack-long", "Sounds good, let me know when the build is green"),
    _c("chat-standup", "Our standup moved to 09:45 starting next week", "configuration"),
]


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass
class Measurement:
    overall: Score
    per_category: dict[str, Score]
    secrets_written: int
    mistakes: list[str]


def measure(cases: list[Case] | None = None) -> Measurement:
    """Run the offline extractor over every case; score categories, count leaked secrets."""
    from memclaw.extract.offline.engine import extract_facts
    from memclaw.gates import contains_secret
    from memclaw.text.likeness import known_lines

    overall = Score()
    per: dict[str, Score] = {}
    leaked = 0
    mistakes = []
    for case in cases if cases is not None else CASES:
        found = extract_facts(case.messages(), DAY, known_lines(*case.known))
        predicted = {fact.category for fact in found.facts}
        for fact in found.facts:
            if contains_secret(fact.text) or (case.secret and case.secret in fact.text):
                leaked += 1
        for category in predicted | case.expected:
            score = per.setdefault(category, Score())
            if category in predicted and category in case.expected:
                score.tp += 1
                overall.tp += 1
            elif category in predicted:
                score.fp += 1
                overall.fp += 1
            else:
                score.fn += 1
                overall.fn += 1
        if predicted != case.expected:
            texts = "; ".join(f"[{f.category}] {f.text}" for f in found.facts) or "nothing"
            mistakes.append(f"{case.name}: expected {sorted(case.expected)}, got {texts}")
    return Measurement(overall, per, leaked, mistakes)
