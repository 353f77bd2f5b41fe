"""A second labelled set of user turns, written BEFORE any rule was tuned against it.

Same format as extraction_cases.py. The cases come in pairs of the same kind, so the
set splits into two comparable halves:

- even index (DEV): may be looked at while improving the rules;
- odd index (HELDOUT): never tuned against; its figures are the honest ones.

Phrasing is deliberately varied: casual, terse, lower-case, emoji, long rambling
turns with one fact inside, two facts in one turn, facts inside questions, and a few
turns in Swedish, German and Spanish. About 30% are negatives: small talk, questions,
tool requests, hedges and hypotheticals, already-known facts (including paraphrases),
secrets and text that reads like an assistant's reply.
"""

from __future__ import annotations

from extract.extraction_cases import Case, _c

AWS_KEY = "AKIA" + "J7QX2MZP4LKD9RWE"
GH_TOKEN = "ghp_" + "T3vb9Qw2Lk8Nx5Rz1Hc7Ym4Pd6Js0Fa2Ge9Ku"

HELDOUT_CASES: list[Case] = [
    # P0 identity
    _c("h-intro-emoji", "hey! I'm Noor, I run the platform team at Quillbase 🙂", "identity"),
    _c("h-based-in-lower", "im based in lisbon btw", "identity"),
    # P1 technical
    _c("h-monorepo-pnpm", "fyi the monorepo uses pnpm workspaces and turborepo", "technical"),
    _c("h-k8s-version", "we're running Kubernetes 1.29 on bare metal", "technical"),
    # P2 preference
    _c("h-no-emoji-commits", "honestly I can't stand emoji in commit messages", "preference"),
    _c("h-tabs", "I'm more of a tabs person, 4 wide", "preference"),
    # P3 rule
    _c(
        "h-rule-ticket",
        "Never commit anything to the infra repo without a ticket number in the message.",
        "rule",
    ),
    _c("h-rule-metric-trailing", "use metric units in all answers from now on", "rule"),
    # P4 decision
    _c("h-went-with", "we went with Hetzner in the end, AWS was 3x the price", "decision"),
    _c(
        "h-switched",
        "After a lot of back and forth we switched from Slack to Zulip for the open source "
        "community",
        "decision",
    ),
    # P5 configuration
    _c(
        "h-backups",
        "The prod database backups run every 6 hours and are kept for 14 days",
        "configuration",
    ),
    _c("h-default-branch", "I set the default branch to trunk on all our repos", "configuration"),
    # P6 relationship
    _c("h-designer", "Farah is our designer, she does all the Figma stuff", "relationship"),
    _c("h-cofounder", "my cofounder is Emeka Obi, he takes care of sales", "relationship"),
    # P7 project
    _c(
        "h-book",
        "I'm writing a book on distributed systems, aiming to finish the draft by October",
        "project",
    ),
    _c(
        "h-rambling-series-a",
        "ok so long story, I was at the dentist this morning and then the train was delayed for "
        "like an hour and I missed the first half of the all-hands, anyway the main thing is "
        "that our Series A closes on April 15 so things are hectic",
        "project",
    ),
    # P8 small talk
    _c("h-neg-weather", "haha yeah the weather here is insane today ☀️"),
    _c("h-neg-brb", "brb, coffee"),
    # P9 questions
    _c("h-neg-revert", "how do I revert a merge commit without losing history?"),
    _c("h-neg-es-question", "¿Cuál es la diferencia entre TCP y UDP?"),
    # P10 tool requests
    _c("h-neg-linter", "run the linter on src/ and tell me what breaks"),
    _c("h-neg-grafana", "can you open the Grafana dashboard and check the p99 latency?"),
    # P11 hypotheticals
    _c("h-neg-if-gcp", "if we ever moved to GCP, would BigQuery be cheaper than Snowflake for us?"),
    _c("h-neg-wonder", "I wonder if Rust would be faster for this"),
    # P12 hedges
    _c("h-neg-someday", "maybe I'll try Nix someday when I have time"),
    _c("h-neg-might", "we might look at Temporal for the workflows but nothing's decided"),
    # P13 assistant-like text
    _c(
        "h-neg-assistant-summary",
        "Sure! Here's a quick summary of the main points:\n1. The API is stable\n"
        "2. All tests pass\nLet me know if you need anything else!",
    ),
    _c(
        "h-neg-as-an-ai",
        "As an AI language model, I cannot browse the internet. However, I can help you draft "
        "the email.",
    ),
    # P14 two facts in one turn
    _c(
        "h-two-kivra",
        "I'm a backend dev at Kivra and we write everything in Kotlin",
        "identity",
        "technical",
    ),
    _c(
        "h-two-sentry-oncall",
        "We use Sentry for errors and Honeycomb for traces. Also, Lukas is now the on-call lead.",
        "technical",
        "relationship",
    ),
    # P15 negative-verb preferences
    _c("h-no-dark-mode", "I don't use dark mode, it gives me headaches", "preference"),
    _c("h-de-no-coffee", "Ich trinke keinen Kaffee, nur Tee", "preference"),
    # P16 rules
    _c("h-rule-ask-delete", "always ask before deleting any files in my home directory", "rule"),
    _c("h-rule-fridays", "never schedule meetings for me on Fridays", "rule"),
    # P17 identity: job
    _c("h-promoted", "just got promoted to senior SRE 🎉", "identity"),
    _c("h-nurse", "i work as a nurse, night shifts mostly", "identity"),
    # P18 decisions
    _c("h-picked", "We picked Postgres over MongoDB for the new ledger service", "decision"),
    _c("h-stick-with", "let's stick with REST for now, no GraphQL", "decision"),
    # P19 configuration
    _c(
        "h-autoscale",
        "the staging cluster autoscales between 3 and 12 nodes now",
        "configuration",
    ),
    _c("h-ci-ram", "Our CI runners now have 16 GB of RAM each", "configuration"),
    # P20 technical
    _c(
        "h-haskell",
        "I've done mostly Haskell for the last decade, so go easy on the Python idioms",
        "technical",
    ),
    _c("h-warehouse", "The data warehouse is Snowflake and dbt sits on top", "technical"),
    # P21 relationships
    _c("h-legal", "Ingrid from legal signs off on every vendor contract", "relationship"),
    _c("h-pm", "Tomasz is the PM for the checkout squad", "relationship"),
    # P22 projects
    _c(
        "h-rn-migration",
        "We're migrating the mobile app to React Native, about halfway done",
        "project",
    ),
    _c("h-marathon", "I'm training for the Stockholm marathon in June", "project"),
    # P23 secrets
    _c(
        "h-neg-wifi-secret",
        "the wifi password at the office is Kj8#mPq2!vL, keep it handy",
        secret="Kj8#mPq2!vL",
    ),
    _c("h-neg-aws-key", f"use this for the deploy: {AWS_KEY}", secret=AWS_KEY),
    # P24 already known
    _c(
        "h-neg-known-team",
        "like I said I'm on the platform team at Quillbase",
        known=("User works at Quillbase and runs the platform team",),
    ),
    _c(
        "h-neg-known-sentry",
        "yeah sentry catches all our errors",
        known=("The team uses Sentry for error tracking",),
    ),
    # P25 acknowledgements
    _c("h-neg-ship-it", "perfect, ship it 👍"),
    _c("h-neg-no-worries", "lol no worries"),
    # P26 identity in other languages
    _c("h-sv-lives", "Jag bor i Göteborg sedan i höstas", "identity"),
    _c("h-de-lives-works", "Ich wohne in Hamburg und arbeite als Designerin bei Otto", "identity"),
    # P27 technical in other languages
    _c("h-de-gitlab", "Wir nutzen GitLab CI für alle Pipelines", "technical"),
    _c("h-es-django", "Usamos Django y PostgreSQL en todos los proyectos", "technical"),
    # P28 relationships
    _c("h-es-boss", "Mi jefa se llama Carmen Ruiz", "relationship"),
    _c("h-reports-to-me", "Wei reports to me now", "relationship"),
    # P29 rules
    _c("h-sv-rule", "Svara alltid på svenska", "rule"),
    _c("h-starting-today", "Starting today, all PRs need a linked issue", "rule"),
    # P30 decisions in other languages
    _c("h-es-decision", "Al final elegimos Vercel para el frontend", "decision"),
    _c("h-sv-decision", "Vi har bestämt oss för att byta från Jira till Linear", "decision"),
    # P31 negatives in other languages
    _c("h-neg-de-question", "Kannst du mir erklären, wie Docker-Volumes funktionieren?"),
    _c("h-neg-sv-thanks", "Tack så mycket, ha en bra helg!"),
    # P32 preferences
    _c("h-favourite-db", "My favourite database is SQLite for anything small", "preference"),
    _c(
        "h-night-owl",
        "tbh I love working late at night 🌙 mornings are not my thing",
        "preference",
    ),
    # P33 technical
    _c(
        "h-node-version",
        "we're on Node 20 everywhere except the legacy billing box",
        "technical",
    ),
    _c(
        "h-mobile-langs",
        "The mobile apps are written in Swift and Kotlin, no cross-platform stuff",
        "technical",
    ),
    # P34 time-bound projects
    _c(
        "h-daycare",
        "our kid starts daycare in August so my hours will change then",
        "project",
    ),
    _c("h-beta-thursday", "The beta goes out to 50 customers next Thursday", "project"),
    # P35 configuration of agents
    _c(
        "h-cron-report",
        "I changed the cron for the report agent to run at 7am on weekdays",
        "configuration",
    ),
    _c(
        "h-ollama-endpoint",
        "I've pointed the memory agent at the local Ollama endpoint, model qwen2.5:7b",
        "configuration",
    ),
    # P36 questions about memory / chatter
    _c("h-neg-recall", "what did I tell you about my manager?"),
    _c("h-neg-next-question", "ok cool, next question: what's a good name for a Slack bot?"),
    # P37 decisions
    _c(
        "h-drop-py39",
        "decided: we're dropping Python 3.9 support in the next release",
        "decision",
    ),
    _c(
        "h-gone-with-auth0",
        "we've gone with Auth0 for login, after trying Keycloak for a month",
        "decision",
    ),
    # P38 identity: place and time zone
    _c("h-moved-berlin", "I moved to Berlin in January for the new job", "identity"),
    _c("h-pacific", "fyi I'm on Pacific time", "identity"),
    # P39 preferences
    _c(
        "h-rambling-async",
        "So yesterday I spent three hours in a meeting about meetings, which was fun, and then "
        "I finally got to code. Anyway I really prefer async updates in writing over calls, if "
        "you can help me draft stuff that way that'd be great.",
        "preference",
    ),
    _c(
        "h-dark-roast",
        "dark roast only ☕ anything lighter tastes like tea to me",
        "preference",
    ),
    # P40 a secret alongside a fact; a one-off operation
    _c(
        "h-identity-with-token",
        f"I'm Dana, devops at Kestrel. My GitHub token is {GH_TOKEN}",
        "identity",
        secret=GH_TOKEN,
    ),
    _c(
        "h-neg-deploy",
        "Deploy the main branch to staging",
        assistant="Deployed main to staging.",
    ),
    # P41 a fact inside a question
    _c(
        "h-pg16-question",
        "We're on Postgres 16 — how do I enable pg_stat_statements?",
        "technical",
    ),
    _c(
        "h-arch-question",
        "My laptop runs Arch, btw — what's the pacman equivalent of apt autoremove?",
        "technical",
    ),
    # P42 two facts in other languages
    _c(
        "h-de-two",
        "Ich heiße Jonas und ab sofort bitte immer auf Deutsch antworten",
        "identity",
        "rule",
    ),
    _c(
        "h-es-two",
        "Soy Diego, trabajo en Mercado Libre como SRE y prefiero respuestas cortas",
        "identity",
        "preference",
    ),
    # P43 paraphrases of what is already known
    _c(
        "h-neg-known-rule",
        "reminder: nobody pushes straight to main",
        known=("Never push directly to main",),
    ),
    _c(
        "h-neg-known-pref",
        "as you know I like my answers brief",
        known=("User prefers short answers",),
    ),
]

DEV_CASES: list[Case] = HELDOUT_CASES[0::2]
HELDOUT: list[Case] = HELDOUT_CASES[1::2]
