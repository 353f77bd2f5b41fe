"""Held-out whole conversations: written before any extraction code changed, never tuned on.

Run once, at the end, by benchmarks/bench_extraction.py. Each is 60 to 200 messages
with facts at the start, the middle and the end, several people, messy and
paraphrased turns, past dates with relative days, and turns that mix a fact with a
secret. The conversations happened days before ``TODAY`` (2026-12-10).
"""

from __future__ import annotations

from extract.conversations import Conversation, filler, stamp, talk, w

GH = "ghp_" + "Vq4Lm8Nx2Rt6Zb1Kc9Yd3Hs5Jf7Pa0We2Uo"
AWS = "AKIA" + "QW7RZ2MX4PLD8KJE"
SK = "sk-proj-" + "Hn3Kq8Lw2Vx7Rb4Ty1Zc9Md6Pf5Js0Ga"


def _onboarding() -> Conversation:
    start = talk(
        "hi! Dana Okafor here, I'm a data engineer at Northwind Labs and I'm based in Lisbon",
        "Nice to meet you, Dana.",
        "one standing rule: never schedule deploys on weekends, our on-call rotation is thin then",
        "Understood.",
    )
    middle = talk(
        "oh, big news from the steering group: we decided to move the warehouse from "
        "Redshift to BigQuery because the Redshift renewal doubled in price",
        "That's a big move.",
        "Kofi Mensah is our analytics lead, he owns all the Looker dashboards",
        "Good to know.",
    )
    end = talk(
        "last thing, I prefer answers with the SQL first and the explanation after",
        "Will do.",
    )
    messages = start + filler(11, 17) + middle + filler(12, 18) + end
    return Conversation(
        "long-onboarding",
        tuple(messages),
        (
            w("identity", "Dana Okafor", "data engineer", "Northwind Labs"),
            w("rule", "deploy", "weekend", "on-call"),
            w("decision", "BigQuery", "renewal"),
            w("relationship", "Kofi Mensah", "analytics lead"),
            w("preference", "SQL first"),
        ),
        also=(w("identity", "Lisbon"),),
        person="Dana",
    )


def _dated_session() -> Conversation:
    # 2026-11-25 is a Wednesday; "Monday" is 2026-11-30, "yesterday" 2026-11-24.
    messages = (
        talk(
            "morning. quick admin: yesterday we switched CI from Jenkins to GitHub Actions, "
            "Jenkins kept eating disks",
            "Noted.",
        )
        + filler(21, 14)
        + talk(
            "Hanna Berg starts Monday as our new backend developer",
            "Great, welcome Hanna.",
        )
        + filler(22, 14)
        + talk(
            "and the load test for the booking service runs tomorrow night",
            "Good luck with it.",
        )
        + filler(23, 3)
    )
    return Conversation(
        "long-dated-session",
        tuple(messages),
        (
            w("decision", "GitHub Actions", "2026-11-24"),
            w("relationship", "Hanna Berg", "2026-11-30"),
            w("project", "load test", "2026-11-26"),
        ),
        session_id="20261125-091200-q7rx",
        forbid=("2026-12-10", "2026-12-14", "2026-12-09", "2026-12-11"),
    )


def _timestamped() -> Conversation:
    # Messages carry created_at on 2026-10-14 (a Wednesday); next Monday is 2026-10-19.
    messages = (
        talk(
            "so my manager is Ines Duarte, she runs the platform group",
            "Got it.",
            "we're on Postgres 16 with dbt for the transformations",
            "Nice stack.",
        )
        + filler(31, 26)
        + talk(
            "update: the migration to Kafka starts next Monday, Ines signed it off",
            "Exciting.",
        )
        + filler(32, 28)
        + talk(
            "oh and please always answer me in British English, the docs team insists on it",
            "Of course.",
        )
    )
    stamp(messages, "2026-10-14T08:30:00+00:00", "created_at", minutes=3)
    return Conversation(
        "long-timestamped",
        tuple(messages),
        (
            w("relationship", "Ines Duarte", "platform"),
            w("technical", "Postgres 16", "dbt"),
            w("project", "Kafka", "2026-10-19"),
            w("rule", "British English", "docs team"),
        ),
        forbid=("2026-12-10", "2026-12-14"),
    )


def _secrets_mixed() -> Conversation:
    messages = (
        talk(
            f"I'm Tomás Reyes, I look after the bots. the token for the staging bot is {GH}",
            "Saved it and configured the staging bot.",
        )
        + filler(41, 15)
        + talk(
            f"we deploy everything with Terraform on AWS, my access key is {AWS} if you need it",
            "I won't store that key; Terraform on AWS noted.",
        )
        + filler(42, 15)
        + talk(
            f"export OPENAI_API_KEY={SK} and btw we decided on pnpm over npm for the "
            "monorepo because installs were 4x faster",
            "Decision noted.",
        )
        + filler(43, 2)
    )
    return Conversation(
        "long-secrets-mixed",
        tuple(messages),
        (
            w("identity", "Tomás Reyes"),
            w("configuration", "token", "staging bot"),
            w("technical", "Terraform", "AWS"),
            w("decision", "pnpm", "faster"),
        ),
        person="Tomás",
        secrets=(GH, AWS, SK, "is https", "my access key", "OPENAI_API_KEY"),
    )


def _long_messy() -> Conversation:
    messages = (
        talk(
            "heyy its priya nair, staff sre at Quillbase 👋",
            "Hi Priya!",
            "pls always answer in bullet points, i read these on my phone between pages",
            "Will do.",
        )
        + filler(51, 46)
        + talk(
            "ok so after way too many meetings we dropped Jira for Linear — Jira was just too "
            "slow for us",
            "Linear it is.",
            "marek is my tech lead btw, he reviews all the terraform",
            "Noted.",
        )
        + filler(52, 48)
        + talk(
            "fyi I set the nightly database backup to 02:00 UTC",
            "Good choice.",
        )
    )
    return Conversation(
        "long-messy-200",
        tuple(messages),
        (
            w("identity", "Priya Nair", "Quillbase"),
            w("rule", "bullet points", "phone"),
            w("decision", "Linear", "slow"),
            w("relationship", "Marek", "tech lead"),
            w("configuration", "backup", "02:00"),
        ),
        person="Priya",
    )


def _profile_known() -> Conversation:
    messages = (
        talk(
            "when I paste a traceback, just give me the fix, no lecture",
            "Understood.",
        )
        + filler(61, 20)
        + talk(
            "I'm training for the Porto half marathon in March, so mornings are for running",
            "Good luck!",
        )
        + filler(62, 22)
        + talk(
            "going forward, never suggest Windows-only tools, the whole team is on Linux",
            "Noted.",
        )
    )
    return Conversation(
        "long-profile-known",
        tuple(messages),
        (
            w("preference", "traceback", "fix"),
            w("project", "Porto", "marathon"),
            w("rule", "Windows", "Linux"),
        ),
        person="Sam",
        profile="# Profile\n\n## Identity\n\n- Sam Whitfield, backend developer at Tallyho.\n",
    )


CONVERSATIONS_HELDOUT: list[Conversation] = [
    _onboarding(),
    _dated_session(),
    _timestamped(),
    _secrets_mixed(),
    _long_messy(),
    _profile_known(),
]
